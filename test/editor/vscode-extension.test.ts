/**
 * The VS Code extension in editors/vscode/: its manifest points at files that exist, its client
 * bundle loads and exports activate/deactivate, and `vsce package` (@vscode/vsce, no publishing)
 * produces a .vsix holding the grammar, the language configuration and the bundled client.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/shared.js";

const EXT = join(REPO_ROOT, "editors/vscode");
const out = mkdtempSync(join(tmpdir(), "yaoc-vsix-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface Manifest {
  main: string;
  engines: { vscode: string };
  contributes: {
    languages: { id: string; extensions: string[]; configuration: string }[];
    grammars: { language: string; scopeName: string; path: string }[];
  };
}

/** Entry names of a zip archive, from its central directory (signature 0x02014b50). */
function zipEntries(zip: Buffer): string[] {
  const names: string[] = [];
  for (
    let i = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    i >= 0;
    i = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), i + 46)
  ) {
    const nameLength = zip.readUInt16LE(i + 28);
    names.push(zip.subarray(i + 46, i + 46 + nameLength).toString("utf8"));
  }
  return names;
}

describe("editors/vscode", () => {
  const manifest = JSON.parse(readFileSync(join(EXT, "package.json"), "utf8")) as Manifest;

  it("declares the Yao language for .yao and .hns with a configuration and grammar that exist", () => {
    const yao = manifest.contributes.languages.find((l) => l.id === "yao")!;
    expect(yao.extensions).toEqual([".yao", ".hns"]);
    const config = JSON.parse(readFileSync(join(EXT, yao.configuration), "utf8"));
    expect(config.comments.lineComment).toBe(";");
    expect(config.brackets).toEqual([["(", ")"]]);
    expect(config.autoClosingPairs.map((p: { open: string }) => p.open)).toEqual(["(", '"']);
    const grammar = manifest.contributes.grammars[0]!;
    expect(JSON.parse(readFileSync(join(EXT, grammar.path), "utf8")).scopeName).toBe(grammar.scopeName);
  });

  it("bundles a client that loads and starts `yaoc lsp`", () => {
    execFileSync(process.execPath, [join(REPO_ROOT, "scripts/bundle-extension.mjs")], {
      cwd: REPO_ROOT,
      stdio: "pipe",
    });
    const bundle = join(EXT, manifest.main);
    expect(existsSync(bundle)).toBe(true);
    const text = readFileSync(bundle, "utf8");
    expect(text).toContain('require("child_process")');
    expect(text).toMatch(/args: \["lsp"\]/);
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
  }, 120_000);

  it("packages with vsce into a .vsix", () => {
    const vsix = join(out, "yao.vsix");
    const vsce = join(REPO_ROOT, "node_modules/@vscode/vsce/vsce");
    execFileSync(
      process.execPath,
      [vsce, "package", "--no-dependencies", "--allow-missing-repository", "--skip-license", "-o", vsix],
      { cwd: EXT, stdio: "pipe" },
    );
    const entries = zipEntries(readFileSync(vsix));
    for (const f of [
      "extension/package.json",
      "extension/syntaxes/yao.tmLanguage.json",
      "extension/language-configuration.json",
      "extension/dist/extension.js",
      "extension/readme.md",
    ]) {
      expect(entries).toContain(f);
    }
    expect(entries.some((e) => e.startsWith("extension/src/"))).toBe(false);
  }, 120_000);
});
