/**
 * The HIR kinds the analyzer builds most are class instances (src/yao/hir-kinds.ts), so V8 cannot
 * move their allocation site to the old generation; each has exactly the keys, in the order, that
 * the IR lists for its op, as the object literals they replace had.
 */
import { describe, expect, it } from "vitest";
import type { HirExpr } from "../../ir/yao-ir-0.1.js";
import { analyzeSources } from "../../src/yao/analyze.js";
import { DYNAMIC_SIGNATURE, morphzProfile } from "../../src/yao/profile.js";
import { hirChildren } from "../../src/yao/hir-children.js";

const KEYS: Record<string, readonly string[]> = {
  literal: ["op", "value"],
  reference: ["op", "root"],
  get: ["op", "value", "field"],
  pure: ["op", "operator", "operands"],
  seq: ["op", "steps"],
  bind: ["op", "name", "value"],
  if: ["op", "condition", "when_true", "when_false"],
  call: ["op", "tool", "arguments"],
  function_application: ["op", "function", "arguments", "parameters", "body"],
};

function kinds(root: HirExpr): HirExpr["kind"][] {
  const out: HirExpr["kind"][] = [];
  const stack = [root];
  while (stack.length > 0) {
    const e = stack.pop()!;
    out.push(e.kind);
    for (const c of hirChildren(e)) stack.push(c);
  }
  return out;
}

describe("the HIR kinds built most often", () => {
  it("are made by new, one class per op, with the IR's keys in its order", () => {
    const r = analyzeSources({
      source:
        '(eval (requires (tools read)) (types (record R (n Int))) (seq (bind r (record R (n 1))) (bind s (add 1 2)) (bind t (get r n)) (bind u r.n) (if (lt s 4) (call read (path "a")) (call read (path "b"))) (bump (v 2.5)) nil true "x"))',
      functionSources: [
        {
          source:
            '(fn bump (visibility exported) (description "doubles v") (params (v Float)) (returns Float) (effects) (body (mul v 2.0)))',
        },
      ],
      profile: morphzProfile(new Map([["read", { available: true, signature: DYNAMIC_SIGNATURE }]])),
    });
    expect(r.diagnostics).toEqual([]);
    const all = kinds(r.program!.body);
    const byOp = new Map<string, HirExpr["kind"][]>();
    for (const k of all) byOp.set(k.op, [...(byOp.get(k.op) ?? []), k]);
    expect([...byOp.keys()].filter((op) => op in KEYS).sort()).toEqual(Object.keys(KEYS).sort());
    for (const [op, keys] of Object.entries(KEYS)) {
      const found = byOp.get(op)!;
      for (const k of found) {
        expect(Object.getPrototypeOf(k), op).not.toBe(Object.prototype);
        expect(Object.keys(k), op).toEqual(keys);
      }
      expect(new Set(found.map((k) => Object.getPrototypeOf(k))).size, op).toBe(1);
    }
    // Compiled functions are class instances for the same reason (src/yao/functions.ts).
    const compiled = [...(r.functions?.values() ?? [])];
    expect(compiled.map((f) => f.name)).toEqual(["bump"]);
    expect(Object.getPrototypeOf(compiled[0])).not.toBe(Object.prototype);
    const values = byOp.get("literal")!.map((k) => (k as { value: unknown }).value);
    expect(values).toContainEqual({ kind: "nil" });
    expect(values).toContainEqual({ kind: "string", value: "x" });
    expect(values).toContainEqual({ kind: "float", value: "2.5" });
    expect(values).toContainEqual({ kind: "int", value: 1n });
    expect(values).toContainEqual({ kind: "bool", value: true });
  });
});
