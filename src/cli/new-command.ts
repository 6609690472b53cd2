/**
 * `yaoc new NAME` and `yaoc init` (like `cargo new` / `gleam new`): write a small HNS package that
 * passes `yaoc check`, with comments that point to docs/language.md. `new` makes `NAME.hns` (a
 * single file, or with `--dir` the directory form); `init` makes one in the current directory: the
 * directory form when the directory is itself named `*.hns`, otherwise `<directory name>.hns`.
 * Nothing that exists is ever overwritten: every file is created exclusively, and a name taken is a
 * usage error (exit 2) before anything is written.
 */
import { lstatSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { EXIT_OK, EXIT_USAGE } from "./io.js";

type Write = (text: string) => void;

/** A package id the templates can write as a bare symbol: letters, digits, `-`, `_` and dots. */
const PACKAGE_NAME = /^[A-Za-z][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/;

const HEADER = (name: string, form: string): string =>
  `; ${name}: an HNS harness package (${form}).
; Check it with \`yaoc check\`; the language guide is docs/language.md in yaoc
; (\`yaoc explain get\` explains one form, \`yaoc explain\` lists the topics).
`;

function manifest(name: string, entry: boolean): string {
  return `(manifest
  (id ${name})
  (version "0.1.0")
  (title "${name}")${entry ? '\n  (entry "programs/main.yao")' : ""}
  ; the tools the harness may call; a (call TOOL …) outside them is an error
  (capabilities (tools read)))
`;
}

const CONTRACT = `(contract (purpose "Say in one sentence what this harness is for"))
`;

const FUNCTION = `; A function: named, typed parameters, a return type and an upper bound on its effects.
(fn read-notes
  (visibility exported)
  (description "Read the notes file")
  (params (path String))
  (returns Json)
  (effects (tool read))
  (body (call read (path path))))
`;

const ENTRY = `; The entry program: what it may use (requires …), then exactly one body expression
; (use (seq …) for several steps).
(eval (requires (tools read)) (read-notes (path "NOTES.md")))
`;

/** The files of a package, by path relative to where it is written. */
export function packageFiles(name: string, form: "file" | "dir"): ReadonlyMap<string, string> {
  if (form === "file")
    return new Map([
      [`${name}.hns`, `${HEADER(name, "single-file form")}${manifest(name, false)}${CONTRACT}${FUNCTION}${ENTRY}`],
    ]);
  const dir = `${name}.hns`;
  return new Map([
    [join(dir, "manifest.yao"), `${HEADER(name, "directory form")}${manifest(name, true)}`],
    [join(dir, "contract.yao"), CONTRACT],
    [join(dir, "functions", "read-notes.yao"), FUNCTION],
    [join(dir, "programs", "main.yao"), ENTRY],
  ]);
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The name of a package: NAME with an optional `.hns` suffix; undefined when it cannot be an id. */
export function packageName(raw: string): string | undefined {
  const name = raw.endsWith(".hns") ? raw.slice(0, -4) : raw;
  return PACKAGE_NAME.test(name) ? name : undefined;
}

/**
 * Write `files` under `base`, each created exclusively (`wx`). On a failure part-way, what this call
 * created is removed again, so nothing half-written stays behind.
 */
function writeAll(base: string, files: ReadonlyMap<string, string>, created: string[]): void {
  for (const [rel, text] of files) {
    const path = join(base, rel);
    const parts = rel.split(/[\\/]/).slice(0, -1);
    let dir = base;
    for (const p of parts) {
      dir = join(dir, p);
      if (!exists(dir)) {
        mkdirSync(dir);
        created.push(dir);
      }
    }
    writeFileSync(path, text, { flag: "wx" });
    created.push(path);
  }
}

const WRITE_PROBLEMS: Readonly<Record<string, string>> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "the file system is read-only",
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is exhausted",
  ENOENT: "the directory does not exist",
  ENOTDIR: "a component of the path is not a directory",
  EEXIST: "it appeared while the package was being written",
  ENAMETOOLONG: "the path is too long",
};

/** Why writing failed, in words (no syscall names), and that nothing was left behind. */
function cannotWrite(cmd: string, base: string, e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  // Node names the path as it was passed, relative to the process's directory.
  const where = resolve(err.path ?? base);
  const why = (err.code !== undefined ? WRITE_PROBLEMS[err.code] : undefined) ?? (err.message || String(e));
  return `yaoc ${cmd}: cannot write ${where}: ${why}; nothing was written\n`;
}

function create(base: string, files: ReadonlyMap<string, string>, write: Write, writeErr: Write, cmd: string): number {
  const top = new Set([...files.keys()].map((rel) => rel.split(/[\\/]/)[0]!));
  for (const t of top)
    if (exists(join(base, t))) {
      writeErr(`yaoc ${cmd}: ${join(base, t)} already exists; choose another name or remove it first\n`);
      return EXIT_USAGE;
    }
  const created: string[] = [];
  try {
    writeAll(base, files, created);
  } catch (e) {
    for (const p of created.reverse()) rmSync(p, { recursive: true, force: true });
    writeErr(cannotWrite(cmd, base, e));
    return EXIT_USAGE;
  }
  const made = [...top][0]!;
  write(`created ${join(base, made)}\nnext: yaoc check ${join(base, made)}   (the language: docs/language.md)\n`);
  return EXIT_OK;
}

/** `yaoc new NAME [--dir]`: the package `NAME.hns` in the current directory. */
export function runNew(raw: string, opts: { dir?: boolean }, write: Write, writeErr: Write, cwd = "."): number {
  const name = packageName(raw);
  if (name === undefined) {
    writeErr(
      `yaoc new: '${raw}' cannot be a package name; use letters, digits, '-' and '_' (dots between parts), starting with a letter, e.g. yaoc new my-harness\n`,
    );
    return EXIT_USAGE;
  }
  return create(cwd, packageFiles(name, opts.dir === true ? "dir" : "file"), write, writeErr, "new");
}

/**
 * `yaoc init`: a package in `cwd`. A directory named `NAME.hns` becomes the directory form of NAME;
 * any other directory gets the single file `<directory name>.hns`.
 */
export function runInit(write: Write, writeErr: Write, cwd = "."): number {
  const here = basename(resolve(cwd));
  const name = packageName(here);
  if (name === undefined) {
    writeErr(`yaoc init: the directory name '${here}' cannot be a package name; run \`yaoc new NAME\` to choose one\n`);
    return EXIT_USAGE;
  }
  if (!here.endsWith(".hns")) return create(cwd, packageFiles(name, "file"), write, writeErr, "init");
  // The directory is the package: write its files directly into it.
  const files = new Map([...packageFiles(name, "dir")].map(([rel, text]) => [rel.slice(`${name}.hns/`.length), text]));
  for (const rel of files.keys())
    if (exists(join(cwd, rel.split(/[\\/]/)[0]!))) {
      writeErr(`yaoc init: ${join(cwd, rel)} already exists; this directory already holds a package\n`);
      return EXIT_USAGE;
    }
  const created: string[] = [];
  try {
    writeAll(cwd, files, created);
  } catch (e) {
    for (const p of created.reverse()) rmSync(p, { recursive: true, force: true });
    writeErr(cannotWrite("init", cwd, e));
    return EXIT_USAGE;
  }
  write(`created the package ${here}\nnext: yaoc check ${resolve(cwd)}   (the language: docs/language.md)\n`);
  return EXIT_OK;
}
