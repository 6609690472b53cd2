/**
 * The package as a consumer gets it: `npm pack` (of the already built tree), the tarball installed
 * offline from the npm cache (the dependencies `npm ci` put there) into a temporary directory, and
 * in it an ES-module project, a CommonJS project and two TypeScript projects (`tsc --noEmit
 * --strict`, moduleResolution node16 and bundler) that run the README's library example and import
 * every subpath export. The four projects share one installation (they are subdirectories of it)
 * so the test installs once.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/shared.js";

const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const TSC = join(REPO_ROOT, "node_modules/typescript/bin/tsc");
let dir = "";

/** The README's library example (the ```ts block after "As a library"). */
function readmeExample(): string {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("As a library"));
  const m = /```ts\n([\s\S]*?)```/.exec(section);
  if (m === null) throw new Error("README has no library example");
  return m[1]!;
}

/** Every subpath export and one export each must provide (checked at run time and by tsc). */
const SUBPATHS: readonly [string, string][] = [
  ["yaoc", "check"],
  ["yaoc/node", "NodeFs"],
  ["yaoc/hns", "loadPackage"],
  ["yaoc/yao", "analyzeModule"],
  ["yaoc/harp", "checkHarp"],
  ["yaoc/hcp", "checkHcp"],
  ["yaoc/a3s", "checkA3s"],
  ["yaoc/evidence", "toReceipt"],
  ["yaoc/eval", "startProgram"],
  ["yaoc/catalog", "Catalog"],
  ["yaoc/catalog/node", "openCatalog"],
];

function run(cwd: string, file: string, args: string[] = []): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [...args, file], { cwd, encoding: "utf8", timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function project(name: string, packageJson: object, files: Record<string, string>): string {
  const root = join(dir, name);
  mkdirSync(root, { recursive: true });
  writeFileSync(
    join(root, "package.json"),
    JSON.stringify({ name: `consumer-${name}`, private: true, ...packageJson }),
  );
  for (const [f, text] of Object.entries(files)) writeFileSync(join(root, f), text);
  return root;
}

/** A HARP app on disk, checked through the subpath API and the facade (frontends from the tarball). */
const HARP_FIXTURE = join(REPO_ROOT, "fixtures/harp/valid-minimal");

/**
 * A lockfile for the consumer: the tarball plus the repository lockfile's production entries
 * (version, resolved URL, integrity), so `npm ci --offline` installs from the npm cache that
 * `npm ci` filled, without asking the registry for package metadata.
 */
function consumerLock(tarballName: string): object {
  const repoLock = JSON.parse(readFileSync(join(REPO_ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, Record<string, unknown>>;
  };
  const repoPkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as Record<string, unknown>;
  const packages: Record<string, unknown> = {
    "": { name: "consumers", dependencies: { yaoc: `file:${tarballName}` } },
    "node_modules/yaoc": {
      version: repoPkg["version"],
      resolved: `file:${tarballName}`,
      dependencies: repoPkg["dependencies"],
      bin: repoPkg["bin"],
      engines: repoPkg["engines"],
    },
  };
  for (const [path, entry] of Object.entries(repoLock.packages)) {
    if (path === "" || entry["dev"] === true || entry["devOptional"] === true || entry["link"] === true) continue;
    packages[path] = entry;
  }
  return { name: "consumers", lockfileVersion: 3, requires: true, packages };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "yaoc-consumer-"));
  const packed = JSON.parse(
    execFileSync(NPM, ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    }),
  ) as { filename: string }[];
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "consumers", private: true, dependencies: { yaoc: `file:${packed[0]!.filename}` } }),
  );
  writeFileSync(join(dir, "package-lock.json"), JSON.stringify(consumerLock(packed[0]!.filename)));
  const install = (mode: string) =>
    spawnSync(NPM, ["ci", mode, "--no-audit", "--no-fund", "--ignore-scripts"], {
      cwd: dir,
      encoding: "utf8",
      timeout: 240_000,
    });
  // Offline from the cache `npm ci` filled; only when the cache lacks a tarball, ask the registry.
  let r = install("--offline");
  if (r.status !== 0 && /ENOTCACHED/.test(r.stderr)) r = install("--prefer-offline");
  if (r.status !== 0) throw new Error(`installing the tarball failed:\n${r.stderr}`);
}, 300_000);

afterAll(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
}, 120_000);

