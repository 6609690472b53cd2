import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readOne } from "../../src/syntax/reader.js";
import type { SNode } from "../../src/syntax/tree.js";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const SHARED = resolve(REPO, "../shared");
export const MORPHZ = join(SHARED, "reference/morphz-fixtures");
export const SEMA = join(MORPHZ, "inline/yao/src/sema.rs@70e0787");

export function parse(source: string, file = "test.yao"): SNode {
  const r = readOne(source, { file });
  if (!r.ok) throw new Error(`fixture does not parse: ${r.diagnostic.message}`);
  return r.form;
}

export function parseFile(path: string): SNode {
  return parse(readFileSync(path, "utf8"), path);
}
