/**
 * Generated well-typed programs: the runtime shape of every value matches its static type. A program
 * is built from a random type (Nil, Bool, Int, Float, String, List, Map, Option, Result and a
 * declared record and union) and a random literal expression of that type, wrapped in operations
 * that keep the type (bind/seq, if, fallback, to-json/from-json round trips, par). Its value must
 * decode against the program's output type, and its JSON must read back to the same value.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeValue,
  parseValueText,
  startProgram,
  valueEquals,
  valueText,
  yaoTag,
  type Value,
} from "../../src/eval/index.js";
import { compile } from "./helpers.js";

type Ty =
  | { k: "Nil" | "Bool" | "Int" | "Float" | "String" | "Row" | "Shape" }
  | { k: "List" | "Map" | "Option"; t: Ty }
  | { k: "Result"; ok: Ty; err: Ty };

const TYPES = "(types (record Row (id Int) (name String)) (union Shape (circle (r Float)) (dot)))";

const tyArb: fc.Arbitrary<Ty> = fc.letrec<{ ty: Ty }>((tie) => ({
  ty: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom<Ty>(
      { k: "Nil" },
      { k: "Bool" },
      { k: "Int" },
      { k: "Float" },
      { k: "String" },
      { k: "Row" },
      { k: "Shape" },
    ),
    fc.record({ k: fc.constantFrom("List" as const, "Map" as const, "Option" as const), t: tie("ty") }),
    fc.record({ k: fc.constant("Result" as const), ok: tie("ty"), err: tie("ty") }),
  ),
})).ty;

const typeText = (t: Ty): string =>
  "t" in t ? `(${t.k} ${typeText(t.t)})` : "ok" in t ? `(Result ${typeText(t.ok)} ${typeText(t.err)})` : t.k;

const str = fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s));
const float = fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((x) => {
  const s = String(x);
  return /[.e]/.test(s) ? s : `${s}.0`;
});

function exprArb(t: Ty, depth: number): fc.Arbitrary<string> {
  switch (t.k) {
    case "Nil":
      return fc.constant("nil");
    case "Bool":
      return fc.boolean().map(String);
    case "Int":
      return fc.integer({ min: -1000, max: 1000 }).map(String);
    case "Float":
      return float;
    case "String":
      return str;
    case "Row":
      return fc
        .tuple(fc.integer({ min: 0, max: 99 }), str)
        .map(([id, name]) => `(record Row (id ${id}) (name ${name}))`);
    case "Shape":
      return fc.oneof(
        float.map((r) => `(variant Shape.circle (r ${r}))`),
        fc.constant("(variant Shape.dot)"),
      );
    case "List":
      // A non-empty list, so the element type is the one generated (an empty list is List Json).
      return fc
        .array(exprArb(t.t, depth + 1), { minLength: 1, maxLength: depth > 2 ? 1 : 3 })
        .map((xs) => `(list ${xs.join(" ")})`);
    case "Map":
      return fc
        .uniqueArray(fc.tuple(fc.constantFrom("a", "b", "c"), exprArb(t.t, depth + 1)), {
          minLength: 1,
          maxLength: 2,
          selector: (e) => e[0],
        })
        .map((es) => `(dict ${es.map(([k, v]) => `(${k} ${v})`).join(" ")})`);
    case "Option":
      return fc.oneof(
        exprArb(t.t, depth + 1).map((x) => `(some ${x})`),
        fc.constant(`(none ${typeText(t.t)})`),
      );
    case "Result":
      return fc.oneof(
        exprArb(t.ok, depth + 1).map((x) => `(ok ${x} ${typeText(t.err)})`),
        exprArb(t.err, depth + 1).map((x) => `(err ${x} ${typeText(t.ok)})`),
      );
  }
}

/** Operations that keep the type of `e`. */
function wrapped(t: Ty, e: string): fc.Arbitrary<string> {
  return fc.constantFrom(
    e,
    `(seq (bind v ${e}) v)`,
    `(if true ${e} ${e})`,
    `(fallback ${e} ${e})`,
    `(from-json ${typeText(t)} (to-json ${e}))`,
    `(get (par (branch x ${e}) (branch y 1)) x)`,
  );
}

const caseArb = tyArb.chain((t) =>
  exprArb(t, 0).chain((e) => wrapped(t, e).map((w) => ({ t, src: `(eval ${TYPES} ${w})` }))),
);

/** Stricter than decode (which lets an Int stand for a Float): the exact runtime shape of each type. */
function hasShape(v: Value, t: Ty): boolean {
  const tag = yaoTag(v);
  switch (t.k) {
    case "Nil":
      return v === null;
    case "Bool":
      return typeof v === "boolean";
    case "Int":
      return typeof v === "bigint";
    case "Float":
      return typeof v === "number";
    case "String":
      return typeof v === "string";
    case "Row": {
      const f = tag?.get("fields");
      return (
        tag?.get("kind") === "record" &&
        f instanceof Map &&
        typeof f.get("id") === "bigint" &&
        typeof f.get("name") === "string"
      );
    }
    case "Shape": {
      const f = tag?.get("fields");
      if (tag?.get("kind") !== "variant" || !(f instanceof Map)) return false;
      return tag.get("variant") === "dot" ? f.size === 0 : typeof f.get("r") === "number";
    }
    case "List":
      return Array.isArray(v) && v.every((x) => hasShape(x, t.t));
    case "Map":
      return v instanceof Map && tag === undefined && [...v.values()].every((x) => hasShape(x, t.t));
    case "Option":
      return tag?.get("kind") === "option" && (tag.get("variant") === "none" || hasShape(tag.get("value")!, t.t));
    case "Result":
      return (
        tag?.get("kind") === "result" &&
        (tag.get("variant") === "ok" ? hasShape(tag.get("value")!, t.ok) : hasShape(tag.get("value")!, t.err))
      );
  }
}

describe("properties of evaluation", () => {
  it("the runtime shape of a value matches its static type, and its JSON reads back to it", () => {
    fc.assert(
      fc.property(caseArb, ({ t, src }) => {
        const program = compile(src, {});
        const r = startProgram(program).result;
        expect(r.outcome, src).toBe("value");
        if (r.outcome !== "value") return;
        expect(hasShape(r.value, t), `${src} gave ${valueText(r.value)}`).toBe(true);
        expect(() => decodeValue(program.output, r.value, program.types)).not.toThrow();
        expect(valueEquals(parseValueText(valueText(r.value)), r.value)).toBe(true);
      }),
      { numRuns: 150, seed: 32 },
    );
  });
});
