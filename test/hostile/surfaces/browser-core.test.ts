/**
 * Issue 35, the browser core (items 1 and 5): MemoryFs takes the same read-once snapshot as the
 * Node reader, under the same limits, so one hostile corpus gets one verdict from `check` on disk
 * and `check` in memory; a tree over a limit by its metadata is refused before any content is held;
 * and the playground's share address is inflated with a streaming cap. Small sizes only: the
 * growth in depth and width is measured by the bench row (bench/), not timed here.
 */
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { check } from "../../../src/check/check.js";
import { MemoryFs } from "../../../src/fs/memory-fs.js";
import { NodeFs } from "../../../src/fs/node-fs.js";
import type { PackageFs } from "../../../src/fs/package-fs.js";
import { decodeFragment, encodeFragment, MAX_INFLATED_BYTES } from "../../../playground/src/share.js";
import { fillMemoryTree, hostileCorpus, type HostileTree } from "./corpus.js";
import { writeTree } from "./corpus-disk.js";

const disk = mkdtempSync(join(tmpdir(), "yaoc-surfaces-core-"));
afterAll(() => rmSync(disk, { recursive: true, force: true }));

function memoryTree(tree: HostileTree): MemoryFs {
  return fillMemoryTree(new MemoryFs(), tree);
}

async function verdict(fs: PackageFs, path: string) {
  const r = await check(fs, path);
  return { valid: r.valid, codes: r.diagnostics.map((d) => d.code).sort() };
}

describe("one hostile corpus, one verdict: check on disk and check in memory", () => {
  for (const tree of hostileCorpus()) {
    it(tree.name, async () => {
      const base = join(disk, tree.name);
      mkdirSync(base);
      writeTree(base, tree);
      const onDisk = await verdict(new NodeFs(), join(base, tree.root));
      const inMemory = await verdict(memoryTree(tree), `/work/${tree.root}`);
      expect(inMemory).toEqual(onDisk);
      expect(onDisk.valid).toBe(tree.valid);
    });
  }
});

describe("the same limits in both snapshot readers, by metadata first", () => {
  const limits = { maxEntries: 40, maxDepth: 8, maxTotalBytes: 1024 * 1024 };

  async function failures(
    build: (put: (rel: string, v: string | number) => void, mkdir: (rel: string) => void) => void,
  ) {
    const name = `limits-${Math.random().toString(36).slice(2)}`;
    const base = join(disk, name);
    mkdirSync(base);
    const mem = new MemoryFs();
    mem.mkdir("/pkg");
    build(
      (rel, v) => {
        mkdirSync(join(base, rel, ".."), { recursive: true });
        if (typeof v === "string") writeFileSync(join(base, rel), v);
        else {
          writeFileSync(join(base, rel), "");
          truncateSync(join(base, rel), v);
        }
        mem.writeFile(`/pkg/${rel}`, typeof v === "string" ? v : new Uint8Array(v));
      },
      (rel) => {
        mkdirSync(join(base, rel), { recursive: true });
        mem.mkdir(`/pkg/${rel}`);
      },
    );
    const onDisk = await new NodeFs().snapshotPackage(base, limits);
    const inMemory = await mem.snapshotPackage("/pkg", limits);
    return {
      disk: onDisk.failure?.message.replaceAll(onDisk.root, "ROOT"),
      memory: inMemory.failure?.message.replaceAll(inMemory.root, "ROOT"),
      diskHeld: [...onDisk.entries.values()].length,
    };
  }

  it("refuses too many entries with the same words", async () => {
    const f = await failures((put) => {
      for (let i = 0; i < 45; i++) put(`f${i}.yao`, "(eval 1)");
    });
    expect(f.disk).toBe("the package has more than 40 entries");
    expect(f.memory).toBe(f.disk);
  });

  it("refuses directories nested past the depth limit with the same words", async () => {
    const f = await failures((_put, mkdir) => mkdir(Array.from({ length: 10 }, (_, i) => `d${i}`).join("/")));
    expect(f.disk).toMatch(/directories nest more than 8 levels deep/);
    expect(f.memory).toBe(f.disk);
  });

  it("an empty folder at the depth limit is refused by both, one level less is not; wide empty folders pass", async () => {
    const chain = (n: number) => Array.from({ length: n }, (_, i) => `d${i}`).join("/");
    const at = await failures((_put, mkdir) => mkdir(chain(8)));
    expect(at.disk).toMatch(/d7: directories nest more than 8 levels deep/);
    expect(at.memory).toBe(at.disk);
    const within = await failures((_put, mkdir) => mkdir(chain(7)));
    expect([within.disk, within.memory]).toEqual([undefined, undefined]);
    const wide = await failures((_put, mkdir) => {
      for (let i = 0; i < 30; i++) mkdir(`${chain(6)}/e${i}`); // each at depth 7
    });
    expect([wide.disk, wide.memory]).toEqual([undefined, undefined]);
  });

  it("refuses sparse files over the total by their metadata, holding none of their bytes", async () => {
    const f = await failures((put) => {
      for (let i = 0; i < 4; i++) put(`big${i}.bin`, 400 * 1024);
    });
    expect(f.disk).toBe(
      "the package's files hold 1638400 bytes by their metadata, more than the limit of 1048576; nothing was read",
    );
    expect(f.memory).toBe(f.disk);
    expect(f.diskHeld).toBe(0);
  });
});

