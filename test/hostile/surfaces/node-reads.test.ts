/**
 * Issue 35 item 10: `NodeFs.readFile` reads to the end within its bound. A file whose metadata says
 * nothing of its size (procfs) is read in full or refused, never cut to one byte; a file that is
 * longer than its limit is refused at the limit.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NodeFs } from "../../../src/fs/node-fs.js";
import { FsError } from "../../../src/fs/package-fs.js";

const procfs = process.platform === "linux";

describe("NodeFs.readFile exact reads", () => {
  it.skipIf(!procfs)("reads a procfs file (size 0 in its metadata) to its end", async () => {
    const bytes = await new NodeFs().readFile("/proc/self/mountinfo", 1 << 20);
    expect(bytes.length).toBeGreaterThan(1);
    // The same process, read twice: both are whole files of the same shape.
    expect(new TextDecoder().decode(bytes).split("\n").length).toBe(
      readFileSync("/proc/self/mountinfo", "utf8").split("\n").length,
    );
  });

  it.skipIf(!procfs)("refuses a procfs file longer than the bound, at the bound", async () => {
    const read = new NodeFs().readFile("/proc/self/mountinfo", 8);
    await expect(read).rejects.toBeInstanceOf(FsError);
    await expect(read).rejects.toMatchObject({ code: "too_large" });
  });

  it("refuses a device without reading it", async () => {
    await expect(new NodeFs().readFile("/dev/zero", 16)).rejects.toMatchObject({ code: "not_regular_file" });
  });
});
