/**
 * The attack corpus, for every frontend, on the real file system (NodeFs) in a temp dir built at
 * test time: the file each frontend reads first is replaced by a symlink out of the package, a
 * symlink to /dev/zero, a FIFO, a directory, a symlink loop, a hard link to a file outside, or a
 * 100 MB sparse file. Each must be rejected with a diagnostic of that frontend, in bounded time,
 * without blocking on the FIFO or reading /dev/zero or the 100 MB file whole. In-memory cases cover
 * names (.., absolute, Windows spellings, NUL, long, look-alike/NFD/case) and size bombs.
 * fixtures/hostile/README.md lists what each case is.
 */
import { execFileSync } from "node:child_process";
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { checkA3s } from "../../src/a3s/index.js";
import type { CheckResult } from "../../src/diagnostics/result.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { NodeFs } from "../../src/fs/node-fs.js";
import type { PackageFs } from "../../src/fs/package-fs.js";
import { checkHarp } from "../../src/harp/index.js";
import { checkHcp } from "../../src/hcp/index.js";
import { check } from "../../src/check/check.js";
import { atlasPackage } from "../a3s/own-package.js";

const root = mkdtempSync(join(tmpdir(), "yaoc-hostile-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const HCP_SURFACE = JSON.stringify({
  id: "acme.tickets",
  wrap: { bin: "./bin/tool" },
  verbs: { "a.list": { argv: ["a.list"] } },
});
const HCP_POLICY = JSON.stringify({ surface_id: "acme.tickets", verbs: { "a.list": { effect: "allow" } } });
const HERE = dirname(fileURLToPath(import.meta.url));
const read = (...p: string[]): string => readFileSync(join(HERE, "..", "..", ...p), "utf8");
const HARP = read("fixtures", "harp", "valid-minimal", "harp.json");
/** Our own complete A3S package (test/a3s/own-package.ts). */
const A3S_FILES: Record<string, string> = atlasPackage();
const ACL = A3S_FILES["a3s-use-extension.acl"]!;

interface Frontend {
  readonly name: string;
  /** Files of a small package, relative to its root. */
  readonly files: Record<string, string>;
  /** The file replaced by each attack. */
  readonly target: string;
  /** The path handed to the checker, relative to the temp root. */
  readonly path: string;
  readonly prefix: RegExp;
  check(fs: PackageFs, path: string): Promise<CheckResult>;
}

const FRONTENDS: Frontend[] = [
  {
    name: "hns",
    files: {
      "manifest.yao": '(manifest (id x) (version "1") (title "T") (entry "main.yao") (capabilities (tools read)))\n',
      "contract.yao": "(contract (identity x))\n",
      "main.yao": '(eval (requires (tools read)) (call read (path "a")))\n',
    },
    target: "manifest.yao",
    path: "p.hns",
    prefix: /^(hns|yao)\./,
    check: (fs, p) => check(fs, p, { kind: "hns" }),
  },
  {
    name: "harp",
    files: { "harp.json": HARP, "server.mjs": "export {};\n" },
    target: "harp.json",
    path: "p",
    prefix: /^harp/,
    check: (fs, p) => checkHarp(fs, p),
  },
  {
    name: "hcp",
    files: { "surface.json": HCP_SURFACE, "policy.json": HCP_POLICY, "HARNESS.md": "# x\n", "bin/tool": "#!/bin/sh\n" },
    target: "surface.json",
    path: "p",
    prefix: /^hcp\./,
    check: (fs, p) => checkHcp(fs, p),
  },
  {
    name: "a3s",
    files: A3S_FILES,
    target: "a3s-use-extension.acl",
    path: "p",
    prefix: /^a3s\./,
    check: (fs, p) => checkA3s(fs, p),
  },
];

