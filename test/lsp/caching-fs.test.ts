/** CachingFs over an in-memory file system that counts what reaches it. */
import { describe, expect, it } from "vitest";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { type CacheBounds, CachingFs, DEFAULT_CACHE_BOUNDS } from "../../src/lsp/caching-fs.js";

const dec = new TextDecoder();

function counted(files: Record<string, string>, bounds: Partial<CacheBounds> = {}) {
  const mem = MemoryFs.from(files);
  const reads: string[] = [];
  const lists: string[] = [];
  const base = Object.assign(Object.create(mem) as MemoryFs, {
    readFile: (p: string, max: number) => (reads.push(p), mem.readFile(p, max)),
    readdir: (p: string) => (lists.push(p), mem.readdir(p)),
  });
  return { mem, reads, lists, fs: new CachingFs(base, bounds) };
}

describe("CachingFs", () => {
  it("reads an unchanged file once, and again after it is invalidated", async () => {
    const { mem, reads, fs } = counted({ "/p.hns/functions/a.yao": "one" });
    expect(dec.decode(await fs.readFile("/p.hns/functions/a.yao", 100))).toBe("one");
    expect(dec.decode(await fs.readFile("/p.hns/functions/a.yao", 100))).toBe("one");
    expect(reads).toEqual(["/p.hns/functions/a.yao"]);
    mem.writeFile("/p.hns/functions/a.yao", "two");
    expect(dec.decode(await fs.readFile("/p.hns/functions/a.yao", 100))).toBe("one");
    fs.invalidate("/p.hns/functions/a.yao");
    expect(dec.decode(await fs.readFile("/p.hns/functions/a.yao", 100))).toBe("two");
    expect(reads).toHaveLength(2);
  });

  it("a file created in a directory shows in its listing once the new file is invalidated", async () => {
    const { mem, lists, fs } = counted({ "/p.hns/functions/a.yao": "a" });
    expect((await fs.readdir("/p.hns/functions")).sort()).toEqual(["a.yao"]);
    expect(await fs.stat("/p.hns/functions/b.yao")).toBeNull();
    mem.writeFile("/p.hns/functions/b.yao", "b");
    expect(await fs.readdir("/p.hns/functions")).toEqual(["a.yao"]);
    expect(await fs.stat("/p.hns/functions/b.yao")).toBeNull();
    fs.invalidate("/p.hns/functions/b.yao");
    expect((await fs.readdir("/p.hns/functions")).sort()).toEqual(["a.yao", "b.yao"]);
    expect((await fs.stat("/p.hns/functions/b.yao"))?.kind).toBe("file");
    expect(lists).toHaveLength(2);
  });

  it("invalidating a directory forgets everything below it; other paths stay cached, a name prefix is not a parent", async () => {
    const { reads, fs } = counted({ "/p.hns/a.yao": "a", "/p.hns2/a.yao": "b" });
    await fs.readFile("/p.hns/a.yao", 10);
    await fs.readFile("/p.hns2/a.yao", 10);
    fs.invalidate("/p.hns");
    await fs.readFile("/p.hns/a.yao", 10);
    await fs.readFile("/p.hns2/a.yao", 10);
    expect(reads).toEqual(["/p.hns/a.yao", "/p.hns2/a.yao", "/p.hns/a.yao"]);
  });

  it("a change reported through a symlinked path also invalidates what was read by real path", async () => {
    const { mem, fs } = counted({ "/real/p.hns/a.yao": "one" });
    mem.symlink("/link", "/real");
    const real = await fs.realpath("/link/p.hns/a.yao");
    expect(real).toBe("/real/p.hns/a.yao");
    expect(dec.decode(await fs.readFile(real, 10))).toBe("one");
    mem.writeFile("/real/p.hns/a.yao", "two");
    fs.invalidate("/link/p.hns/a.yao");
    expect(dec.decode(await fs.readFile(real, 10))).toBe("two");
  });

  it("a cached file larger than a later call's limit is refused like the base refuses it; failed reads are not kept", async () => {
    const { mem, reads, fs } = counted({ "/a.yao": "0123456789" });
    await fs.readFile("/a.yao", 100);
    await expect(fs.readFile("/a.yao", 5)).rejects.toMatchObject({ code: "too_large" });
    await expect(fs.readFile("/missing.yao", 5)).rejects.toMatchObject({ code: "not_found" });
    mem.writeFile("/missing.yao", "now");
    expect(dec.decode(await fs.readFile("/missing.yao", 5))).toBe("now");
    expect(reads).toEqual(["/a.yao", "/missing.yao", "/missing.yao"]);
  });

  it("clear forgets everything", async () => {
    const { mem, fs } = counted({ "/a.yao": "one" });
    await fs.readFile("/a.yao", 10);
    mem.writeFile("/a.yao", "two");
    fs.clear();
    expect(dec.decode(await fs.readFile("/a.yao", 10))).toBe("two");
  });

  describe("bounded caches", () => {
    /** 2,000 files of 100 bytes in 20 folders, each asked for in every way. */
    async function askEverything(bounds: Partial<CacheBounds>) {
      const files: Record<string, string> = {};
      for (let d = 0; d < 20; d++) for (let f = 0; f < 100; f++) files[`/w/d${d}/f${f}.yao`] = "x".repeat(100);
      const c = counted(files, bounds);
      const paths = Object.keys(files);
      expect(paths).toHaveLength(2000);
      let most = c.fs.held();
      for (const path of paths) {
        await c.fs.stat(path);
        await c.fs.lstat(path);
        await c.fs.realpath(path);
        await c.fs.readFile(path, 1000);
        const h = c.fs.held();
        if (h.entries > most.entries) most = h;
      }
      for (let d = 0; d < 20; d++) await c.fs.readdir(`/w/d${d}`);
      return { ...c, paths, most };
    }

    it("hold at most their bound of entries and bytes over many distinct paths, least recently used out first", async () => {
      const { fs, reads, paths, most } = await askEverything({ maxEntries: 100, maxBytes: 5_000 });
      // Six caches (stat, lstat, realpath, listings, contents, real paths) of at most 100 entries each.
      expect(most.entries).toBeGreaterThan(100);
      expect(most.entries).toBeLessThanOrEqual(600);
      expect(fs.held().fileBytes).toBeLessThanOrEqual(5_000);
      expect(fs.held().fileBytes).toBeGreaterThan(0);
      expect(fs.held().listingBytes).toBeLessThanOrEqual(5_000);
      // The last file read is still held; the first one was evicted and is read again.
      const before = reads.length;
      await fs.readFile(paths.at(-1)!, 1000);
      expect(reads.length).toBe(before);
      await fs.readFile(paths[0]!, 1000);
      expect(reads.length).toBe(before + 1);
    });

    it("keep everything asked for when it fits the default bounds", async () => {
      const { fs, reads, paths } = await askEverything({});
      expect(fs.held().entries).toBe(4 * 2000 + 20 + 2000);
      expect(fs.held().fileBytes).toBe(200_000);
      const before = reads.length;
      for (const path of paths) await fs.readFile(path, 1000);
      expect(reads.length).toBe(before);
      expect(DEFAULT_CACHE_BOUNDS.maxEntries).toBeGreaterThan(4 * 2000);
    });

    it("hold package snapshots within their bytes", async () => {
      const files: Record<string, string> = {};
      for (let p = 0; p < 10; p++) files[`/w/p${p}.hns/manifest.yao`] = "y".repeat(3000);
      const { fs } = counted(files, { maxSnapshotBytes: 7_000 });
      for (let p = 0; p < 10; p++) {
        const s = await fs.snapshotPackage(`/w/p${p}.hns`);
        expect(s.failure).toBeNull();
      }
      // Let each snapshot's weight be recorded (it is set when the read settles).
      await new Promise((r) => setTimeout(r, 0));
      expect(fs.held().snapshotBytes).toBeLessThanOrEqual(7_000);
      expect(fs.held().snapshots).toBe(2);
    });
  });
});
