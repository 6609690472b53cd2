/**
 * Directory packages written to disk for the language server's scale figures (bench/surfaces.ts)
 * and the surfaces tests (test/hostile/surfaces): one writer of the package skeleton (manifest,
 * contract, entry program, function files) and the two generated shapes they use —
 *
 * - `usesPackage`: one function, `g`, used `uses` times (4,000 calls per function file), for the
 *   figures and the tests that a long `references` or `rename` neither blocks a cheap request nor
 *   ignores `$/cancelRequest`. The package is over the analyzer's node limit past a few thousand
 *   uses, which does not matter: references come from the symbol index of the texts.
 * - `growingFunction`: a function file of ~9.5 KB that formats to ~200 KB, for the tests that
 *   formatting (`yaoc fmt`, the server's formatting) never pushes a package over its size limits.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Calls of `g` per function file (16 KB of text, well under the reader's per-file limit). */
const PER_FILE = 4000;

export const G_SOURCE = '(fn g (visibility exported) (description "d") (params) (returns Int) (effects) (body 1))\n';

export interface DirectoryPackage {
  readonly id: string;
  readonly title: string;
  /** The text of programs/main.yao. */
  readonly main: string;
  /** Function files by name (without `.yao`), written under functions/. */
  readonly functions: Iterable<readonly [string, string]>;
}

/** Write a directory package at `dir`, replacing what is there; returns `dir`. */
export function writeDirectoryPackage(dir: string, p: DirectoryPackage): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "functions"), { recursive: true });
  mkdirSync(join(dir, "programs"));
  writeFileSync(
    join(dir, "manifest.yao"),
    `(manifest (id ${p.id}) (version "1.0.0") (title "${p.title}") (entry "programs/main.yao") (capabilities))\n`,
  );
  writeFileSync(join(dir, "contract.yao"), '(contract (purpose "p"))\n');
  writeFileSync(join(dir, "programs", "main.yao"), p.main);
  for (const [name, text] of p.functions) writeFileSync(join(dir, "functions", `${name}.yao`), text);
  return dir;
}

/** Write the package at `dir` (replacing what is there); the file declaring `g`, whose `g` is at line 0, character 4. */
export function usesPackage(dir: string, uses: number): { readonly root: string; readonly declaring: string } {
  const functions: [string, string][] = [["g", G_SOURCE]];
  for (let f = 0; f * PER_FILE < uses; f++)
    functions.push([
      `u${f}`,
      `(fn u${f} (visibility internal) (description "d") (params) (returns (List Int)) (effects) (body (list\n${"(g)\n".repeat(Math.min(PER_FILE, uses - f * PER_FILE))})))\n`,
    ]);
  writeDirectoryPackage(dir, { id: "acme.uses", title: "Uses", main: "(eval (requires (tools)) (g))\n", functions });
  return { root: dir, declaring: join(dir, "functions", "g.yao") };
}

/**
 * A function file of ~9.5 KB as written and ~200 KB formatted: 3,000 comment lines inside lists
 * nested 30 deep get indented. Under the reader's 262,144-byte limit either way.
 */
export function growingFunction(name: string): string {
  const depth = 30;
  const type = `${"(List ".repeat(depth)}Int${")".repeat(depth)}`;
  const body = `${"(list ".repeat(depth)}1\n${";c\n".repeat(3000)}${")".repeat(depth)}`;
  return `(fn ${name} (visibility internal) (description "d") (params) (returns ${type}) (effects) (body ${body}))\n`;
}
