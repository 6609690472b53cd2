/**
 * The import graph of the source tree, as the architecture tests read it: every `import`, `export …
 * from`, dynamic `import()` and `require()`, type-only imports included (they tie modules together
 * for a reader as much as value imports do).
 */
import { readdirSync, statSync } from "node:fs";
import { dirname, join, sep } from "node:path";

/** One import: the importing file and what it names, both repository-relative with `/`. */
export interface Edge {
  readonly from: string;
  /** Repository-relative target for relative specifiers; the bare specifier otherwise (`node:fs`, `chevrotain`). */
  readonly to: string;
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["']([^"']+)["']/g;

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
  });
}

export const posix = (p: string): string => p.split(sep).join("/");

export function importsOf(file: string, text: string): Edge[] {
  const from = posix(file);
  const edges: Edge[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1]!;
    const to = spec.startsWith(".") ? posix(join(dirname(from), spec)).replace(/\.js$/, ".ts") : spec;
    edges.push({ from, to });
  }
  return edges;
}

/**
 * The strongly connected components with more than one node (Tarjan's algorithm): each is a set of
 * nodes that import each other in a circle. A node importing itself is not reported (it cannot).
 */
export function cycles(nodes: readonly string[], successors: (node: string) => readonly string[]): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of successors(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const n of nodes) if (!index.has(n)) visit(n);
  return found;
}
