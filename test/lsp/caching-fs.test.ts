/** CachingFs over an in-memory file system that counts what reaches it. */
import { describe, expect, it } from "vitest";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { CachingFs } from "../../src/lsp/caching-fs.js";

const dec = new TextDecoder();

function counted(files: Record<string, string>) {
  const mem = MemoryFs.from(files);
  const reads: string[] = [];
  const lists: string[] = [];
  const base = Object.assign(Object.create(mem) as MemoryFs, {
    readFile: (p: string, max: number) => (reads.push(p), mem.readFile(p, max)),
    readdir: (p: string) => (lists.push(p), mem.readdir(p)),
  });
  return { mem, reads, lists, fs: new CachingFs(base) };
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
});
