/**
 * `yaoc check --cache`: output with the cache (empty or warm) is byte-identical to output without
 * it, in every format, over every fixture; a hit really is used; damaged, truncated and swapped
 * entries are ignored, recomputed and rewritten; two processes writing one cache at once leave only
 * whole entries; another version's entries are not trusted; the least recently used entries are
 * pruned past the budget; an unusable cache directory costs a warning, never a wrong result.
 */
import { spawn } from "node:child_process";
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  cpSync,
  mkdirSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCheck } from "../../src/cli/check-command.js";
import { NodeFs } from "../../src/fs/node-fs.js";
import type { OutputFormat } from "../../src/output/format.js";
import { decodeEntry, encodeEntry } from "../../src/cache/entry.js";
import { NodeCacheStore } from "../../src/cache/node-store.js";
import { VERSION } from "../../src/version.js";
import { CACHE_FORMAT } from "../../src/cache/key.js";
import { captureOutput } from "../support/capture.js";
import { BIN, yaoc } from "../support/cli.js";
import { REPO_ROOT } from "../support/shared.js";

/** Every fixture folder (walked: every package kind, valid and invalid, hostile inputs) and the examples. */
const INPUTS = ["fixtures", "examples"];
const FORMATS = ["human", "json", "sarif", "github"] as const;

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "yaoc-cache-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Every entry file of a cache directory. */
function entries(dir: string): string[] {
  const root = join(dir, `v${CACHE_FORMAT}`);
  return readdirSync(root).flatMap((shard) => readdirSync(join(root, shard)).map((n) => join(root, shard, n)));
}

/**
 * `yaoc check` in this process (the checker stays warm, so the whole fixture tree costs seconds):
 * the same `runCheck` the command line calls, with stdout and stderr captured.
 */
async function check(
  inputs: readonly string[],
  format: OutputFormat,
  cacheDir?: string,
): Promise<{ code: number; out: string; err: string }> {
  const {
    value: code,
    out,
    err,
  } = await captureOutput(() =>
    runCheck(new NodeFs(), inputs, {
      format,
      analyze: true,
      ...(cacheDir !== undefined ? { cache: { dir: cacheDir, maxBytes: 256 * 1024 * 1024 } } : {}),
    }),
  );
  return { code, out, err };
}

function keyOf(file: string): string {
  return file.slice(file.lastIndexOf("/") + 1);
}

function trusted(file: string): boolean {
  return "check" in decodeEntry(readFileSync(file), keyOf(file), VERSION);
}

