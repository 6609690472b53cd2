/**
 * `yaoc fmt [--check | --diff | --write] PATH... | -`: the reference formatter (src/fmt) over files,
 * directories and stdin.
 *
 * - no flag: print the formatted text of the one input (a file or `-`);
 * - `--check`: list the files that would change, exit 1 if any; `--diff` also prints a unified diff;
 * - `--write`: rewrite only the files that change, atomically (a temp file in the same directory
 *   with the original mode, fsync'd, renamed over the original), aborting with the reference message
 *   if the file changed while it was being formatted.
 *
 * A directory is searched for `.yao` and `.hns` files (each formatted on its own: a directory package's
 * manifest, contract, functions and entry are separate Yao sources). Invalid Yao is refused with the
 * reader's diagnostic and never written. Formatting never changes a verdict: a file whose formatted
 * text would pass the reader's per-file limit, or the files of a directory package whose formatted
 * texts together would pass the package's total (4 MiB, `hns.package_limit`), are left as they are
 * (`--check` reports them). Exit codes: 0 ok; 1 a file is invalid, would change or cannot be
 * formatted within a limit; 2 usage or I/O error.
 */
import {
  closeSync,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";
import { check } from "../check/check.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { formatSource, formattedLimitError } from "../fmt/format.js";
import { renderDiagnosticsHuman } from "../diagnostics/render.js";
import { NodeFs } from "../fs/node-fs.js";
import { OverlayFs } from "../fs/overlay-fs.js";
import { type BoundedRead, ioProblem, readInputBounded } from "./bounded-input.js";
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, useColor } from "./io.js";

export interface FmtOptions {
  readonly check?: boolean;
  readonly diff?: boolean;
  readonly write?: boolean;
  /** Test hook: runs after the temp file is written and before the changed-meanwhile check. */
  readonly beforeCommit?: (path: string) => void;
}

export interface FmtIo {
  readonly stdout: (s: string) => void;
  readonly stderr: (s: string) => void;
  /** Standard input, bounded like every command's input (src/cli/bounded-input.ts). */
  readonly readStdin: () => BoundedRead;
  readonly color: boolean;
}

/** Directories never searched: version control and dependency trees. */
const SKIPPED_DIRECTORIES = new Set([".git", "node_modules"]);
/** A directory tree is searched to this depth at most (no unbounded walks through odd trees). */
const MAX_DEPTH = 32;

function isYaoFile(name: string): boolean {
  return name.endsWith(".yao") || name.endsWith(".hns");
}

export function defaultFmtIo(): FmtIo {
  return {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    readStdin: () => readInputBounded("-"),
    color: useColor(process.stderr),
  };
}

export async function runFmt(
  paths: readonly string[],
  options: FmtOptions,
  io: FmtIo = defaultFmtIo(),
): Promise<number> {
  const usage = (message: string): number => {
    io.stderr(`yaoc fmt: ${message}\n`);
    return EXIT_USAGE;
  };
  if (options.write && (options.check || options.diff)) {
    return usage(`--write and --${options.check ? "check" : "diff"} are mutually exclusive`);
  }
  if (paths.includes("-") && paths.length > 1) return usage("`-` (stdin) cannot be combined with other paths");
  if (paths.includes("-") && options.write)
    return usage("--write needs files; stdin (`-`) has nowhere to be written back");

  const files: string[] = [];
  let status = EXIT_OK;
  if (paths[0] === "-") files.push("-");
  else {
    for (const path of paths) {
      const found = collect(path, io);
      if (found === undefined) status = EXIT_USAGE;
      else for (const f of found) files.push(f);
    }
  }
  const reportMode = options.check || options.diff;
  if (!reportMode && !options.write && (files.length !== 1 || paths.length !== 1 || isDirectory(paths[0]!))) {
    if (status !== EXIT_OK) return status;
    return usage(
      "printing the formatted text needs exactly one file or `-`; use --check, --diff or --write for several files or a directory",
    );
  }

  let changed = 0;
  const packages = new PackageLimits(files, io);
  for (const file of files) {
    const outcome = formatOne(file, options, io, await packages.refusalFor(file));
    if (outcome === "changed") changed++;
    else if (outcome === "invalid") status = Math.max(status, EXIT_INVALID);
    else if (outcome === "io") status = EXIT_USAGE;
  }
  if (reportMode && changed > 0) {
    io.stderr(`${changed} file${changed === 1 ? "" : "s"} would be reformatted\n`);
    status = Math.max(status, EXIT_INVALID);
  }
  return status;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The `.yao`/`.hns` files a path names (itself, or those under a directory, sorted), or undefined on error. */
function collect(path: string, io: FmtIo): string[] | undefined {
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    io.stderr(
      code === "ENOENT" && !path.includes("\u{FFFD}")
        ? `yaoc fmt: ${path} does not exist\n`
        : `yaoc fmt: cannot read ${path}: ${code === "ENOENT" ? "no such file; the argument holds bytes that are not UTF-8 (shown as \u{FFFD}), which a Node program cannot receive intact: name the directory that holds it instead" : ioProblem(e)}\n`,
    );
    return undefined;
  }
  if (st.isFile()) {
    if (!isYaoFile(path)) {
      io.stderr(`yaoc fmt: ${path} is not a .yao or .hns file; format expects .yao/.hns files, directories or -\n`);
      return undefined;
    }
    return [path];
  }
  if (!st.isDirectory()) {
    io.stderr(`yaoc fmt: ${path} is neither a regular file nor a directory\n`);
    return undefined;
  }
  const out: string[] = [];
  const walk = (dir: string, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    const names = readdirSync(dir).sort();
    for (const name of names) {
      const child = join(dir, name);
      const entry = lstatSync(child);
      // Symbolic links are never followed: a link could lead out of the tree or loop.
      if (entry.isDirectory() && !SKIPPED_DIRECTORIES.has(name)) walk(child, depth + 1);
      else if (entry.isFile() && isYaoFile(name)) out.push(child);
    }
  };
  try {
    walk(path, 0);
  } catch (e) {
    io.stderr(`yaoc fmt: cannot read ${path}: ${(e as Error).message}\n`);
    return undefined;
  }
  return out;
}

