/**
 * `yaoc check --cache`: output with the cache (empty or warm) is byte-identical to output without
 * it, in every format, over every fixture; a hit really is used; damaged, truncated and swapped
 * entries are ignored, recomputed and rewritten; two processes writing one cache at once leave only
 * whole entries; another version's entries are not trusted; the least recently used entries are
 * pruned past the budget; an unusable cache directory costs a warning, never a wrong result.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync, cpSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCheck } from "../../src/cli/check-command.js";
import { NodeFs } from "../../src/fs/node-fs.js";
import type { OutputFormat } from "../../src/output/format.js";
import { decodeEntry, encodeEntry } from "../../src/cache/entry.js";
import {
  MAX_PACKS,
  NodeCacheStore,
  packedSize,
  packFiles,
  readPack,
  type PackRecord,
} from "../../src/cache/node-store.js";
import { VERSION } from "../../src/version.js";
import { CACHE_FORMAT } from "../../src/cache/key.js";
import { liveEntries, rewriteEntries } from "../support/cache-packs.js";
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

/** The live entry of every key in a cache directory. */
function entries(dir: string): PackRecord[] {
  return [...liveEntries(dir).values()];
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

function trusted(r: PackRecord): boolean {
  return "check" in decodeEntry(r.bytes, r.key, VERSION);
}

const keysOf = (rs: readonly PackRecord[]): string[] => rs.map((r) => r.key).sort();

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
    const [entry] = entries(dir);
    const stored = decodeEntry(entry!.bytes, entry!.key, VERSION);
    if (!("check" in stored)) throw new Error("entry not trusted");
    const forged = { ...stored.check, result: { ...stored.check.result, identity: "sha256:forged" } };
    rewriteEntries(dir, (r) => encodeEntry(r.key, VERSION, forged)!);
    expect(yaoc(["check", "--cache-dir", dir, pkg]).out).toContain("sha256:forged");
    // File times are not part of the key: a touched package is still a hit.
    const later = new Date(Date.now() + 60_000);
    utimesSync(pkg, later, later);
    expect(yaoc(["check", "--cache-dir", dir, pkg]).out).toContain("sha256:forged");
    // The same package with one byte changed is another key: checked afresh.
    writeFileSync(pkg, `${readFileSync(pkg, "utf8")}\n`);
    expect(yaoc(["check", "--cache-dir", dir, pkg]).out).not.toContain("sha256:forged");
  });

  const damages: [string, (dir: string) => void][] = [
    [
      "a byte flipped in every entry",
      (dir) =>
        rewriteEntries(dir, (r) => {
          const b = Uint8Array.from(r.bytes);
          const at = Math.floor(b.length / 2);
          b[at] = b[at]! ^ 0x01;
          return b;
        }),
    ],
    [
      "every entry truncated",
      (dir) => rewriteEntries(dir, (r) => r.bytes.subarray(0, Math.floor(r.bytes.length * 0.7))),
    ],
    [
      "entries swapped between keys",
      (dir) => rewriteEntries(dir, (r, all) => all[(all.indexOf(r) + 1) % all.length]!.bytes),
    ],
    [
      "the pack truncated (its index whole, its entries cut)",
      (dir) => {
        for (const file of packFiles(dir)) {
          const b = readFileSync(file);
          const records = readPack(file)!;
          const base = b.length - records.reduce((n, r) => n + r.bytes.length, 0);
          writeFileSync(file, b.subarray(0, base + Math.floor(records[0]!.bytes.length / 2)));
        }
      },
    ],
    [
      "a byte of the index flipped",
      (dir) => {
        for (const file of packFiles(dir)) {
          const b = readFileSync(file);
          const at = b.indexOf(0x0a) + 10;
          b[at] = b[at]! ^ 0x01;
          writeFileSync(file, b);
        }
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
      const before = entries(dir);
      expect(before.length).toBeGreaterThan(10);
      expect(before.every(trusted)).toBe(true);
      damage(dir);
      // Every entry the store would use is untrusted, or (a damaged index) the pack gives none.
      expect(entries(dir).filter(trusted)).toEqual([]);
      const again = await check(inputs, "json", dir);
      expect(again.out).toBe(expected.out);
      expect(again.code).toBe(expected.code);
      const after = entries(dir);
      expect(keysOf(after)).toEqual(keysOf(before));
      expect(after.every(trusted)).toBe(true);
      // And a third run uses what the second wrote: nothing is written again.
      const packs = packFiles(dir);
      expect((await check(inputs, "json", dir)).out).toBe(expected.out);
      expect(packFiles(dir)).toEqual(packs);
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
    // Each process added one whole pack, and no temporary file is left.
    expect(packFiles(dir).length).toBeGreaterThanOrEqual(1);
    expect(packFiles(dir).length).toBeLessThanOrEqual(2);
    for (const file of packFiles(dir)) expect(readPack(file)?.every(trusted)).toBe(true);
    expect(readdirSync(join(dir, "tmp"))).toEqual([]);
    // --jobs with the cache: the workers read the entries both processes wrote.
    expect(yaoc(["check", "--cache-dir", dir, "--jobs", "2", "--format", "json", ...inputs]).out).toBe(
      (await check(inputs, "json")).out,
    );
  });

  it("with --jobs, writes the entries the worker threads computed in the run's one pack", async () => {
    const one = join(tmp, "jobs-1");
    const two = join(tmp, "jobs-2");
    const expected = await check(SOME, "json", one);
    const r = yaoc(["check", "--cache-dir", two, "--jobs", "2", "--format", "json", ...SOME]);
    expect(r.out).toBe(expected.out);
    expect(packFiles(two)).toHaveLength(1);
    const written = entries(two);
    expect(keysOf(written)).toEqual(keysOf(entries(one)));
    expect(written.every(trusted)).toBe(true);
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
  const minute = (n: number): number => Date.UTC(2020, 0, 1, 0, n);

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
    expect(new NodeCacheStore(dir, "0.0.2").get(key(1))?.result.identity).toBe("sha256:1");
    expect(new NodeCacheStore(dir, "0.0.1").get(key(1))).toBeUndefined();
  });

  it("writes a run's entries as one pack, after the run, and a run of hits writes nothing", async () => {
    const dir = join(tmp, "one-pack");
    const run = new NodeCacheStore(dir, "v");
    for (let n = 0; n < 20; n++) await run.putSoon(key(n), check(n));
    expect(packFiles(dir)).toEqual([]);
    // Entries waiting to be written are hits already.
    expect(run.get(key(3))?.result.identity).toBe("sha256:3");
    await run.flush();
    expect(packFiles(dir)).toHaveLength(1);
    expect(run.stats.written).toBe(20);
    const warm = new NodeCacheStore(dir, "v");
    for (let n = 0; n < 20; n++) expect(warm.get(key(n))?.result.identity).toBe(`sha256:${n}`);
    await warm.flush();
    expect(warm.pruneIfDue()).toBe(0);
    expect(packFiles(dir)).toHaveLength(1);
    expect(warm.stats).toMatchObject({ hits: 20, misses: 0, packsWritten: 0 });
  });

  it("prunes the least recently used entries past its budget; a hit counts as a use", () => {
    const dir = join(tmp, "lru");
    let now = minute(0);
    const cost = (n: number) => packedSize(key(n), encodeEntry(key(n), "v", check(n))!.length, minute(100));
    const budget = [1, 4, 5, 6, 7].reduce((a, n) => a + cost(n), 0);
    const store = new NodeCacheStore(dir, "v", budget, () => now);
    for (let n = 0; n < 8; n++) {
      now = minute(n);
      store.put(key(n), check(n));
    }
    now = minute(100);
    expect(store.get(key(1))).toBeDefined(); // the second oldest, used now
    expect(store.stats.refreshed).toBe(1);
    expect(store.prune()).toBe(3);
    expect(keysOf(entries(dir))).toEqual([1, 4, 5, 6, 7].map(key).sort());
    // Compacted into one pack.
    expect(packFiles(dir)).toHaveLength(1);
    expect(store.prune()).toBe(0);
    expect(new NodeCacheStore(dir, "v").get(key(1))?.result.identity).toBe("sha256:1");
  });

  it("compacts after a run when there are more than a few packs or the packs pass the budget", () => {
    const dir = join(tmp, "compact");
    for (let n = 0; n < MAX_PACKS; n++) {
      const s = new NodeCacheStore(dir, "v");
      s.put(key(n), check(n));
      expect(s.pruneIfDue()).toBe(0);
    }
    expect(packFiles(dir)).toHaveLength(MAX_PACKS);
    const next = new NodeCacheStore(dir, "v");
    next.put(key(MAX_PACKS), check(MAX_PACKS));
    expect(next.pruneIfDue()).toBe(0);
    expect(next.stats.scans).toBe(1);
    expect(packFiles(dir)).toHaveLength(1);
    expect(entries(dir)).toHaveLength(MAX_PACKS + 1);
    expect(entries(dir).every((r) => "check" in decodeEntry(r.bytes, r.key, "v"))).toBe(true);
    // Past the budget: the oldest go.
    const small = new NodeCacheStore(dir, "v", 1);
    small.put(key(99), check(99));
    expect(small.pruneIfDue()).toBe(MAX_PACKS + 2);
    expect(packFiles(dir)).toEqual([]);
    // A run that wrote nothing never compacts.
    const idle = new NodeCacheStore(dir, "v", 1);
    expect(idle.pruneIfDue()).toBe(0);
    expect(idle.stats.scans).toBe(0);
  });

  it("refreshes a hit's recorded use only when it is more than an hour old", async () => {
    const dir = join(tmp, "relatime");
    const t0 = minute(0);
    new NodeCacheStore(dir, "v", undefined, () => t0).put(key(1), check(1));
    const soon = new NodeCacheStore(dir, "v", undefined, () => t0 + 10 * 60 * 1000);
    expect(soon.get(key(1))).toBeDefined();
    await soon.flush();
    expect(packFiles(dir)).toHaveLength(1);
    expect(entries(dir)[0]!.usedAt).toBe(t0);
    const later = t0 + 2 * 60 * 60 * 1000;
    const late = new NodeCacheStore(dir, "v", undefined, () => later);
    expect(late.get(key(1))).toBeDefined();
    await late.flush();
    expect(packFiles(dir)).toHaveLength(2);
    expect(entries(dir)[0]!.usedAt).toBe(later);
    expect(late.stats.written).toBe(0);
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

  it("removes the folders of older formats (only their own layout) in a directory it tagged", () => {
    const dir = join(tmp, "old-formats");
    const store = new NodeCacheStore(dir, "v");
    store.put(key(1), check(1));
    const k = "ab".padEnd(64, "0");
    const entry = join(dir, "v2", "ab", k);
    mkdirSync(join(dir, "v2", "ab"), { recursive: true });
    writeFileSync(entry, "yaoc-cache-entry 2 …");
    mkdirSync(join(dir, "v1", "cd"), { recursive: true });
    writeFileSync(join(dir, "v1", "cd", "cd".padEnd(64, "1")), "yaoc-cache-entry 1 …");
    // Not of that layout: kept, and so is the folder holding it.
    mkdirSync(join(dir, "v1", "notes"), { recursive: true });
    writeFileSync(join(dir, "v1", "notes", "mine.txt"), "not a cache entry");
    writeFileSync(join(dir, "usage"), JSON.stringify({ bytes: 1, scanned_at: 0 }));
    store.pruneIfDue();
    expect(readdirSync(dir).sort()).toEqual([".gitignore", "CACHEDIR.TAG", "tmp", "v1", `v${CACHE_FORMAT}`]);
    expect(readdirSync(join(dir, "v1"))).toEqual(["notes"]);
    expect(readFileSync(join(dir, "v1", "notes", "mine.txt"), "utf8")).toBe("not a cache entry");
    expect(store.get(key(1))).toBeDefined();
    // Without yaoc's tag the directory is not taken for a cache of ours: nothing is removed.
    const foreign = join(tmp, "not-tagged");
    mkdirSync(join(foreign, "v2", "ab"), { recursive: true });
    writeFileSync(join(foreign, "v2", "ab", k), "x");
    new NodeCacheStore(foreign, "v").pruneIfDue();
    expect(readdirSync(join(foreign, "v2", "ab"))).toEqual([k]);
  });
});
