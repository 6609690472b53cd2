/**
 * The one bounded reader of the commands' own inputs (a file named on the command line, or `-` for
 * standard input): `check -`, `evidence canon|hash`, `fmt` all read through it, with the one
 * documented limit `INPUT_LIMIT` (README "Input limits").
 *
 * A named file is opened with O_NONBLOCK (a FIFO never blocks), must be a regular file, and is
 * refused by the size its metadata reports before a byte is read; then it is read to its end in
 * bounded steps, so a file that grows meanwhile (or reports no size, as procfs files do) still
 * never makes the reader allocate past the limit. Standard input is read the same way, whatever it
 * is (a pipe, a file, `/dev/zero`). Failures are values with a message for people, never throws.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";

/** Largest input a command reads (the same for `check -`, `evidence`, `fmt`): 16 MiB. */
export const INPUT_LIMIT = 16 * 1024 * 1024;

export type BoundedRead =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly reason: "too_large" | "io"; readonly message: string };

const CHUNK = 64 * 1024;

/** Read `file` (`-` or undefined: standard input) in full, refusing anything larger than `limit` bytes. */
export function readInputBounded(file: string | undefined, limit: number = INPUT_LIMIT): BoundedRead {
  const stdin = file === undefined || file === "-";
  const name = stdin ? "standard input" : file;
  let fd: number;
  try {
    fd = stdin ? 0 : openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    return { ok: false, reason: "io", message: `cannot read ${name}: ${ioProblem(e)}` };
  }
  try {
    let st: Stats;
    try {
      st = fstatSync(fd);
    } catch (e) {
      return { ok: false, reason: "io", message: `cannot read ${name}: ${ioProblem(e)}` };
    }
    if (!stdin && st.isDirectory())
      return { ok: false, reason: "io", message: `cannot read ${name}: it is a directory` };
    if (!stdin && !st.isFile())
      return { ok: false, reason: "io", message: `cannot read ${name}: it is not a regular file` };
    if (st.isFile() && st.size > limit) return tooLarge(name, limit, st.size);
    return readToEnd(fd, name, limit, st.isFile() ? st.size : 0);
  } finally {
    if (!stdin) closeSync(fd);
  }
}

function readToEnd(fd: number, name: string, limit: number, sizeHint: number): BoundedRead {
  let buf = new Uint8Array(Math.min(Math.max(sizeHint + 1, CHUNK), limit + 1));
  let filled = 0;
  for (;;) {
    if (filled === buf.length) {
      if (buf.length > limit) return tooLarge(name, limit);
      const bigger = new Uint8Array(Math.min(buf.length * 2, limit + 1));
      bigger.set(buf);
      buf = bigger;
    }
    let n: number;
    try {
      n = readSync(fd, buf, filled, buf.length - filled, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EAGAIN") {
        waitBriefly(); // a non-blocking pipe with nothing yet: wait, never spin
        continue;
      }
      return { ok: false, reason: "io", message: `cannot read ${name}: ${ioProblem(e)}` };
    }
    if (n === 0) return { ok: true, bytes: buf.subarray(0, filled) };
    filled += n;
    if (filled > limit) return tooLarge(name, limit);
  }
}

function tooLarge(name: string, limit: number, size?: number): BoundedRead {
  const has = size === undefined ? "is larger than" : `has ${size} bytes, more than`;
  return {
    ok: false,
    reason: "too_large",
    message: `${name} ${has} the input limit of ${limit} bytes (16 MiB); nothing past the limit was read`,
  };
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function waitBriefly(): void {
  Atomics.wait(sleeper, 0, 0, 10);
}

const PROBLEMS: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  ENOTDIR: "a component of the path is not a directory",
  EISDIR: "it is a directory",
  ELOOP: "too many levels of symbolic links (a link loop)",
  EACCES: "permission denied",
  EPERM: "permission denied",
  ENAMETOOLONG: "the path is too long",
  EIO: "an input/output error of the device",
};

/** A person's words for a Node file-system error. */
export function ioProblem(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined && PROBLEMS[code] !== undefined) return PROBLEMS[code];
  return code ?? (e instanceof Error ? e.message : String(e));
}