describe("check --cache", () => {
  const uncached = new Map<string, { code: number; out: string }>();
  let cacheDir: string;
  beforeAll(async () => {
    cacheDir = join(tmp, "common-cache");
    for (const format of FORMATS) uncached.set(format, await check(INPUTS, format));
  }, 300_000);

  it("prints the same bytes and exit code as without it, cache empty and warm, in every format", async () => {
    const cold = await check(INPUTS, "human", cacheDir);
    expect(cold.out).toBe(uncached.get("human")!.out);
    expect(cold.code).toBe(uncached.get("human")!.code);
    expect(cold.err).toBe("");
    const written = entries(cacheDir);
    expect(written.length).toBeGreaterThan(100);
    expect(written.every(trusted)).toBe(true);
    for (const format of FORMATS) {
      const warm = await check(INPUTS, format, cacheDir);
      expect(warm.out, format).toBe(uncached.get(format)!.out);
      expect(warm.code, format).toBe(uncached.get(format)!.code);
      expect(warm.out.length).toBeGreaterThan(1000);
    }
    // A warm run adds nothing: the key does not depend on the format.
    expect(entries(cacheDir).length).toBe(written.length);
    // Through the real executable.
    const cli = yaoc(["check", "--cache-dir", cacheDir, "--format", "json", ...INPUTS]);
    expect(cli.out).toBe(uncached.get("json")!.out);
    expect(cli.code).toBe(uncached.get("json")!.code);
  }, 300_000);

  it("uses a hit: a sealed entry for the key is what gets printed", () => {
    const dir = join(tmp, "forged");
    const pkg = join(tmp, "forged-pkg.hns");
    cpSync(join(REPO_ROOT, "examples/review.hns"), pkg);
    expect(yaoc(["check", "--cache-dir", dir, pkg]).code).toBe(0);
    const [file] = entries(dir);
    const stored = decodeEntry(readFileSync(file!), keyOf(file!), VERSION);
    if (!("check" in stored)) throw new Error("entry not trusted");
    const forged = { ...stored.check, result: { ...stored.check.result, identity: "sha256:forged" } };
    writeFileSync(file!, encodeEntry(keyOf(file!), VERSION, forged)!);
    expect(yaoc(["check", "--cache-dir", dir, pkg]).out).toContain("sha256:forged");
    // File times are not part of the key: a touched package is still a hit.
    const later = new Date(Date.now() + 60_000);
    utimesSync(pkg, later, later);
    expect(yaoc(["check", "--cache-dir", dir, pkg]).out).toContain("sha256:forged");
    // The same package with one byte changed is another key: checked afresh.
    writeFileSync(pkg, `${readFileSync(pkg, "utf8")}\n`);
    expect(yaoc(["check", "--cache-dir", dir, pkg]).out).not.toContain("sha256:forged");
  });

  const damages: [string, (files: string[]) => void][] = [
    [
      "a byte flipped in every entry",
      (files) => {
        for (const f of files) {
          const b = readFileSync(f);
          const at = Math.floor(b.length / 2);
          b[at] = b[at]! ^ 0x01;
          writeFileSync(f, b);
        }
      },
    ],
    [
      "every entry truncated",
      (files) => {
        for (const f of files) writeFileSync(f, readFileSync(f).subarray(0, Math.floor(statSync(f).size * 0.7)));
      },
    ],
    [
      "entries swapped between keys",
      (files) => {
        const bytes = files.map((f) => readFileSync(f));
        files.forEach((f, i) => writeFileSync(f, bytes[(i + 1) % files.length]!));
      },
    ],
  ];
  /** Valid and invalid packages of two kinds, with diagnostics pointing into sources. */
  const SOME = ["fixtures/hns/failure", "fixtures/harp", "examples"];
  for (const [what, damage] of damages) {
    it(`ignores, recomputes and rewrites entries with ${what}`, async () => {
      const dir = join(tmp, what.replace(/\W+/g, "-"));
      const inputs = SOME;
      const expected = await check(inputs, "json");
      await check(inputs, "human", dir);
      const files = entries(dir);
      expect(files.length).toBeGreaterThan(10);
      damage(files);
      expect(files.filter(trusted)).toEqual([]);
      const again = await check(inputs, "json", dir);
      expect(again.out).toBe(expected.out);
      expect(again.code).toBe(expected.code);
      expect(entries(dir).sort()).toEqual([...files].sort());
      expect(files.every(trusted)).toBe(true);
    });
  }

  it("leaves only whole entries when two processes write the same cache at once", async () => {
    const dir = join(tmp, "concurrent");
    const inputs = SOME;
    const run = (): Promise<number> =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, "check", "--cache-dir", dir, "--format", "json", ...inputs], {
          cwd: REPO_ROOT,
          stdio: "ignore",
        });
        child.on("error", reject);
        child.on("close", (code) => resolve(code ?? -1));
      });
    const codes = await Promise.all([run(), run()]);
    expect(codes[0]).toBe(codes[1]);
    const files = entries(dir);
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((f) => !trusted(f))).toEqual([]);
    expect(readdirSync(join(dir, "tmp"))).toEqual([]);
    // --jobs with the cache: the workers read the entries both processes wrote.
    expect(yaoc(["check", "--cache-dir", dir, "--jobs", "2", "--format", "json", ...inputs]).out).toBe(
      (await check(inputs, "json")).out,
    );
  });

  it("keeps its directory out of git and backups, and is off by default", () => {
    expect(readFileSync(join(cacheDir, ".gitignore"), "utf8")).toMatch(/^\*$/m);
    expect(readFileSync(join(cacheDir, "CACHEDIR.TAG"), "utf8")).toMatch(
      /^Signature: 8a477f597d28d172789f06886806bc55/,
    );
    const cwd = join(tmp, "default-off");
    mkdirSync(cwd);
    cpSync(join(REPO_ROOT, "examples/review.hns"), join(cwd, "a.hns"));
    yaoc(["check", "a.hns"], { cwd });
    expect(readdirSync(cwd)).toEqual(["a.hns"]);
    yaoc(["check", "--cache", "a.hns"], { cwd });
    expect(readdirSync(cwd).sort()).toEqual([".yaoc-cache", "a.hns"]);
  });

  it("warns once and still prints the right result when the cache directory cannot be used", () => {
    const notADir = join(tmp, "a-file");
    writeFileSync(notADir, "");
    const r = yaoc(["check", "--cache-dir", notADir, "--format", "json", "examples"]);
    expect(r.out).toBe(yaoc(["check", "--format", "json", "examples"]).out);
    expect(r.err.match(/warning: the cache in .* was not fully usable/g)).toHaveLength(1);
  });

  it("documents --cache, --cache-dir, --cache-max-mib and --watch in the help", () => {
    const help = yaoc(["check", "--help"]).out;
    expect(help).toMatch(/--cache\s/);
    expect(help).toMatch(/--cache-dir <dir>/);
    expect(help).toMatch(/--cache-max-mib <n>[\s\S]*default: 256/);
    expect(help).toMatch(/-w, --watch/);
  });
});