describe("the packed tarball", () => {
  it("ships LICENSE (Apache-2.0), the docs the help cites, and repository fields", () => {
    const installed = join(dir, "node_modules/yaoc");
    expect(readFileSync(join(installed, "LICENSE"), "utf8")).toContain("Apache License");
    const pkg = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as Record<string, unknown>;
    expect(pkg["repository"]).toBeTruthy();
    expect(pkg["homepage"]).toBeTruthy();
    expect(pkg["bugs"]).toBeTruthy();
    const help = ["help", "harp", "hcp", "evidence", "catalog", "a3s"]
      .map(
        (group) =>
          spawnSync(
            process.execPath,
            [join(installed, "bin/yaoc.js"), ...(group === "help" ? ["help"] : [group, "--help"])],
            { encoding: "utf8" },
          ).stdout,
      )
      .join("\n");
    const cited = [...new Set(help.match(/docs\/[a-z-]+\.md/g) ?? [])];
    expect(cited.length).toBeGreaterThan(0);
    for (const doc of cited) expect(readFileSync(join(installed, doc), "utf8").length, doc).toBeGreaterThan(100);
  });

  it("ESM: the README example rejects the ill-typed package and admits the fixed one; every subpath imports", () => {
    const imports = SUBPATHS.map(([spec, name], i) => `import { ${name} as e${i} } from "${spec}";`).join("\n");
    const root = project(
      "esm",
      { type: "module" },
      {
        "readme.mjs": readmeExample(),
        "subpaths.mjs": `${imports}
import { check } from "yaoc";
import { NodeFs } from "yaoc/node";
import { checkHarp } from "yaoc/harp";
const exported = [${SUBPATHS.map((_, i) => `e${i}`).join(", ")}];
if (exported.some((e) => typeof e !== "function")) throw new Error("a subpath export is missing");
const viaFacade = await check(new NodeFs(), ${JSON.stringify(HARP_FIXTURE)});
const direct = await checkHarp(new NodeFs(), ${JSON.stringify(HARP_FIXTURE)});
console.log(JSON.stringify([viaFacade.kind, viaFacade.valid, viaFacade.identity === direct.identity]));
`,
      },
    );
    const readme = run(root, "readme.mjs");
    expect(readme.err).toBe("");
    const lines = readme.out.trim().split("\n");
    expect(lines[0]).toBe("false [ 'yao.type_mismatch' ]");
    expect(lines[1]).toMatch(/^sha256:[0-9a-f]{64}$/);
    const sub = run(root, "subpaths.mjs");
    expect(sub.err).toBe("");
    expect(JSON.parse(sub.out)).toEqual(["harp", true, true]);
  });

  it("CommonJS: require() of every subpath, and the README example inside an async function", () => {
    const requires = SUBPATHS.map(
      ([spec, name]) =>
        `if (typeof require(${JSON.stringify(spec)}).${name} !== "function") throw new Error("${spec}: ${name} missing");`,
    ).join("\n");
    const example = readmeExample().replace(
      'import { check, checkSource, MemoryFs } from "yaoc";',
      'const { check, checkSource, MemoryFs } = require("yaoc");',
    );
    const root = project(
      "cjs",
      { type: "commonjs" },
      { "main.cjs": `${requires}\n(async () => {\n${example}\n})();\n` },
    );
    const r = run(root, "main.cjs", ["--no-warnings"]);
    expect(r.err).toBe("");
    const lines = r.out.trim().split("\n");
    expect(lines[0]).toBe("false [ 'yao.type_mismatch' ]");
    expect(lines[1]).toMatch(/^sha256:/);
  });

  it.each([
    ["node16", { module: "node16", moduleResolution: "node16" }],
    ["bundler", { module: "esnext", moduleResolution: "bundler" }],
  ])(
    "TypeScript (moduleResolution %s): tsc --noEmit --strict accepts the README example and typed subpath imports",
    (name, options) => {
      const imports = SUBPATHS.map(([spec, exported], i) => `import { ${exported} as e${i} } from "${spec}";`).join(
        "\n",
      );
      const root = project(
        `ts-${name}`,
        { type: "module" },
        {
          "tsconfig.json": JSON.stringify({
            compilerOptions: {
              ...options,
              target: "es2022",
              strict: true,
              noEmit: true,
              skipLibCheck: false,
              types: [],
              lib: ["es2022", "dom"],
            },
            include: ["*.ts"],
          }),
          "readme.ts": `${readmeExample()}\nexport {};\n`,
          "typed.ts": `${imports}
import type { CheckResult, Diagnostic, PackageFs } from "yaoc";
export const used = [${SUBPATHS.map((_, i) => `e${i}`).join(", ")}];
export async function admit(fs: PackageFs, path: string): Promise<string | null> {
  const r: CheckResult = await e0(fs, path);
  const codes: readonly string[] = r.diagnostics.map((d: Diagnostic) => d.code);
  return r.valid && codes.length >= 0 ? r.identity : null;
}
// @ts-expect-error: check needs a file system and a path
void e0("only-a-path");
`,
        },
      );
      const r = spawnSync(process.execPath, [TSC, "-p", root], { cwd: root, encoding: "utf8", timeout: 120_000 });
      expect(r.stdout + r.stderr).toBe("");
      expect(r.status).toBe(0);
    },
    120_000,
  );
});
