/** Process-facing helpers shared by the CLI commands. */
import { realpathSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { basename, resolve } from "node:path";

export type ColorMode = "always" | "never" | "auto";
export const COLOR_MODES: readonly ColorMode[] = ["always", "never", "auto"];

let colorMode: ColorMode = "auto";

/** Set by `--color=always|never|auto` before a command runs. */
export function setColorMode(mode: ColorMode): void {
  colorMode = mode;
}

/**
 * Whether to colour output on `stream`, in this order: `--color=always|never` decides; else
 * FORCE_COLOR set to anything but "" or "0"/"false" forces colour (and "0"/"false" turns it off);
 * else a non-empty NO_COLOR turns it off (no-color.org); else colour exactly on a terminal.
 */
export function useColor(stream: NodeJS.WriteStream): boolean {
  if (colorMode === "always") return true;
  if (colorMode === "never") return false;
  const force = process.env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  const noColor = process.env.NO_COLOR;
  if (noColor !== undefined && noColor !== "") return false;
  return Boolean(stream.isTTY);
}

/** The one exit-code table of every command (README "Exit codes", `yaoc help`). */
export const EXIT_OK = 0;
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;

/** The exit-code table, printed at the end of every help page (the README has the same table). */
export const EXIT_CODE_TABLE = `Exit codes (the same in every command):
  0  ok: every package valid, the command did what was asked
  1  invalid input or a failed check: an invalid package, lock or document,
     a golden mismatch, a corrupt catalog entry
  2  usage or I/O error: bad arguments, a path that does not exist or cannot
     be read, output that cannot be written
  attest also exits 2 for "yellow" (honesty warnings; seed 002 §5.3 asks for
  0 green / 1 red / 2 yellow). A closed output pipe (\`yaoc … | head\`) is not
  an error: the command ends quietly with the code it would have had.`;

const PATH_PROBLEMS: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  ENOTDIR: "a component of the path is not a directory",
  ELOOP: "too many levels of symbolic links (a link loop)",
  EACCES: "permission denied",
  EPERM: "permission denied",
  ENAMETOOLONG: "the path is too long (a name over 255 bytes, or a path over 4,096)",
  EIO: "an input/output error of the device",
};

/**
 * Node hands a program its arguments decoded as UTF-8, with U+FFFD for bytes that are not; a name
 * holding such bytes therefore cannot be spelled on the command line at all.
 */
const NOT_UTF8_ARGUMENT =
  "no such file or directory; the argument holds bytes that are not UTF-8 (shown as \u{FFFD}), which a Node program cannot receive intact: name the directory that holds it instead";

/**
 * Why a path named on the command line cannot be used at all (missing, a dangling or looping
 * symlink, no permission, a name too long, a directory that cannot be listed, a name that is not
 * UTF-8), or null when it exists. Such a path is an I/O error: exit 2 in every command, whatever
 * the frontend then says about it.
 */
export async function unusablePath(path: string): Promise<string | null> {
  try {
    const st = await stat(path);
    if (st.isDirectory()) {
      // A directory that cannot be listed would look empty to the marker detection.
      await readdir(path);
    }
    return null;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? "";
    if (code === "ENOENT" && path.includes("\u{FFFD}")) return NOT_UTF8_ARGUMENT;
    if (code === "EACCES" || code === "EPERM") {
      const isDir = await stat(path).then(
        (s) => s.isDirectory(),
        () => false,
      );
      if (isDir) return "permission denied: the directory cannot be listed";
    }
    return PATH_PROBLEMS[code] ?? (code !== "" ? code : String(e));
  }
}

/** Print `yaoc CMD: PATH: problem` for each unusable path; true when there was any. */
export async function reportUnusablePaths(command: string, paths: readonly (string | undefined)[]): Promise<boolean> {
  let any = false;
  for (const path of paths) {
    if (path === undefined) continue;
    const problem = await unusablePath(path);
    if (problem === null) continue;
    process.stderr.write(`yaoc ${command}: ${path}: ${problem}\n`);
    any = true;
  }
  return any;
}

/**
 * A reader that goes away (`yaoc catalog list | head -1`) is not a failure of the command: output
 * stops quietly, the command runs to its end and exits with the code it would have had (so
 * `catalog verify | head` never looks like "corrupt"). Any other write error (a full disk) is an
 * I/O error: exit 2, said once on stderr when stderr still works.
 */
export function endQuietlyOnClosedPipe(): void {
  let reported = false;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EPIPE" || e.code === "ERR_STREAM_DESTROYED") return;
      process.exitCode = EXIT_USAGE;
      if (reported || stream === process.stderr) return;
      reported = true;
      process.stderr.write(`yaoc: cannot write output: ${e.code ?? e.message}\n`);
    });
  }
}

/**
 * The name a receipt gives a package: the last segment of its resolved path, with every symbolic
 * link resolved, so `x`, `./x`, `/abs/x` and a link to `x` give one ReproHash (docs/evidence.md).
 * A path that does not resolve keeps its lexical last segment.
 */
export function packageNameOf(path: string): string {
  let full: string;
  try {
    full = realpathSync(path);
  } catch {
    full = resolve(path);
  }
  return basename(full) || path;
}
