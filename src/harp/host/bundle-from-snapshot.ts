/**
 * `harp install` writes the app's bundle from the snapshot the package was checked from — never by
 * reading the source directory again — and proves the result before it is published: the written
 * staging directory is read back (itself as a snapshot), hashed with the same tree digest, and must
 * equal the digest of the checked snapshot. Anything that could differ (a file changed on disk, a
 * link swapped into the staging area) makes the install fail instead of publishing other content.
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { encodeName } from "../../fs/names.js";
import { readPackageSnapshot } from "../../fs/node-snapshot.js";
import { SnapshotFs, type PackageSnapshot } from "../../fs/snapshot.js";
import { diagnostic } from "../codes.js";
import { treeDigest, walkPackage, type PackageTree } from "../tree.js";
import { HostError } from "./host-error.js";

/** Write `tree` (walked from `snapshot`) into the new directory `staging`, then verify it. */
export async function writeBundleFromSnapshot(
  snapshot: PackageSnapshot | null,
  tree: PackageTree,
  staging: string,
): Promise<void> {
  if (snapshot === null)
    throw new Error("the package was not read into a snapshot, so there is nothing verified to install");
  const at = (rel: string): Buffer => Buffer.from(encodeName(join(staging, rel)));
  mkdirSync(staging, { recursive: true });
  const dirs: Buffer[] = [Buffer.from(staging)];
  for (const e of tree.entries) {
    const to = at(e.path);
    if (e.kind === "dir") {
      mkdirSync(to);
      dirs.push(to);
    } else if (e.kind === "file") {
      const entry = snapshot.entries.get(e.path);
      if (entry?.kind !== "file" || entry.bytes === null)
        throw new Error(`${e.path} is not held in the package snapshot`);
      const mode = entry.executable ? 0o555 : 0o444;
      writeFileSync(to, entry.bytes, { mode, flag: "wx" });
      chmodSync(to, mode);
    } else {
      // Internal links are recreated relative, so the bundle stays self-contained.
      symlinkSync(
        Buffer.from(encodeName(relative(dirname(join(staging, e.path)), join(staging, e.target)) || ".")),
        to,
      );
    }
  }
  // §8.2: the bundle is read-only to the app, also where no sandbox is active.
  for (const d of dirs.reverse()) chmodSync(d, 0o555);

  const written = await readPackageSnapshot(staging);
  const fs = new SnapshotFs(written);
  const writtenDigest = written.failure === null ? treeDigest(await walkPackage(fs, written.root)) : null;
  const expected = treeDigest(tree);
  if (writtenDigest !== expected) {
    throw new HostError([
      diagnostic(
        "harp.install_failed",
        `the written bundle does not match the checked package (checked ${expected}, written ${writtenDigest ?? written.failure?.message ?? "unreadable"}); nothing was published`,
        {
          hint: "Install again; if it keeps failing, something is changing the app directory while yaoc writes it.",
        },
      ),
    ]);
  }
}
