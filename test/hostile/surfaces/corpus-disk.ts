/** The hostile corpus (corpus.ts) written to disk, and the file of each tree an editor would open. */
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HostileTree } from "./corpus.js";

export function writeTree(base: string, tree: HostileTree): void {
  for (const [rel, value] of Object.entries(tree.files)) {
    const path = join(base, rel);
    mkdirSync(join(path, ".."), { recursive: true });
    if (typeof value === "string") writeFileSync(path, value);
    else if ("link" in value) symlinkSync(value.link, path);
    else if ("dir" in value) mkdirSync(path, { recursive: true });
    else {
      writeFileSync(path, "");
      truncateSync(path, value.sparse);
    }
  }
}

/** The file an author would open to see the package's diagnostics: the marker or metadata file. */
export function packageFileOf(
  base: string,
  tree: HostileTree,
): { path: string; text: string; language: string } | undefined {
  for (const rel of [tree.root, `${tree.root}/manifest.yao`, `${tree.root}/harp.json`]) {
    const v = tree.files[rel];
    if (typeof v === "string")
      return { path: join(base, rel), text: v, language: rel.endsWith(".json") ? "json" : "yao" };
  }
  return undefined;
}
