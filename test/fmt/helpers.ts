/** Shared by the formatter tests: an independent comment scanner and package checks over formatted files. */
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { isWhiteSpace } from "../../grammar/yao.js";
import { formatSource } from "../../src/fmt/format.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { check } from "../../src/check/check.js";
import type { SNode } from "../../src/syntax/tree.js";

/**
 * Every comment of a Yao source, trimmed of White_Space, in source order. Written independently of
 * the formatter (a character scanner that skips strings), so the two can check each other.
 */
export function commentsOf(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      if (text.startsWith('"""', i)) {
        i = text.indexOf('"""', i + 3) + 3;
        continue;
      }
      i++;
      while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
    } else if (c === ";") {
      let end = text.indexOf("\n", i);
      if (end < 0) end = text.length;
      out.push(trimWs(text.slice(i, end)));
      i = end;
    } else i++;
  }
  return out;
}

function trimWs(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isWhiteSpace(s.charCodeAt(a))) a++;
  while (b > a && isWhiteSpace(s.charCodeAt(b - 1))) b--;
  return s.slice(a, b);
}

/** A tree without spans: what must not change when only layout changes. */
export function shape(n: SNode): unknown {
  if (n.kind === "list") return n.items.map(shape);
  if (n.kind === "symbol") return { s: n.name };
  return { q: n.value, block: n.block };
}

/** Format or fail the test. */
export function fmt(text: string): string {
  const r = formatSource(text);
  if (!r.ok) throw new Error(`formatter refused: ${r.diagnostic.code} ${r.diagnostic.message}`);
  return r.text;
}

/** Every regular file under `root` (or `root` itself), relative path → bytes; symlinks skipped. */
export function filesUnder(root: string): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const st = lstatSync(root);
  if (st.isFile()) {
    out.set("", readFileSync(root));
    return out;
  }
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      const s = lstatSync(p);
      if (s.isDirectory()) walk(p);
      else if (s.isFile()) out.set(relative(root, p), readFileSync(p));
    }
  };
  walk(root);
  return out;
}

export interface PackageFacts {
  readonly valid: boolean;
  readonly identity: string | null;
  /** The structural identity (HNS §11 steps 1–7), present even when the analysis rejects the package. */
  readonly loadedIdentity: string | null;
  readonly programHash: unknown;
  readonly codes: string[];
}

/**
 * Check a package held in memory, with every `.yao`/`.hns` file passed through `transform` first
 * (the identity transform gives the baseline).
 */
export async function packageFacts(
  files: Map<string, Uint8Array>,
  name: string,
  transform: (text: string) => string,
): Promise<PackageFacts> {
  const entries: Record<string, string | Uint8Array> = {};
  const root = `/pkg/${name}`;
  for (const [rel, bytes] of files) {
    const path = rel === "" ? root : `${root}/${rel}`;
    const yao = rel === "" || rel.endsWith(".yao") || rel.endsWith(".hns");
    entries[path] = yao ? transform(new TextDecoder().decode(bytes)) : bytes;
  }
  const r = await check(MemoryFs.from(entries), root, { kind: "hns", keepAnalysis: true });
  return {
    valid: r.valid,
    identity: r.identity,
    loadedIdentity: r.package?.identity ?? null,
    programHash: r.extra?.["program_hash"] ?? null,
    codes: r.diagnostics.map((d) => d.code),
  };
}