type Outcome = "unchanged" | "changed" | "invalid" | "io";

/**
 * The directory-package total (HNS: 4 MiB over the files the loader reads): formatting files of a
 * package one by one could keep each under the per-file limit and still push the package over its
 * total, turning a passing package into a failing one. Decided once per package, on the first of
 * its files in the list: the package is loaded (no analysis) as it is and with the formatted texts
 * of every listed file of it in their place (an overlay over the same read-once snapshot), and when
 * only the second load meets `hns.package_limit`, none of its files is rewritten.
 */
class PackageLimits {
  private readonly decided = new Map<string, Diagnostic | null>();
  private readonly reported = new Set<string>();

  constructor(
    private readonly files: readonly string[],
    private readonly io: FmtIo,
  ) {}

  /** The refusal for `file` (its package's formatted total is over the limit), shown once per package; else null. */
  async refusalFor(file: string): Promise<Diagnostic | null> {
    if (file === "-") return null;
    const root = packageRootOf(file);
    if (root === null) return null;
    let refusal = this.decided.get(root);
    if (refusal === undefined) {
      refusal = await this.decide(root);
      this.decided.set(root, refusal);
    }
    if (refusal !== null && !this.reported.has(root)) {
      this.reported.add(root);
      this.io.stderr(renderDiagnosticsHuman([refusal], new Map(), { color: this.io.color }));
    }
    return refusal;
  }

  private async decide(root: string): Promise<Diagnostic | null> {
    const overlay = new OverlayFs(new NodeFs());
    let growth = 0;
    for (const f of this.files) {
      if (f === "-" || packageRootOf(f) !== root) continue;
      const read = readInputBounded(f);
      if (!read.ok) continue;
      const result = formatSource(read.bytes, { file: f });
      if (!result.ok) continue;
      const formatted = new TextEncoder().encode(result.text);
      if (sameBytes(formatted, read.bytes)) continue;
      growth += formatted.length - read.bytes.length;
      let real: string;
      try {
        real = realpathSync(f);
      } catch {
        continue;
      }
      overlay.set(real, result.text);
    }
    // Shorter or equal files never make any prefix of the loader's reads longer.
    if (growth <= 0) return null;
    const limited = (ds: readonly Diagnostic[]) => ds.find((d) => d.code === "hns.package_limit");
    const before = await check(new NodeFs(), root, { kind: "hns", analyze: false });
    if (limited(before.diagnostics) !== undefined) return null;
    const after = limited((await check(overlay, root, { kind: "hns", analyze: false })).diagnostics);
    if (after === undefined) return null;
    const { span: _span, ...rest } = after;
    return {
      ...rest,
      file: root,
      message: `formatting the files of ${root} would make the package fail its size limit (${after.message}); the formatted package would fail \`yaoc check\` where it passes now`,
      hint: "split large functions or move stray large sources out of the package before formatting it",
    };
  }
}

/** The directory package (`NAME.hns/`) a file lies in, by real path: its nearest such ancestor, or null. */
function packageRootOf(file: string): string | null {
  let dir: string;
  try {
    dir = dirname(realpathSync(file));
  } catch {
    return null;
  }
  for (; dir !== dirname(dir); dir = dirname(dir)) if (dir.endsWith(".hns") && isDirectory(dir)) return dir;
  return null;
}