describe("MemoryFs is a tree", () => {
  it("lists a wide folder and resolves a deep path through links", async () => {
    const fs = new MemoryFs();
    for (let i = 0; i < 2000; i++) fs.mkdir(`/wide/d${i}`);
    expect((await fs.readdir("/wide")).length).toBe(2000);
    const deep = `/${Array.from({ length: 100 }, (_, i) => `n${i}`).join("/")}`;
    fs.writeFile(`${deep}/x.yao`, "(eval 1)");
    fs.symlink("/short", deep);
    fs.symlink("/loop", "/loop");
    expect(new TextDecoder().decode(await fs.readFile("/short/x.yao", 100))).toBe("(eval 1)");
    expect(await fs.realpath("/short/x.yao")).toBe(`${deep}/x.yao`);
    await expect(fs.realpath("/loop")).rejects.toMatchObject({ code: "loop" });
    expect(await fs.lstat("/short")).toMatchObject({ kind: "symlink" });
  });

  it("a file put under a file's path turns the file into a directory (the later entry wins)", async () => {
    const fs = MemoryFs.from({ "/a": "x", "/a/b": "y" });
    expect((await fs.stat("/a"))?.kind).toBe("directory");
    expect(await fs.readdir("/a")).toEqual(["b"]);
  });
});

describe("share address", () => {
  it("round-trips a package", async () => {
    const p = { name: "demo.hns", files: { "": "(eval 1)" } };
    expect(await decodeFragment(await encodeFragment(p))).toEqual(p);
  });

  it("stops inflating a bomb at the 16 MiB cap", async () => {
    // 17 MiB of one byte deflates to a few KB: an address well under the 1 MiB fragment limit.
    const json = new Uint8Array(MAX_INFLATED_BYTES + 1024 * 1024).fill(0x20);
    const compressed = new Uint8Array(
      await new Response(new Blob([json]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer(),
    );
    let s = "";
    for (const b of compressed) s += String.fromCharCode(b);
    const fragment = `p=${btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}`;
    expect(fragment.length).toBeLessThan(1 << 20);
    expect(await decodeFragment(fragment)).toBeUndefined();
  });

  it("inflates a bomb only to the cap: of 96 MiB it takes no more than the 16 MiB and a chunk", async () => {
    // Zeros deflate about 1000:1, so 96 MiB is an address of ~130 KB. Made by streaming, never held.
    const chunk = new Uint8Array(1 << 20);
    let left = 96;
    const zeros = new ReadableStream<BufferSource>({
      pull(c) {
        if (left-- > 0) c.enqueue(chunk);
        else c.close();
      },
    });
    const compressed = new Uint8Array(
      await new Response(zeros.pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer(),
    );
    let s = "";
    for (let i = 0; i < compressed.length; i += 0x8000)
      s += String.fromCharCode.apply(null, Array.from(compressed.subarray(i, i + 0x8000)));
    const fragment = `p=${btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}`;
    expect(fragment.length).toBeLessThan(1 << 20);
    // Count what the decoder takes out of the inflater: a decoder that inflated everything first
    // and checked the size after would take all 96 MiB.
    const Real = globalThis.DecompressionStream;
    let taken = 0;
    class Counting {
      readonly writable: WritableStream<BufferSource>;
      readonly readable: ReadableStream<Uint8Array>;
      constructor(format: CompressionFormat) {
        const inner = new Real(format);
        this.writable = inner.writable;
        this.readable = inner.readable.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(c, out) {
              taken += c.length;
              out.enqueue(c);
            },
          }),
        );
      }
    }
    globalThis.DecompressionStream = Counting as unknown as typeof DecompressionStream;
    try {
      expect(await decodeFragment(fragment)).toBeUndefined();
    } finally {
      globalThis.DecompressionStream = Real;
    }
    expect(taken).toBeGreaterThan(MAX_INFLATED_BYTES);
    expect(taken).toBeLessThan(MAX_INFLATED_BYTES + 4 * 1024 * 1024);
  });
});
