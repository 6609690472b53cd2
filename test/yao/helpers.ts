import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readOne } from "../../src/syntax/reader.js";
import type { SNode } from "../../src/syntax/tree.js";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export function parse(source: string, file = "test.yao"): SNode {
  const r = readOne(source, { file });
  if (!r.ok) throw new Error(`fixture does not parse: ${r.diagnostic.message}`);
  return r.form;
}

export function parseFile(path: string): SNode {
  return parse(readFileSync(path, "utf8"), path);
}
