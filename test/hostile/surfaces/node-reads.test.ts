/**
 * Issue 35 item 10: `NodeFs.readFile` reads to the end within its bound. A file whose metadata says
 * nothing of its size (procfs) is read in full or refused, never cut to one byte; a file that is
 * longer than its limit is refused at the limit; a file whose size changes between the `fstat` and
 * the read is refused, never returned with `size + 1` bytes or cut short.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { promises as fsp } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { NodeFs } from "../../../src/fs/node-fs.js";
import { FsError } from "../../../src/fs/package-fs.js";

const procfs = process.platform === "linux";

describe("NodeFs.readFile exact reads", () => {
  it.skipIf(!procfs)("reads a procfs file (size 0 in its metadata) to its end (skipped off Linux)", async () => {
    const bytes = await new NodeFs().readFile("/proc/self/mountinfo", 1 << 20);
    expect(bytes.length).toBeGreaterThan(1);
    // The same process, read twice: both are whole files of the same shape.
    expect(new TextDecoder().decode(bytes).split("\n").length).toBe(
      readFileSync("/proc/self/mountinfo", "utf8").split("\n").length,
    );
  });

  it.skipIf(!procfs)("refuses a procfs file longer than the bound, at the bound (skipped off Linux)", async () => {
    const read = new NodeFs().readFile("/proc/self/mountinfo", 8);
    await expect(read).rejects.toBeInstanceOf(FsError);
    await expect(read).rejects.toMatchObject({ code: "too_large" });
  });

  it("holds no more memory than the bytes it returns (the language server caches thousands of files)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "yaoc-read-size-"));
    try {
      const fs = new NodeFs();
      for (const size of [0, 1, 130, 4095, 4096, 4097, 70_000]) {
        const path = join(dir, `f${size}`);
        writeFileSync(path, "m".repeat(size));
        const bytes = await fs.readFile(path, 1 << 20);
        expect(bytes.length).toBe(size);
        // One byte of slack at most: the read asks for one more than the size, to see growth.
        expect(bytes.buffer.byteLength, `a file of ${size} bytes`).toBeLessThanOrEqual(size + 1);
      }
      if (procfs) {
        const mountinfo = await fs.readFile("/proc/self/mountinfo", 1 << 20);
        expect(mountinfo.buffer.byteLength).toBeLessThanOrEqual(mountinfo.length + 1);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a device without reading it", async () => {
    await expect(new NodeFs().readFile("/dev/zero", 16)).rejects.toMatchObject({ code: "not_regular_file" });
  });
});

describe("NodeFs.readFile when the file changes size between fstat and the read", () => {
  const dir = mkdtempSync(join(tmpdir(), "yaoc-read-race-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * The race made deterministic: the file handle's `stat` answers with the metadata of that moment
   * and then `change` runs, so every byte the reader sees comes after the size it was told.
   */
  let restore: (() => void) | undefined;
  afterEach(() => restore?.());
  async function afterFstat(change: () => void): Promise<void> {
    const probeFile = join(dir, "probe");
    writeFileSync(probeFile, "");
    const probe = await fsp.open(probeFile, "r");
    const proto = Object.getPrototypeOf(probe) as { stat: (...a: unknown[]) => Promise<unknown> };
    await probe.close();
    const original = proto.stat;
    let calls = 0;
    proto.stat = async function (this: unknown, ...a: unknown[]) {
      const st = await original.apply(this, a);
      calls++;
      change();
      return st;
    };
    restore = () => {
      proto.stat = original;
      expect(calls).toBeGreaterThan(0);
      restore = undefined;
    };
  }

  for (const [what, size, change] of [
    ["grows by one byte (small file)", 100, (p: string) => appendFileSync(p, "x")],
    ["grows by one byte (larger than the first read step)", 10_000, (p: string) => appendFileSync(p, "x")],
    ["grows by a lot", 100, (p: string) => appendFileSync(p, "y".repeat(50_000))],
    ["shrinks", 10_000, (p: string) => truncateSync(p, 5_000)],
    ["is emptied", 10_000, (p: string) => truncateSync(p, 0)],
  ] as const) {
    it(`a file that ${what} is refused with an I/O error`, async () => {
      const path = join(dir, `f-${size}-${what.replace(/\W+/g, "-")}.yao`);
      writeFileSync(path, "a".repeat(size));
      await afterFstat(() => change(path));
      const read = new NodeFs().readFile(path, 1 << 20);
      await expect(read).rejects.toBeInstanceOf(FsError);
      await expect(read).rejects.toMatchObject({ code: "io", message: expect.stringMatching(/changed size while/) });
    });
  }

  it("a file that keeps its size is read exactly (the hook itself changes nothing)", async () => {
    const path = join(dir, "steady.yao");
    writeFileSync(path, "b".repeat(10_000));
    await afterFstat(() => undefined);
    const bytes = await new NodeFs().readFile(path, 1 << 20);
    expect(bytes.length).toBe(10_000);
  });
});
