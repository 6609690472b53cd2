/**
 * A directory package in which one function, `g`, is used `uses` times (4,000 calls per function
 * file), for the language server's scale figures (bench/surfaces.ts) and the tests that a long
 * `references` request neither blocks a cheap request nor ignores `$/cancelRequest`
 * (test/hostile/surfaces/lsp.test.ts). The package is over the analyzer's node limit past a few
 * thousand uses, which does not matter: references come from the symbol index of the texts.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Calls of `g` per function file (16 KB of text, well under the reader's per-file limit). */
const PER_FILE = 4000;

export const G_SOURCE = '(fn g (visibility exported) (description "d") (params) (returns Int) (effects) (body 1))\n';

/** Write the package at `dir` (replacing what is there); the file declaring `g`, whose `g` is at line 0, character 4. */
export function usesPackage(dir: string, uses: number): { readonly root: string; readonly declaring: string } {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "functions"), { recursive: true });
  mkdirSync(join(dir, "programs"));
  writeFileSync(
    join(dir, "manifest.yao"),
    '(manifest (id acme.uses) (version "1.0.0") (title "Uses") (entry "programs/main.yao") (capabilities))\n',
  );
  writeFileSync(join(dir, "contract.yao"), '(contract (purpose "p"))\n');
  writeFileSync(join(dir, "programs", "main.yao"), "(eval (requires (tools)) (g))\n");
  writeFileSync(join(dir, "functions", "g.yao"), G_SOURCE);
  for (let f = 0; f * PER_FILE < uses; f++)
    writeFileSync(
      join(dir, "functions", `u${f}.yao`),
      `(fn u${f} (visibility internal) (description "d") (params) (returns (List Int)) (effects) (body (list\n${"(g)\n".repeat(Math.min(PER_FILE, uses - f * PER_FILE))})))\n`,
    );
  return { root: dir, declaring: join(dir, "functions", "g.yao") };
}
