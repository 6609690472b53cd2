/**
 * A `PackageFs` that answers from the editor's unsaved documents first and from the underlying file
 * system otherwise, so a package is checked as the author currently sees it. Browser-safe.
 */
import { FsError, type FileStat, type PackageFs } from "../fs/package-fs.js";

const encoder = new TextEncoder();

export class OverlayFs implements PackageFs {
  private readonly open = new Map<string, Uint8Array>();
  /** Real paths under which open documents were also registered (see realpath). */
  private readonly aliases = new Map<string, string>();

  constructor(private readonly base: PackageFs) {}

  set(path: string, text: string): void {
    this.open.set(path, encoder.encode(text));
  }

  delete(path: string): void {
    this.open.delete(path);
    const real = this.aliases.get(path);
    if (real !== undefined) this.open.delete(real);
    this.aliases.delete(path);
  }

  has(path: string): boolean {
    return this.open.has(path);
  }

  async lstat(path: string): Promise<FileStat | null> {
    const o = this.open.get(path);
    if (o !== undefined) return { kind: "file", size: o.length, executable: false };
    return this.base.lstat(path);
  }

  async stat(path: string): Promise<FileStat | null> {
    const o = this.open.get(path);
    if (o !== undefined) return { kind: "file", size: o.length, executable: false };
    return this.base.stat(path);
  }

  /**
   * The base file system's answer; an open document that is not on disk (a new, unsaved file) is
   * its own real path, and an open document reached through a symlinked directory is also known
   * under its real path (the loaders read by real path).
   */
  async realpath(path: string): Promise<string> {
    const o = this.open.get(path);
    try {
      const real = await this.base.realpath(path);
      if (o !== undefined && real !== path) {
        this.open.set(real, o);
        this.aliases.set(path, real);
      }
      return real;
    } catch (e) {
      if (o !== undefined) return path;
      throw e;
    }
  }

  readdir(path: string): Promise<string[]> {
    return this.base.readdir(path);
  }

  async readFile(path: string, maxBytes: number): Promise<Uint8Array> {
    const o = this.open.get(path);
    if (o === undefined) return this.base.readFile(path, maxBytes);
    if (o.length > maxBytes) throw new FsError("too_large", path, `${path} is larger than ${maxBytes} bytes`);
    return o;
  }
}