function formatOne(file: string, options: FmtOptions, io: FmtIo, packageRefusal: Diagnostic | null): Outcome {
  const name = file === "-" ? "<stdin>" : file;
  const read = file === "-" ? io.readStdin() : readInputBounded(file);
  if (!read.ok) {
    io.stderr(`yaoc fmt: ${read.message}\n`);
    return "io";
  }
  const bytes = read.bytes;
  const result = formatSource(bytes, { file: name });
  if (!result.ok) {
    const sources = new Map<string, string>(result.text === undefined ? [] : [[name, result.text]]);
    io.stderr(renderDiagnosticsHuman([result.diagnostic], sources, { color: io.color }));
    io.stderr(`yaoc fmt: ${name} is not valid Yao; nothing written\n`);
    return "invalid";
  }
  const original = new TextDecoder().decode(bytes);
  const same = original === result.text;
  // A rewrite that would cross the reader's byte limit would turn a passing file into a failing one.
  const overLimit = same ? null : formattedLimitError(result.text, name);
  if (overLimit !== null) {
    io.stderr(renderDiagnosticsHuman([overLimit], new Map(), { color: io.color }));
    io.stderr(`yaoc fmt: ${name} is left as it is: its formatted text is over the source limit\n`);
    return "invalid";
  }
  if (!same && packageRefusal !== null) {
    io.stderr(`yaoc fmt: ${name} is left as it is: formatting its package would pass the package's size limit\n`);
    return "invalid";
  }
  if (options.check || options.diff) {
    if (same) return "unchanged";
    io.stdout(`${name}\n`);
    if (options.diff)
      io.stdout(
        createTwoFilesPatch(name, name, original, result.text, undefined, undefined, {
          context: 3,
          headerOptions: FILE_HEADERS_ONLY,
        }),
      );
    return "changed";
  }
  if (options.write) {
    if (same) return "unchanged";
    return writeAtomically(file, bytes, result.text, options, io);
  }
  io.stdout(result.text);
  return same ? "unchanged" : "changed";
}

/**
 * Replace `file` with `text` through a temp file in the same directory (so the rename is atomic),
 * fsync'd before the rename. If the file no longer holds the bytes that were formatted, nothing is
 * written (the reference's `source changed during formatting`).
 *
 * A symbolic link is kept: its target is what gets rewritten. The new file keeps the old one's
 * owner, group and permission bits; when the owner cannot be kept (a user rewriting a file that
 * another user owns) nothing is written. A setuid or setgid bit is carried over only onto a file
 * the writer itself owns, so `root` formatting another user's setuid file never leaves a setuid
 * file that is not its own.
 */
function writeAtomically(
  file: string,
  formattedFrom: Uint8Array,
  text: string,
  options: FmtOptions,
  io: FmtIo,
): Outcome {
  let target: string;
  let st: Stats;
  try {
    target = realpathSync(file);
    st = statSync(target);
  } catch (e) {
    io.stderr(`yaoc fmt: cannot write ${file}: ${ioProblem(e)}\n`);
    return "io";
  }
  if (!st.isFile()) {
    io.stderr(`yaoc fmt: cannot write ${file}: it is not a regular file\n`);
    return "io";
  }
  const dir = dirname(target);
  const temp = join(dir, `.${basename(target)}.yaoc-fmt-${process.pid}-${Date.now()}.tmp`);
  let fd: number | undefined;
  let created = false;
  try {
    // wx: never reuse or follow an existing path; no permission bits until the owner is settled.
    fd = openSync(temp, "wx", 0o600);
    created = true;
    const data = new TextEncoder().encode(text);
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
    const keptOwner = keepOwner(fd, st);
    if (keptOwner !== null) {
      closeSync(fd);
      fd = undefined;
      rmSync(temp, { force: true });
      io.stderr(`yaoc fmt: ${file}: ${keptOwner}; nothing written\n`);
      return "io";
    }
    fchmodSync(fd, permissionBits(st));
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    options.beforeCommit?.(file);
    const now = readInputBounded(target);
    if (!now.ok || !sameBytes(now.bytes, formattedFrom)) {
      rmSync(temp, { force: true });
      io.stderr(`yaoc fmt: ${file}: source changed during formatting; no write performed\n`);
      return "io";
    }
    renameSync(temp, target);
    syncDirectory(dir);
    return "changed";
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    if (created) rmSync(temp, { force: true });
    io.stderr(`yaoc fmt: cannot write ${file}: ${ioProblem(e)}\n`);
    return "io";
  }
}

/** Give the temp file the original's owner and group; a reason when that is not possible, else null. */
function keepOwner(fd: number, original: Stats): string | null {
  const now = fstatSync(fd);
  if (now.uid === original.uid && now.gid === original.gid) return null;
  try {
    fchownSync(fd, original.uid, original.gid);
    return null;
  } catch {
    return `its owner and group (${original.uid}:${original.gid}) cannot be kept by this user (a rewrite would change who owns it)`;
  }
}

/** The original's permission bits; setuid and setgid only when the writer owns the file. */
function permissionBits(original: Stats): number {
  const uid = typeof process.getuid === "function" ? process.getuid() : original.uid;
  const special = original.uid === uid ? 0o6000 : 0;
  return original.mode & (0o1777 | special);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Make the rename durable; some platforms cannot fsync a directory, which is not an error here. */
function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // best effort
  }
}