const hasMkfifo = (() => {
  try {
    execFileSync("mkfifo", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/** Bounded time: a blocking open (FIFO, /dev/zero) fails the test instead of hanging it. */
async function within<T>(p: Promise<T>, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

type Attack = (file: string, outside: string) => void;
const ATTACKS: [string, Attack][] = [
  ["symlink to a file outside the package", (f, outside) => symlinkSync(join(outside, "secret"), f)],
  ["symlink to /dev/zero", (f) => symlinkSync("/dev/zero", f)],
  ["symlink to a directory", (f, outside) => symlinkSync(outside, f)],
  ["directory", (f) => mkdirSync(f)],
  [
    "symlink loop",
    (f) => {
      symlinkSync(`${f}.b`, f);
      symlinkSync(f, `${f}.b`);
    },
  ],
  ["dangling symlink", (f) => symlinkSync(`${f}.missing`, f)],
  [
    "100 MB sparse file",
    (f) => {
      writeFileSync(f, "");
      truncateSync(f, 100 * 1024 * 1024);
    },
  ],
];
if (hasMkfifo) ATTACKS.push(["FIFO", (f) => execFileSync("mkfifo", [f])]);

let n = 0;
function build(fe: Frontend, attack: Attack): string {
  const base = join(root, `case-${n++}`);
  const outside = join(base, "outside");
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, "secret"), fe.files[fe.target]!);
  const pkg = join(base, fe.path);
  for (const [rel, text] of Object.entries(fe.files)) {
    if (rel === fe.target) continue;
    mkdirSync(join(pkg, rel, ".."), { recursive: true });
    writeFileSync(join(pkg, rel), text, { mode: 0o755 });
  }
  mkdirSync(pkg, { recursive: true });
  attack(join(pkg, fe.target), outside);
  return pkg;
}

describe.each(FRONTENDS)("$name on a hostile file system", (fe) => {
  it("accepts the untouched package (the attacks below are what makes it fail)", async () => {
    const base = join(root, `ok-${fe.name}`);
    for (const [rel, text] of Object.entries(fe.files)) {
      mkdirSync(join(base, fe.path, rel, ".."), { recursive: true });
      writeFileSync(join(base, fe.path, rel), text, { mode: 0o755 });
    }
    const r = await fe.check(new NodeFs(), join(base, fe.path));
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it.each(ATTACKS)("rejects %s with its own code, in bounded time", async (label, attack) => {
    const pkg = build(fe, attack);
    const before = process.memoryUsage().rss;
    const r = await within(fe.check(new NodeFs(), pkg));
    expect(r.valid, label).toBe(false);
    const errors = r.diagnostics.filter((d) => d.severity === "error");
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]!.code, label).toMatch(fe.prefix);
    // Never read whole: memory grows far less than the 100 MB file / endless /dev/zero.
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
    // Nothing from outside the package is reported as package content.
    expect(JSON.stringify([...(r.sources?.keys() ?? [])])).not.toContain("outside");
  });
});

describe.each(FRONTENDS)("$name and hard links", (fe) => {
  // A hard link is a regular file whose bytes are inside the package directory; PackageFs exposes
  // no link count, so no frontend can tell it apart. The content read is the link's own (the
  // package's), so nothing outside is read *through a path*; see docs/hardening.md.
  it("checks a hard-linked file as the regular file it is, in bounded time", async () => {
    const pkg = build(fe, (f, outside) => linkSync(join(outside, "secret"), f));
    const r = await within(fe.check(new NodeFs(), pkg));
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });
});

describe("hostile names and size bombs (in memory)", () => {
  const hnsFiles = FRONTENDS[0]!.files;
  const mem = (extra: Record<string, string>): MemoryFs =>
    MemoryFs.from({ ...Object.fromEntries(Object.entries(hnsFiles).map(([k, v]) => [`/p.hns/${k}`, v])), ...extra });

  it.each([
    ["..", '(manifest (id x) (version "1") (title "T") (entry "../outside.yao") (capabilities (tools read)))'],
    ["absolute POSIX", '(manifest (id x) (version "1") (title "T") (entry "/etc/passwd") (capabilities (tools read)))'],
    ["Windows drive", '(manifest (id x) (version "1") (title "T") (entry "C:\\\\x.yao") (capabilities (tools read)))'],
    [
      "Windows UNC",
      '(manifest (id x) (version "1") (title "T") (entry "\\\\\\\\server\\\\x.yao") (capabilities (tools read)))',
    ],
    ["backslash ..", '(manifest (id x) (version "1") (title "T") (entry "..\\\\x.yao") (capabilities (tools read)))'],
    [
      "NUL byte",
      '(manifest (id x) (version "1") (title "T") (entry "ma\\u0000in.yao") (capabilities (tools read)))'.replace(
        "\\u0000",
        "\u0000",
      ),
    ],
    [
      "very long name",
      `(manifest (id x) (version "1") (title "T") (entry "${"a".repeat(5000)}.yao") (capabilities (tools read)))`,
    ],
  ])("HNS rejects an entry path that is %s", async (_label, manifest) => {
    const r = await within(
      check(mem({ "/p.hns/manifest.yao": manifest, "/outside.yao": hnsFiles["main.yao"]! }), "/p.hns", {
        analyze: false,
      }),
    );
    expect(r.valid).toBe(false);
    expect(r.diagnostics[0]!.code).toMatch(/^(hns|yao)\./);
  });

  it("HNS: NFC/NFD-different and case-only-different function files are not conflated", async () => {
    const fn = (name: string) => `(fn ${name} (params) (returns Int) (body 1))\n`;
    const r = await within(
      check(
        mem({
          "/p.hns/functions/caf\u00e9.yao": fn("nfc"),
          "/p.hns/functions/cafe\u0301.yao": fn("nfd"),
          "/p.hns/functions/F.yao": fn("upper"),
          "/p.hns/functions/f.yao": fn("lower"),
        }),
        "/p.hns",
        { keepAnalysis: true },
      ),
    );
    // File names are compared as code points, never normalised or case-folded: four files, four functions.
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const pkg = (r as { package?: { functions: { name: string; file: string }[] } }).package;
    expect(pkg?.functions.map((f) => [f.name, f.file.slice("/p.hns/functions/".length)])).toEqual([
      ["lower", "f.yao"],
      ["nfc", "caf\u00e9.yao"],
      ["nfd", "cafe\u0301.yao"],
      ["upper", "F.yao"],
    ]);
  });

  it("HNS: 100,000 functions in one source are rejected by a limit, in bounded time", async () => {
    const fns = Array.from({ length: 100_000 }, (_, i) => `(fn f${i} (params) (returns Int) (body 1))`).join("\n");
    const r = await within(
      check(
        MemoryFs.from({
          "/p.hns": `${hnsFiles["manifest.yao"]}${hnsFiles["contract.yao"]}${hnsFiles["main.yao"]}${fns}`,
        }),
        "/p.hns",
      ),
    );
    expect(r.valid).toBe(false);
    expect(r.diagnostics[0]!.code).toMatch(/limit/);
  });

  it("HNS: 200,000-deep nesting is rejected without recursion", async () => {
    const r = await within(check(mem({ "/p.hns/main.yao": "(".repeat(200_000) }), "/p.hns", { analyze: false }));
    expect(r.valid).toBe(false);
    expect(r.diagnostics[0]!.code).toMatch(/limit/);
    const within256k = await within(
      check(mem({ "/p.hns/main.yao": `${"(".repeat(100_000)}${")".repeat(100_000)}` }), "/p.hns", { analyze: false }),
    );
    expect(within256k.diagnostics[0]!.code).toBe("yao.nesting_limit");
  });

  it("HCP and HARP: 200,000-deep JSON nesting is a diagnostic, not a stack overflow", async () => {
    const deep = "[".repeat(200_000) + "]".repeat(200_000);
    const hcp = await within(
      checkHcp(
        MemoryFs.from({ "/p/surface.json": deep, "/p/policy.json": HCP_POLICY, "/p/HARNESS.md": "# x\n" }),
        "/p",
      ),
    );
    expect(hcp.valid).toBe(false);
    const harp = await within(checkHarp(MemoryFs.from({ "/p/harp.json": deep }), "/p"));
    expect(harp.valid).toBe(false);
  });

  it("HCP: 10,000 verbs are checked in bounded time, with the 5–12 verbs SHOULD as the only finding", async () => {
    const verbs = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`a.v${i}`, { argv: [`v${i}`] }]));
    const policy = Object.fromEntries(Object.keys(verbs).map((v) => [v, { effect: "allow" }]));
    const r = await within(
      checkHcp(
        MemoryFs.from({
          "/p/surface.json": JSON.stringify({ id: "acme.tickets", wrap: { bin: "./bin/tool" }, verbs }),
          "/p/policy.json": JSON.stringify({ surface_id: "acme.tickets", verbs: policy }),
          "/p/HARNESS.md": "# x\n",
          "/p/bin/tool": "#!/bin/sh\n",
        }),
        "/p",
      ),
    );
    expect(r.diagnostics.map((d) => [d.code, d.severity])).toEqual([["hcp.verbs.too_many", "warning"]]);
  });

  it("A3S: 10,000 surfaces are rejected by the per-kind surface limit, in bounded time", async () => {
    const skills = Array.from({ length: 10_000 }, (_, i) => `skill "s${i}" { path = "s/${i}/SKILL.md" }\n`).join("");
    const acl = ACL.replace(/\n}\s*$/, `\n${skills}}\n`);
    const r = await within(
      checkA3s(MemoryFs.from({ "/q/a3s-use-extension.acl": acl, "/q/README.md": "# x\n" }), "/q"),
      30_000,
    );
    expect(r.valid).toBe(false);
    expect(r.diagnostics.map((d) => d.code)).toEqual(["a3s.manifest.surface_count"]);
  }, 40_000);

  it("A3S/OKF: a bundle of 20,000 tiny files (zip-bomb-like fan-out) is rejected by the entry limit", async () => {
    const files: Record<string, string> = { "/p/a3s-use-extension.acl": ACL, "/p/README.md": "# x\n" };
    for (let i = 0; i < 20_000; i++) files[`/p/okf/b/c${i}.md`] = "---\ntype: Metric\n---\n";
    const r = await within(checkA3s(MemoryFs.from(files), "/p"), 30_000);
    expect(r.valid).toBe(false);
    expect(r.diagnostics.map((d) => d.code)).toContain("a3s.package.too_large");
  }, 40_000);
});
