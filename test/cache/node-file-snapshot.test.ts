/**
 * The synchronous single-file reader of `check --cache` gives exactly the snapshot the full reader
 * (src/fs/node-snapshot.ts) gives — root, entry, size, execute bit, bytes, and so the cache key — and
 * declines (null) everything it does not handle, so those paths take the full reader.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSnapshotSync } from "../../src/cache/node-file-snapshot.js";
import { cacheKey } from "../../src/cache/key.js";
import { readPackageSnapshot } from "../../src/fs/node-snapshot.js";
import type { PackageSnapshot } from "../../src/fs/snapshot.js";

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "yaoc-file-snapshot-"));
  mkdirSync(join(tmp, "real"));
  writeFileSync(join(tmp, "real", "a.hns"), "(package (id a))\n;; é 中\n");
  writeFileSync(join(tmp, "real", "empty.hns"), "");
  writeFileSync(join(tmp, "real", "x.hns"), "(package (id x))\n");
  chmodSync(join(tmp, "real", "x.hns"), 0o755);
  writeFileSync(join(tmp, "real", "big.hns"), "x".repeat(4096));
  symlinkSync(join(tmp, "real", "a.hns"), join(tmp, "link.hns"));
  symlinkSync(join(tmp, "real"), join(tmp, "dirlink"));
  symlinkSync(join(tmp, "nowhere.hns"), join(tmp, "dangling.hns"));
  mkdirSync(join(tmp, "dir.hns"));
  writeFileSync(join(tmp, "dir.hns", "manifest.yao"), "(manifest)");
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** What a snapshot says, in plain data (entries in order, bytes as arrays). */
function plain(s: PackageSnapshot): unknown {
  return {
    requested: s.requested,
    root: s.root,
    rootState: s.rootState,
    failure: s.failure,
    entries: [...s.entries].map(([k, e]) => [k, e.kind === "file" ? { ...e, bytes: e.bytes && [...e.bytes] } : e]),
  };
}

describe("readFileSnapshotSync", () => {
  const same = ["real/a.hns", "real/empty.hns", "real/x.hns", "link.hns", "dirlink/a.hns"];
  it.each(same)("gives the full reader's snapshot and key for %s", async (name) => {
    for (const requested of [join(tmp, name), relative(process.cwd(), join(tmp, name))]) {
      const fast = readFileSnapshotSync(requested, { maxTotalBytes: 1024 });
      const full = await readPackageSnapshot(requested, { maxTotalBytes: 1024 });
      expect(fast).not.toBeNull();
      expect(full.entries.size).toBe(1);
      expect(plain(fast!)).toEqual(plain(full));
      const context = { version: "t", analyze: true };
      expect(cacheKey(fast!, context)).toEqual(cacheKey(full, context));
      expect(Object.isFrozen(fast)).toBe(true);
    }
  });

  it("reads the execute bit and the real root through links", () => {
    const x = readFileSnapshotSync(join(tmp, "real/x.hns"))!;
    const e = x.entries.get("")!;
    expect(e.kind === "file" && e.executable).toBe(true);
    expect(readFileSnapshotSync(join(tmp, "dirlink/a.hns"))!.root).toBe(join(tmp, "real", "a.hns"));
  });

  const declined: [string, () => string][] = [
    ["a missing path", () => join(tmp, "missing.hns")],
    ["a dangling link", () => join(tmp, "dangling.hns")],
    ["a directory", () => join(tmp, "dir.hns")],
    ["a file over the total limit", () => join(tmp, "real/big.hns")],
    [
      "a FIFO",
      () => {
        const fifo = join(tmp, "fifo.hns");
        execFileSync("mkfifo", [fifo]);
        return fifo;
      },
    ],
  ];
  it.skipIf(process.platform === "win32").each(declined)(
    "declines %s (the full reader takes it; skipped on Windows)",
    (_, path) => {
      expect(readFileSnapshotSync(path(), { maxTotalBytes: 1024 })).toBeNull();
    },
  );

  it("declines per-file limits and over-limit files by the file limit", () => {
    expect(readFileSnapshotSync(join(tmp, "real/a.hns"), { fileLimits: new Map([["", 10]]) })).toBeNull();
    expect(readFileSnapshotSync(join(tmp, "real/big.hns"), { maxFileBytes: 100 })).toBeNull();
    expect(readFileSnapshotSync(join(tmp, "real/big.hns"), { maxFileBytes: 4096 })).not.toBeNull();
  });
});
