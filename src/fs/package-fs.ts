/**
 * The one interface through which the core reads packages. The core never imports `node:` modules;
 * the CLI hands it the Node adapter (`node-fs.ts`), tests and browsers the in-memory one.
 *
 * Paths are POSIX-style strings ("/" separated). Implementations must not follow a symlink when
 * asked to `lstat`, and `readFile` must refuse anything that is not a regular file *before* reading
 * from it (so a FIFO never blocks and a device is never opened for reading).
 */
export type FileKind = "file" | "directory" | "symlink" | "fifo" | "socket" | "block-device" | "char-device" | "other";

export interface FileStat {
  readonly kind: FileKind;
  readonly size: number;
  /** Some execute permission bit is set; undefined where the file system has no such notion. */
  readonly executable?: boolean;
}

export type FsErrorCode =
  | "not_found"
  | "not_regular_file"
  | "not_directory"
  | "too_large"
  | "permission_denied"
  | "loop"
  | "io";

/** A failed file-system operation; `message` is suitable for a person, `code` for a program. */
export class FsError extends Error {
  constructor(
    readonly code: FsErrorCode,
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = "FsError";
  }
}

export interface PackageFs {
  /** Metadata without following a final symlink; `null` when nothing is there. */
  lstat(path: string): Promise<FileStat | null>;
  /** Metadata following symlinks; `null` when the path (or a link target) does not exist. */
  stat(path: string): Promise<FileStat | null>;
  /** The canonical absolute path with every symlink resolved; throws `FsError`. */
  realpath(path: string): Promise<string>;
  /** Entry names of a directory (not paths), in no particular order; throws `FsError`. */
  readdir(path: string): Promise<string[]>;
  /**
   * The bytes of a regular file. Throws `FsError("not_regular_file")` for anything else without
   * reading from it, and `FsError("too_large")` as soon as more than `maxBytes` bytes are seen.
   */
  readFile(path: string, maxBytes: number): Promise<Uint8Array>;
}
