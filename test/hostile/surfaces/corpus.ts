/**
 * The hostile corpus of issue 35 that every surface checks (`check` on disk, `check` over MemoryFs,
 * the language server: lsp.test.ts; `catalog install` and `evidence receipt`: verdicts.test.ts):
 * small trees, each with the verdict `yaoc check` gives. Built from the
 * repository's own examples and fixtures, never from the reference folder.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../../support/shared.js";

export type HostileValue = string | { readonly link: string } | { readonly dir: true } | { readonly sparse: number };

export interface HostileTree {
  readonly name: string;
  /** The package path, relative to the tree. */
  readonly root: string;
  /** Package-relative paths (relative to the tree) to contents. */
  readonly files: Readonly<Record<string, HostileValue>>;
  /** The verdict of `yaoc check`. */
  readonly valid: boolean;
}

function copyOf(repoPath: string, as: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (abs: string, rel: string): void => {
    if (statSync(abs).isDirectory())
      for (const n of readdirSync(abs)) walk(join(abs, n), rel === "" ? n : `${rel}/${n}`);
    else out[rel === "" ? as : `${as}/${rel}`] = readFileSync(abs, "utf8");
  };
  walk(join(REPO_ROOT, repoPath), "");
  return out;
}

const deep = Array.from({ length: 130 }, (_, i) => `d${i}`).join("/");

export function hostileCorpus(): HostileTree[] {
  const dir = copyOf("examples/review-dir.hns", "p.hns");
  return [
    { name: "valid-single-file", root: "review.hns", files: copyOf("examples/review.hns", "review.hns"), valid: true },
    { name: "valid-directory", root: "p.hns", files: dir, valid: true },
    { name: "nested-past-depth-limit", root: "p.hns", files: { ...dir, [`p.hns/${deep}/x`]: "x" }, valid: false },
    {
      name: "function-link-leaves-package",
      root: "p.hns",
      files: { ...dir, "secret.yao": "(fn secret)", "p.hns/functions/stolen.yao": { link: "../../secret.yao" } },
      valid: false,
    },
    {
      name: "entry-is-dangling-link",
      root: "p.hns",
      files: { ...dir, "p.hns/programs/main.yao": { link: "nowhere.yao" } },
      valid: false,
    },
    {
      name: "harp-invalid-json",
      root: "app",
      files: copyOf("fixtures/harp/invalid-json-syntax", "app"),
      valid: false,
    },
    { name: "harp-no-manifest-marker-only-dir", root: "empty", files: { "empty/readme.txt": "hi" }, valid: false },
    // Valid, but not HNS: `check` accepts it, and the catalog (HNS only) refuses it.
    { name: "harp-valid-app", root: "app", files: copyOf("fixtures/harp/valid-minimal", "app"), valid: true },
    // A function past the 256 KiB source limit, sparse on disk (zeros in a MemoryFs).
    {
      name: "sparse-function-past-source-limit",
      root: "p.hns",
      files: { ...dir, "p.hns/functions/big.yao": { sparse: 300 * 1024 } },
      valid: false,
    },
  ];
}

/** What of a MemoryFs filling a tree needs: the source's class and the built browser bundle's alike. */
export interface WritableTree {
  writeFile(path: string, data: string | Uint8Array): void;
  symlink(path: string, target: string): void;
  mkdir(path: string): void;
}

/** The tree in memory under `/work` (a sparse file becomes that many zero bytes: keep them small). */
export function fillMemoryTree<T extends WritableTree>(fs: T, tree: HostileTree): T {
  for (const [rel, value] of Object.entries(tree.files)) {
    const path = `/work/${rel}`;
    if (typeof value === "string") fs.writeFile(path, value);
    else if ("link" in value) fs.symlink(path, value.link);
    else if ("dir" in value) fs.mkdir(path);
    else fs.writeFile(path, new Uint8Array(value.sparse));
  }
  return fs;
}
