/**
 * `--cache` on the other commands that check packages: `yaoc hash` prints the same bytes on stdout
 * and stderr and exits with the same code with the cache empty and warm as without it, for every
 * golden case (every package kind, valid and invalid); `yaoc golden freeze --cache` writes the same
 * golden records as without it, empty cache and warm; `golden verify --cache` reuses results in
 * its first run only and still agrees with the goldens.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHash } from "../../src/cli/hash-command.js";
import { discoverCases } from "../../src/cli/evidence.js";
import { NodeFs } from "../../src/fs/node-fs.js";
import { packFiles } from "../../src/cache/node-store.js";
import { liveEntries } from "../support/cache-packs.js";
import { captureOutput } from "../support/capture.js";
import { yaoc } from "../support/cli.js";
import { REPO_ROOT } from "../support/shared.js";

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "yaoc-cache-commands-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Entries under a cache directory (the live one per key). */
function entryCount(dir: string): number {
  return liveEntries(dir).size;
}

/** `yaoc hash` in this process (the same `runHash` the command line calls), output captured. */
async function hash(path: string, cacheDir?: string): Promise<{ code: number; out: string; err: string }> {
  const {
    value: code,
    out,
    err,
  } = await captureOutput(() =>
    runHash(
      new NodeFs(),
      path,
      cacheDir === undefined ? {} : { cache: { dir: cacheDir, maxBytes: 256 * 1024 * 1024 } },
    ),
  );
  return { code, out, err };
}

describe("hash --cache", () => {
  it("prints the same bytes and exit code as without it for every golden case, cache empty and warm", async () => {
    const cases = discoverCases(REPO_ROOT).map((c) => join(REPO_ROOT, c));
    expect(cases.length).toBeGreaterThan(50);
    const dir = join(tmp, "hash-cache");
    let valid = 0;
    let invalid = 0;
    for (const path of cases) {
      const plain = await hash(path);
      const cold = await hash(path, dir);
      const warm = await hash(path, dir);
      expect(cold, path).toEqual(plain);
      expect(warm, path).toEqual(plain);
      if (plain.code === 0) {
        expect(plain.out).toMatch(/^sha256:[0-9a-f]{64}\n$/);
        valid++;
      } else invalid++;
    }
    expect(valid).toBeGreaterThan(10);
    expect(invalid).toBeGreaterThan(10);
    expect(entryCount(dir)).toBeGreaterThan(50);
  }, 300_000);

  it("uses the cache of check --no-analyze (the same key) and takes the options on the command line", () => {
    const dir = join(tmp, "one-cache");
    const pkg = "examples/review.hns";
    expect(yaoc(["check", "--no-analyze", "--cache-dir", dir, pkg]).code).toBe(0);
    expect(entryCount(dir)).toBe(1);
    const r = yaoc(["hash", "--cache-dir", dir, pkg]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(yaoc(["hash", pkg]).out);
    expect(entryCount(dir)).toBe(1);
    expect(packFiles(dir)).toHaveLength(1); // a hit: nothing new written
    expect(yaoc(["hash", "--help"]).out).toMatch(/--cache-dir <dir>[\s\S]*--cache-max-mib <n>/);
  });
});

describe("golden --cache", () => {
  /** Every golden record file of a freeze into `dir`, by name. */
  function records(dir: string): Map<string, string> {
    return new Map(readdirSync(dir).map((n) => [n, readFileSync(join(dir, n), "utf8")]));
  }

  it("freeze writes the same records with the cache empty and warm as without it; verify --cache agrees", () => {
    const cache = join(tmp, "golden-cache");
    const plainDir = join(tmp, "golden-plain");
    expect(yaoc(["golden", "freeze", plainDir], { cwd: REPO_ROOT }).code).toBe(0);
    const plain = records(plainDir);
    expect(plain.size).toBeGreaterThan(50);
    const written: number[] = [];
    const packs: number[] = [];
    for (const round of ["cold", "warm"]) {
      const dir = join(tmp, `golden-${round}`);
      const r = yaoc(["golden", "freeze", "--cache-dir", cache, dir], { cwd: REPO_ROOT });
      expect(r.code, r.err).toBe(0);
      expect(records(dir), round).toEqual(plain);
      written.push(entryCount(cache));
      packs.push(packFiles(cache).length);
    }
    // Nearly every case is cached (a case whose result could depend on more than its snapshot is
    // not), and the warm run found them all: it wrote nothing.
    expect(written[0]).toBeGreaterThan(plain.size * 0.9);
    expect(written[1]).toBe(written[0]);
    expect(packs).toEqual([1, 1]);
    const v = yaoc(["golden", "verify", "--format", "json", "--cache-dir", cache], { cwd: REPO_ROOT });
    const report = JSON.parse(v.out) as { ok: boolean; cases: number; matched: number; stable: number };
    expect(v.code, v.err).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.matched).toBe(report.cases);
    expect(report.stable).toBe(report.cases);
    expect(report.cases).toBe(plain.size);
  }, 300_000);
});
