/**
 * No list is ever spread into a call. `xs.push(...ys)`, `Math.max(...xs)`,
 * `String.fromCharCode(...xs)`, `f(...xs)` and `f.apply(this, xs)` pass every element as one
 * argument on the stack; V8 throws "Maximum call stack size exceeded" somewhere above ~100,000
 * arguments, and hostile inputs reach that many diagnostics or items easily (a 961 KB ACL of
 * `x=1` lines gave 240,000 diagnostics). Array literals (`[...a, ...b]`) and object spreads are
 * built iteratively and are fine.
 *
 * The scan parses every source file with the TypeScript compiler, so it sees each form however it
 * is written (line breaks, parentheses, `new`, optional calls). One exception, justified: forwarding
 * a function's own rest parameter (`(...args) => body(...args)`): those arguments already arrived
 * as one call's argument list, so re-spreading them cannot exceed what the first call accepted.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/shared.js";

const ROOTS = ["src", "scripts", "bench"];

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) for (const q of sources(p)) out.push(q);
    else if (/\.(ts|mts)$/.test(name) && !name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

/** True when `arg` is `...name` and `name` is a rest parameter of a function enclosing the call. */
function forwardsRestParameter(arg: ts.SpreadElement): boolean {
  if (!ts.isIdentifier(arg.expression)) return false;
  const name = arg.expression.text;
  for (let n: ts.Node | undefined = arg.parent; n !== undefined; n = n.parent) {
    if (ts.isFunctionLike(n)) {
      if (n.parameters.some((p) => p.dotDotDotToken !== undefined && ts.isIdentifier(p.name) && p.name.text === name))
        return true;
    }
  }
  return false;
}

/** Every spread-into-call (and `.apply(thisArg, list)`) in one file's text, as `file:line: code`. */
export function callSpreads(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (node: ts.Node, what: string): void => {
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    found.push(`${file}:${line + 1}: ${what}: ${node.getText(sf).replace(/\s+/g, " ").slice(0, 100)}`);
  };
  const visit = (node: ts.Node): void => {
    if (
      ts.isSpreadElement(node) &&
      (ts.isCallExpression(node.parent) || ts.isNewExpression(node.parent)) &&
      !forwardsRestParameter(node)
    ) {
      report(node.parent, "spread into a call");
    }
    if (ts.isCallExpression(node) && node.arguments.length === 2) {
      const callee = node.expression;
      const isApply = ts.isPropertyAccessExpression(callee) && callee.name.text === "apply";
      if (isApply && !ts.isArrayLiteralExpression(node.arguments[1]!))
        report(node, "Function.prototype.apply with a list");
    }
    if (ts.isCallExpression(node) && node.expression.getText(sf) === "Reflect.apply") report(node, "Reflect.apply");
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe("no list is spread into a call", () => {
  it("the scan finds each form it must reject (so an empty result below means something)", () => {
    const hostile = [
      "out.push(...xs);",
      "Math.max(\n  ...values.map((v) => v.n),\n);",
      "String.fromCharCode(...codes);",
      "f(a, ...rest);",
      "new Set(...lists);",
      "o.m?.(...xs);",
      "Math.max.apply(null, xs);",
      "Reflect.apply(f, undefined, xs);",
      "function g(xs: number[]) { return h(...xs); }",
    ];
    for (const code of hostile) expect(callSpreads("t.ts", code), code).toHaveLength(1);
  });

  it("accepts array literals, object spreads, rest parameters and forwarding them", () => {
    const fine = [
      "const a = [...xs, ...ys];",
      "const o = { ...p, q: 1 };",
      "function f(...args: number[]) { return g(...args); }",
      "const w = (...args: unknown[]) => async () => body(...args);",
      "const [head, ...tail] = xs;",
      "this.apply(n, op, scope, d);",
      "f.apply(null, [a, b]);",
    ];
    for (const code of fine) expect(callSpreads("t.ts", code), code).toEqual([]);
  });

  it("src/, scripts/ and bench/ have none", () => {
    const found: string[] = [];
    for (const root of ROOTS) {
      for (const file of sources(join(REPO_ROOT, root)))
        for (const f of callSpreads(relative(REPO_ROOT, file), readFileSync(file, "utf8"))) found.push(f);
    }
    expect(found).toEqual([]);
  });
});
