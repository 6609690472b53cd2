/**
 * The MemoryFs snapshot holds its entries in an `EntryTree` (src/fs/snapshot.ts), keyed by
 * directory and name instead of by whole path, so that taking it is linear in the depth (issue 35,
 * figure s-depth). It must still answer as the path-keyed map did: every lookup, listing and
 * iteration below is what a `Map` of the same entries gives.
 */
import { describe, expect, it } from "vitest";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { EntryTree, SnapshotFs } from "../../src/fs/snapshot.js";

function sample(): MemoryFs {
  const fs = new MemoryFs();
  fs.writeFile("/p/b/deep/x.yao", "x");
  fs.writeFile("/p/a.yao", "a");
  for (let i = 0; i < 20; i++) fs.writeFile(`/p/wide/f${i}`, String(i)); // more than a directory scans
  fs.symlink("/p/link", "b/deep");
  fs.mkdir("/p/empty");
  fs.put("/p/fifo", { kind: "fifo" });
  return fs;
}

describe("EntryTree behind the MemoryFs snapshot", () => {
  it("answers every lookup, listing and iteration as a map keyed by path would", async () => {
    const snap = await sample().snapshotPackage("/p");
    expect(snap.failure).toBeNull();
    expect(snap.entries).toBeInstanceOf(EntryTree);
    const map = new Map(snap.entries);
    const keys = [...snap.entries.keys()];
    expect(keys.length).toBe(29);
    // Each directory before its children, siblings in code-point order.
    expect(keys.slice(0, 8)).toEqual(["", "a.yao", "b", "b/deep", "b/deep/x.yao", "empty", "fifo", "link"]);
    expect(keys.slice(8, 11)).toEqual(["wide", "wide/f0", "wide/f1"]);
    expect(snap.entries.size).toBe(map.size);
    for (const [k, e] of map) {
      expect(snap.entries.get(k)).toBe(e);
      expect(snap.entries.has(k)).toBe(true);
      expect(e.path).toBe(k);
    }
    for (const missing of ["nope", "b/nope", "b/deep/x.yao/y", "wide/f20", "wide/f1/", "/b", "b//deep", "link/x.yao"])
      expect([missing, snap.entries.has(missing), snap.entries.get(missing)]).toEqual([missing, false, undefined]);
    const seen: string[] = [];
    snap.entries.forEach((e, k) => seen.push(`${k}:${e.kind}`));
    expect(seen).toEqual([...map].map(([k, e]) => `${k}:${e.kind}`));
  });

  it("lists directories, small and large, through SnapshotFs", async () => {
    const view = new SnapshotFs(await sample().snapshotPackage("/p"));
    expect(await view.readdir("/p")).toEqual(["a.yao", "b", "empty", "fifo", "link", "wide"]);
    expect(await view.readdir("/p/empty")).toEqual([]);
    expect(await view.readdir("/p/link")).toEqual(["x.yao"]);
    expect((await view.readdir("/p/wide")).length).toBe(20);
    expect(new TextDecoder().decode(await view.readFile("/p/wide/f13", 10))).toBe("13");
    expect(new TextDecoder().decode(await view.readFile("/p/link/x.yao", 10))).toBe("x");
    expect(await view.stat("/p/wide/f20")).toBeNull();
  });

  it("is sealed once frozen into a snapshot: no entry can be added", async () => {
    const snap = await sample().snapshotPackage("/p");
    const tree = snap.entries as EntryTree;
    expect(() => tree.add(0, "late", { kind: "directory", path: "late" })).toThrow(/frozen/);
    expect(snap.entries.has("late")).toBe(false);
  });

  it("is a snapshot: later writes to the MemoryFs are not seen", async () => {
    const fs = sample();
    const snap = await fs.snapshotPackage("/p");
    fs.writeFile("/p/b/deep/x.yao", "changed");
    fs.writeFile("/p/new.yao", "n");
    const view = new SnapshotFs(snap);
    expect(new TextDecoder().decode(await view.readFile("/p/b/deep/x.yao", 10))).toBe("x");
    expect(await view.stat("/p/new.yao")).toBeNull();
  });

  it("keeps each folder's code-point order between snapshots, and takes the names added since", async () => {
    // The order of a folder's names is kept after the first snapshot (a folder of 20,000 was sorted
    // again on every check): a later snapshot must still see names added, replaced or made folders.
    const fs = sample();
    const first = await fs.snapshotPackage("/p");
    const listed = async () => new SnapshotFs(await fs.snapshotPackage("/p")).readdir("/p");
    expect(await listed()).toEqual(["a.yao", "b", "empty", "fifo", "link", "wide"]);
    fs.writeFile("/p/0.yao", "zero");
    fs.writeFile("/p/c/inner.yao", "c");
    fs.writeFile("/p/a.yao", "replaced");
    expect(await listed()).toEqual(["0.yao", "a.yao", "b", "c", "empty", "fifo", "link", "wide"]);
    fs.writeFile("/p/wide/f05", "between f4 and f5? no: after f0 and before f1");
    const wide = await new SnapshotFs(await fs.snapshotPackage("/p")).readdir("/p/wide");
    expect(wide.slice(0, 3)).toEqual(["f0", "f05", "f1"]);
    expect(wide.length).toBe(21);
    const view = new SnapshotFs(await fs.snapshotPackage("/p"));
    expect(new TextDecoder().decode(await view.readFile("/p/a.yao", 20))).toBe("replaced");
    // The snapshot taken before the writes is unchanged.
    expect(await new SnapshotFs(first).readdir("/p")).toEqual(["a.yao", "b", "empty", "fifo", "link", "wide"]);
  });
});
