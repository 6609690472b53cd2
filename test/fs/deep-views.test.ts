/**
 * Issue 35 item 5: the views over a MemoryFs snapshot stay linear in folder depth. `OverlayFs`
 * (the editor's unsaved documents over the snapshot) and `SnapshotFs.undecodableEntries` once went
 * through every entry's whole path — copying the entries into a path-keyed map, and scanning every
 * path for undecodable bytes — and a chain's paths add up to the square of its depth. Here each
 * entry's `path` is a getter that counts the bytes it hands out, so the test counts path bytes
 * read, not time: linear views read only the paths of the entries they answer with.
 */
import { describe, expect, it } from "vitest";
import type { PackageFs } from "../../src/fs/package-fs.js";
import { OverlayFs } from "../../src/fs/overlay-fs.js";
import {
  EntryTree,
  freezeSnapshot,
  type PackageSnapshot,
  type SnapshotEntry,
  SnapshotFs,
} from "../../src/fs/snapshot.js";

const DEPTH = 2000;
const BAD = "\udcff"; // a surrogate-escaped byte (src/fs/names.ts): a name with no UTF-8 spelling

/** /p holding a chain d/d/…/d, DEPTH folders deep, with x.yao at the bottom and `leaf` beside it. */
function deepSnapshot(leaf: string): { snap: PackageSnapshot; pathBytes: () => number; bottom: string } {
  let read = 0;
  const entry = (e: Omit<SnapshotEntry, "path">, path: string): SnapshotEntry =>
    Object.defineProperty({ ...e }, "path", {
      enumerable: true,
      get: () => {
        read += path.length;
        return path;
      },
    }) as SnapshotEntry;
  const tree = new EntryTree(entry({ kind: "directory" }, ""));
  let slot = 0;
  let path = "";
  for (let i = 0; i < DEPTH; i++) {
    path = path === "" ? "d" : `${path}/d`;
    slot = tree.add(slot, "d", entry({ kind: "directory" }, path));
  }
  const file = (name: string) =>
    tree.add(
      slot,
      name,
      entry(
        { kind: "file", size: 1, executable: false, bytes: new Uint8Array([0x31]) } as Omit<SnapshotEntry, "path">,
        `${path}/${name}`,
      ),
    );
  file("x.yao");
  file(leaf);
  const snap = freezeSnapshot({ requested: "/p", root: "/p", entries: tree, rootState: "present", failure: null });
  read = 0;
  return { snap, pathBytes: () => read, bottom: path };
}

describe("views over a deep snapshot read only the paths they answer with", () => {
  it("undecodableEntries names the one bad name at the bottom of 2,000 folders, reading its path only", () => {
    const { snap, pathBytes, bottom } = deepSnapshot(`bad${BAD}`);
    const found = new SnapshotFs(snap).undecodableEntries();
    expect(found).toEqual([`${bottom}/bad${BAD}`]);
    // Scanning every path read about DEPTH²: 2,000 folders make 4 MB of paths; the answer's is 4 KB.
    expect(pathBytes()).toBeLessThanOrEqual(2 * found[0]!.length);
  });

  it("undecodableEntries still names every entry below a bad folder name", async () => {
    const tree = new EntryTree({ kind: "directory", path: "" });
    const bad = tree.add(0, `b${BAD}`, { kind: "directory", path: `b${BAD}` });
    tree.add(bad, "ok.yao", {
      kind: "file",
      path: `b${BAD}/ok.yao`,
      size: 0,
      executable: false,
      bytes: new Uint8Array(),
    });
    tree.add(0, "fine.yao", { kind: "file", path: "fine.yao", size: 0, executable: false, bytes: new Uint8Array() });
    const snap = freezeSnapshot({ requested: "/p", root: "/p", entries: tree, rootState: "present", failure: null });
    expect(new SnapshotFs(snap).undecodableEntries()).toEqual([`b${BAD}`, `b${BAD}/ok.yao`]);
  });

  it("OverlayFs puts an open document at the bottom of 2,000 folders in place, reading no other path", async () => {
    const { snap, pathBytes, bottom } = deepSnapshot("y.yao");
    const base = { snapshotPackage: async () => snap } as unknown as PackageFs;
    const overlay = new OverlayFs(base);
    overlay.set(`/p/${bottom}/x.yao`, "edited");
    overlay.set(`/p/${bottom}/new.yao`, "unsaved");
    const view = await overlay.snapshotPackage("/p");
    // Copying the entries into a path-keyed map read every path: about 4 MB at this depth.
    expect(pathBytes()).toBeLessThanOrEqual(4 * bottom.length);
    expect(view.entries).toBeInstanceOf(EntryTree);
    const fs = new SnapshotFs(view);
    const text = async (rel: string) => new TextDecoder().decode(await fs.readFile(`/p/${bottom}/${rel}`, 100));
    expect(await text("x.yao")).toBe("edited");
    expect(await text("new.yao")).toBe("unsaved");
    expect(await text("y.yao")).toBe("1");
    expect(await fs.readdir(`/p/${bottom}`)).toEqual(["x.yao", "y.yao", "new.yao"]);
    // The base snapshot is untouched.
    expect(new TextDecoder().decode(await new SnapshotFs(snap).readFile(`/p/${bottom}/x.yao`, 100))).toBe("1");
    expect(await new SnapshotFs(snap).readdir(`/p/${bottom}`)).toEqual(["x.yao", "y.yao"]);
  });

  it("OverlayFs adds an unsaved document to a folder of more than eight entries, and finds it after", async () => {
    // A folder past eight children looks its names up through a map made on the first lookup; the
    // overlay looks the new name up (absent) before adding it, so the map must learn of the add.
    const tree = new EntryTree({ kind: "directory", path: "" });
    for (let i = 0; i < 12; i++)
      tree.add(0, `f${i}.yao`, {
        kind: "file",
        path: `f${i}.yao`,
        size: 1,
        executable: false,
        bytes: new Uint8Array([0x31]),
      });
    const snap = freezeSnapshot({ requested: "/p", root: "/p", entries: tree, rootState: "present", failure: null });
    const overlay = new OverlayFs({ snapshotPackage: async () => snap } as unknown as PackageFs);
    overlay.set("/p/new.yao", "unsaved");
    overlay.set("/p/f3.yao", "edited");
    const fs = new SnapshotFs(await overlay.snapshotPackage("/p"));
    expect(new TextDecoder().decode(await fs.readFile("/p/new.yao", 100))).toBe("unsaved");
    expect(new TextDecoder().decode(await fs.readFile("/p/f3.yao", 100))).toBe("edited");
    expect(new TextDecoder().decode(await fs.readFile("/p/f4.yao", 100))).toBe("1");
    expect((await fs.readdir("/p")).length).toBe(13);
  });
});
