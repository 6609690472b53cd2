/**
 * The VS Code extension in editors/vscode/: `npm run package:vscode`'s script builds one .vsix
 * (client bundled, the yaoc server copied in, packaged by @vscode/vsce); this test builds it once,
 * unpacks it, and checks the manifest, grammar, language configuration, client entry and the
 * shipped server, which it starts from the unpacked files and initializes over stdio.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LspConnection } from "../../bench/lsp-connection.js";
import { REPO_ROOT } from "../support/shared.js";

const out = mkdtempSync(join(tmpdir(), "yaoc-vsix-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface Manifest {
  main: string;
  engines: { vscode: string };
  activationEvents: string[];
  contributes: {
    languages: { id: string; extensions: string[]; configuration: string }[];
    grammars: { language: string; scopeName: string; path: string }[];
    configuration: { properties: Record<string, { default: unknown }> };
  };
}

/** The files of a zip archive: its central directory (0x02014b50) locates each stored or deflated entry. */
function unzip(zip: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const central = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
  for (let i = zip.indexOf(central); i >= 0; i = zip.indexOf(central, i + 46)) {
    const method = zip.readUInt16LE(i + 10);
    const compressed = zip.readUInt32LE(i + 20);
    const size = zip.readUInt32LE(i + 24);
    const nameLength = zip.readUInt16LE(i + 28);
    const local = zip.readUInt32LE(i + 42);
    const name = zip.subarray(i + 46, i + 46 + nameLength).toString("utf8");
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + compressed);
    files.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    expect(files.get(name)!.length).toBe(size);
  }
  return files;
}

let files: Map<string, Buffer>;
const text = (name: string): string => {
  const b = files.get(name);
  if (b === undefined) throw new Error(`${name} is not in the .vsix`);
  return b.toString("utf8");
};

beforeAll(() => {
  const vsix = execFileSync(process.execPath, [join(REPO_ROOT, "scripts/package-vscode.mjs")], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
  expect(vsix).toMatch(/dist\/vscode\/yao-yaoc-\d+\.\d+\.\d+\.vsix$/);
  files = unzip(readFileSync(vsix));
}, 180_000);

describe("the packaged VS Code extension", () => {
  it("has a manifest whose languages, grammar, configuration and entry are in the package", () => {
    const manifest = JSON.parse(text("extension/package.json")) as Manifest;
    expect(manifest.engines.vscode).toMatch(/^\^1\./);
    expect(manifest.activationEvents).toContain("onLanguage:yao");
    const yao = manifest.contributes.languages.find((l) => l.id === "yao")!;
    expect(yao.extensions).toEqual([".yao", ".hns"]);
    const config = JSON.parse(text(join("extension", yao.configuration)));
    expect(config.comments.lineComment).toBe(";");
    expect(config.brackets).toEqual([["(", ")"]]);
    expect(config.autoClosingPairs.map((p: { open: string }) => p.open)).toEqual(["(", '"']);
    const grammar = manifest.contributes.grammars[0]!;
    expect(JSON.parse(text(join("extension", grammar.path))).scopeName).toBe(grammar.scopeName);
    expect(files.has(join("extension", manifest.main))).toBe(true);
    expect(manifest.contributes.configuration.properties["yao.server.path"]!.default).toBe("");
    expect([...files.keys()].some((e) => e.startsWith("extension/src/"))).toBe(false);
    expect(text("extension/readme.md")).toContain("yaoc");
  });

  it("has a client that loads and starts the shipped server unless yao.server.path names one", () => {
    const bundle = join(out, "extension.js");
    writeFileSync(bundle, text("extension/dist/extension.js"));
    const source = readFileSync(bundle, "utf8");
    expect(source).toContain('require("child_process")');
    expect(source).toContain('asAbsolutePath("server/yaoc.mjs")');
    // Load it with a stand-in for the `vscode` module the editor provides.
    const Module = createRequire(import.meta.url)("node:module") as { _load: (...a: unknown[]) => unknown };
    const original = Module._load;
    const stub: unknown = new Proxy(
      {},
      {
        get: (_t, key) =>
          key === "workspace" ? { getConfiguration: () => ({ get: (_k: string, d: unknown) => d }) } : class {},
      },
    );
    Module._load = function (request: unknown, ...rest: unknown[]) {
      return request === "vscode" ? stub : original.call(this, request, ...rest);
    };
    try {
      const ext = createRequire(import.meta.url)(bundle) as Record<string, unknown>;
      expect(typeof ext["activate"]).toBe("function");
      expect(typeof ext["deactivate"]).toBe("function");
    } finally {
      Module._load = original;
    }
  });

  it("ships a server that runs from the unpacked extension and announces the editing features", async () => {
    const dir = join(out, "unpacked");
    for (const [name, data] of files) {
      if (!name.startsWith("extension/server/")) continue;
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), data);
    }
    const child = spawn(process.execPath, [join(dir, "extension/server/yaoc.mjs"), "lsp", "--stdio"], { cwd: out });
    const connection = new LspConnection(
      child,
      () => {},
      () => {},
    );
    const init = (await connection.initialize(out, {})) as { capabilities: Record<string, unknown> };
    expect(init.capabilities["renameProvider"]).toEqual({ prepareProvider: true });
    expect(init.capabilities["semanticTokensProvider"]).toBeDefined();
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    await connection.request("shutdown", null);
    connection.notify("exit", null);
    expect(await exited).toBe(0);
  }, 60_000);
});
