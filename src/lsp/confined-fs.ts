/**
 * The language server's disk, confined to its workspace folders: every path is answered only when
 * its real path (every symbolic link resolved) lies under one of the folders' real paths; anything
 * else does not exist here (`stat`/`lstat` say null, the rest throw `permission_denied`), so no
 * request can make the server read `/etc/passwd`, a marker above the workspace is never scanned,
 * and a package's link out of the workspace reads nothing. Open documents are answered by the
 * overlay above this layer, never from here. Package snapshots go through the same check and then
 * through the base's read-once reader, with its limits. Browser-safe.
 */
import { FsError, type FileStat, type PackageFs } from "../fs/package-fs.js";
import { dirName, isWithin, normalizePath } from "../fs/paths.js";
import { canSnapshot, type PackageSnapshot, type SnapshotLimits, type SnapshotSource } from "../fs/snapshot.js";

export class ConfinedFs implements PackageFs, SnapshotSource {
  /** Real paths of the folders; null until `setRoots` (then nothing is inside). */
  private roots: readonly string[] = [];

  constructor(private readonly base: PackageFs) {}

  /** The workspace folders (as the client named them); resolved once to their real paths. */
  async setRoots(folders: readonly string[]): Promise<void> {
    const real: string[] = [];
    for (const f of folders) {
      try {
        real.push(await this.base.realpath(f));
      } catch {
        // a folder that does not exist holds nothing
      }
    }
    this.roots = real;
  }

  /** Whether `path`, once every link in it is resolved, lies in a workspace folder. */
  async inside(path: string): Promise<boolean> {
    // Not the lexical path: a link inside a folder may point elsewhere; the real path decides.
    const lexical = normalizePath(path);
    let real: string;
    try {
      real = await this.base.realpath(lexical);
    } catch {
      // A path that does not exist: judged by its nearest existing parent.
      const parent = dirName(lexical);
      if (parent === lexical) return false;
      return this.inside(parent);
    }
    return this.roots.some((r) => isWithin(r, real));
  }

  async lstat(path: string): Promise<FileStat | null> {
    // lstat does not follow the last link: its parent directory must be inside.
    if (!(await this.inside(dirName(normalizePath(path)))) && !(await this.inside(path))) return null;
    return this.base.lstat(path);
  }

  async stat(path: string): Promise<FileStat | null> {
    return (await this.inside(path)) ? this.base.stat(path) : null;
  }

  async realpath(path: string): Promise<string> {
    await this.require(path);
    return this.base.realpath(path);
  }

  async readdir(path: string): Promise<string[]> {
    await this.require(path);
    return this.base.readdir(path);
  }

  async readFile(path: string, maxBytes: number): Promise<Uint8Array> {
    await this.require(path);
    return this.base.readFile(path, maxBytes);
  }

  async snapshotPackage(path: string, limits?: Partial<SnapshotLimits>): Promise<PackageSnapshot> {
    await this.require(path);
    if (!canSnapshot(this.base)) throw new FsError("io", path, `${path}: the file system cannot take a snapshot`);
    return this.base.snapshotPackage(path, limits);
  }

  private async require(path: string): Promise<void> {
    if (!(await this.inside(path)))
      throw new FsError(
        "permission_denied",
        path,
        `${path} is outside the workspace folders; the server does not read it`,
      );
  }
}