describe("the cache store", () => {
  const check = (n: number) => ({
    result: { path: `p${n}.hns`, kind: "hns" as const, valid: true, identity: `sha256:${n}`, diagnostics: [] },
    ioError: false,
  });
  const key = (n: number): string => n.toString(16).padStart(64, "0");

  it("does not trust entries another version wrote, and rewrites them", () => {
    const dir = join(tmp, "versions");
    const old = new NodeCacheStore(dir, "0.0.1");
    old.put(key(1), check(1));
    expect(old.get(key(1))?.result.identity).toBe("sha256:1");
    const now = new NodeCacheStore(dir, "0.0.2");
    expect(now.get(key(1))).toBeUndefined();
    expect(now.stats.damaged).toEqual({ version: 1 });
    now.put(key(1), check(1));
    expect(now.get(key(1))?.result.identity).toBe("sha256:1");
    expect(new NodeCacheStore(dir, "0.0.1").get(key(1))).toBeUndefined();
  });

  it("prunes the least recently used entries past its budget; a hit counts as a use", () => {
    const dir = join(tmp, "lru");
    const size = encodeEntry(key(0), "v", check(0))!.length;
    const store = new NodeCacheStore(dir, "v", size * 5);
    for (let n = 0; n < 8; n++) {
      store.put(key(n), check(n));
      const t = new Date(Date.UTC(2020, 0, 1, 0, n));
      utimesSync(store.fileOf(key(n)), t, t);
    }
    expect(store.get(key(1))).toBeDefined(); // the second oldest, used now
    expect(store.prune()).toBe(3);
    const left = entries(dir).map(keyOf).sort();
    expect(left).toEqual([1, 4, 5, 6, 7].map(key).sort());
    expect(store.prune()).toBe(0);
  });

  it("scans the store after a run only when its counted size may be past the budget", () => {
    const dir = join(tmp, "usage");
    const size = encodeEntry(key(0), "v", check(0))!.length;
    const fresh = new NodeCacheStore(dir, "v", size * 5);
    for (let n = 0; n < 3; n++) fresh.put(key(n), check(n));
    // A store this run created holds what it wrote: no scan, the size is recorded.
    expect(fresh.pruneIfDue()).toBe(0);
    expect(fresh.stats.scans).toBe(0);
    const usage = () => JSON.parse(readFileSync(join(dir, "usage"), "utf8")) as { bytes: number };
    expect(usage().bytes).toBe(size * 3);
    // A later run adds what it wrote while within the budget…
    const second = new NodeCacheStore(dir, "v", size * 5);
    second.put(key(3), check(3));
    expect(second.pruneIfDue()).toBe(0);
    expect(second.stats.scans).toBe(0);
    expect(usage().bytes).toBe(size * 4);
    // …and scans and prunes once the count passes it.
    const third = new NodeCacheStore(dir, "v", size * 5);
    for (let n = 4; n < 7; n++) third.put(key(n), check(n));
    expect(third.pruneIfDue()).toBe(2);
    expect(third.stats.scans).toBe(1);
    expect(entries(dir)).toHaveLength(5);
    expect(usage().bytes).toBe(size * 5);
    // A count older than an hour is not trusted: the next run that writes scans again.
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    writeFileSync(join(dir, "usage"), JSON.stringify({ bytes: 0, scanned_at: old.getTime() }));
    const fourth = new NodeCacheStore(dir, "v", size * 5);
    fourth.put(key(1), check(1));
    fourth.pruneIfDue();
    expect(fourth.stats.scans).toBe(1);
    // A run that wrote nothing never scans.
    const idle = new NodeCacheStore(dir, "v", 1);
    expect(idle.pruneIfDue()).toBe(0);
    expect(idle.stats.scans).toBe(0);
  });

  it("refreshes a hit's use time only when it is more than an hour old", () => {
    const dir = join(tmp, "relatime");
    const store = new NodeCacheStore(dir, "v");
    store.put(key(1), check(1));
    const file = store.fileOf(key(1));
    const recent = new Date(Date.now() - 10 * 60 * 1000);
    utimesSync(file, recent, recent);
    expect(store.get(key(1))).toBeDefined();
    expect(Math.abs(statSync(file).mtimeMs - recent.getTime())).toBeLessThan(1000);
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(file, old, old);
    expect(store.get(key(1))).toBeDefined();
    expect(Math.abs(statSync(file).mtimeMs - Date.now())).toBeLessThan(60_000);
    expect(file).toContain(`${join(dir, `v${CACHE_FORMAT}`)}/`);
  });

  it("removes temporary files a killed writer left behind, but not fresh ones", () => {
    const dir = join(tmp, "stale");
    const store = new NodeCacheStore(dir, "v");
    store.put(key(1), check(1));
    const stale = join(dir, "tmp", "left-by-a-crash");
    const fresh = join(dir, "tmp", "being-written");
    writeFileSync(stale, "partial");
    writeFileSync(fresh, "partial");
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(stale, old, old);
    store.prune();
    expect(readdirSync(join(dir, "tmp"))).toEqual(["being-written"]);
  });
});
