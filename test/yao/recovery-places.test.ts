/**
 * Issue 34 item 3/4: after an error at an unknown tool call, a failed map element name (or map
 * collection) and a match on a failed value, the checker goes on with the rest of the function:
 * each independent error around such a place is reported once, and nothing is reported that only
 * follows from the first (the recovered node is of the recovery type). Verdicts do not change: each
 * package here was already invalid by its first error.
 */
import { describe, expect, it } from "vitest";
import { check } from "../../src/check/check.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";

const TYPES = "(types (union Shape (circle (r Int)) (square (side Int))))";

function pkg(body: string, params = "", returns = "Json"): string {
  return [
    '(manifest (id demo) (version "1") (title "Demo") (capabilities (tools read)))',
    '(contract (purpose "p"))',
    `(fn f (params ${params}) (returns ${returns}) (body ${body}))`,
    `(eval (requires (tools read)) ${TYPES} 1)`,
  ].join("\n");
}

async function errorsOf(source: string): Promise<{ code: string; text: string; message: string }[]> {
  const r = await check(MemoryFs.from({ "/p.hns": source }), "/p.hns");
  expect(r.valid).toBe(false);
  return r.diagnostics
    .filter((d: Diagnostic) => d.severity === "error")
    .map((d) => ({ code: d.code, text: source.slice(d.span!.start.byte, d.span!.end.byte), message: d.message }));
}

describe("an unknown tool call", () => {
  it("reports the tool, an error inside its argument and one after it — nothing about its result", async () => {
    const source = pkg(
      '(seq (bind r (call raed (path (add 1 "x")))) (get r anything) (add 2 "y") (call read (path "a")))',
    );
    const es = await errorsOf(source);
    expect(es.map((e) => [e.code, e.text])).toEqual([
      ["yao.unknown_name", "raed"],
      ["yao.type_mismatch", '"x"'],
      ["yao.type_mismatch", '"y"'],
    ]);
    expect(es[0]!.message).toBe("in fn 'f': unknown tool 'raed'");
  });

  it("the near miss: the same function with the tool spelt right has only the two other errors", async () => {
    const es = await errorsOf(pkg('(seq (bind r (call read (path (add 1 "x")))) (add 2 "y") r)'));
    expect(es.map((e) => [e.code, e.text])).toEqual([
      ["yao.type_mismatch", '"x"'],
      ["yao.type_mismatch", '"y"'],
    ]);
  });
});

describe("a map whose element name or collection fails", () => {
  it("a shadowing element name is reported, and the body's own error too, with no error from the element's uses", async () => {
    const es = await errorsOf(pkg('(seq (map (list 1 2) n (add n "z")) (add 3 "w"))', "(n Int)", "Int"));
    expect(es.map((e) => [e.code, e.text])).toEqual([
      ["yao.duplicate_name", "n"],
      ["yao.type_mismatch", '"z"'],
      ["yao.type_mismatch", '"w"'],
    ]);
  });

  it("a collection that is not a list is reported, and the body's own error too", async () => {
    const es = await errorsOf(pkg('(map 5 x (seq (add x 1) (add 1 "q")))', "", "(List Int)"));
    expect(es.map((e) => [e.code, e.text])).toEqual([
      ["yao.type_mismatch", "5"],
      ["yao.type_mismatch", '"q"'],
    ]);
  });

  it("an element name that is not a symbol is reported once; the rest of the function is still checked", async () => {
    const es = await errorsOf(pkg('(seq (map (list 1) "x" (add x 1)) (add 4 "v"))', "", "Int"));
    expect(es.map((e) => [e.code, e.text])).toEqual([
      ["yao.unknown_name", '"x"'],
      ["yao.type_mismatch", '"v"'],
    ]);
  });

  it("the near miss: a valid map adds no error", async () => {
    const es = await errorsOf(pkg('(seq (map (list 1 2) x (add x 1)) (add 3 "w"))', "", "Int"));
    expect(es.map((e) => [e.code, e.text])).toEqual([["yao.type_mismatch", '"w"']]);
  });
});

describe("a match on a failed value", () => {
  it("reports the value's error and each case body's own error, not the pattern bindings' uses", async () => {
    const es = await errorsOf(
      pkg(
        '(match (nope 1) ((case Shape.circle (r radius)) (add radius "a")) ((case Shape.square (side s)) (add s "b")))',
        "",
        "Int",
      ),
    );
    expect(es.map((e) => [e.code, e.text])).toEqual([
      ["yao.unknown_operator", "nope"],
      ["yao.type_mismatch", '"a"'],
      ["yao.type_mismatch", '"b"'],
    ]);
  });

  it("a value that is not a union is reported, and the case bodies are still checked", async () => {
    const es = await errorsOf(pkg('(match 5 ((case Shape.circle (r radius)) (add radius "c")))', "", "Int"));
    expect(es.map((e) => [e.code, e.text])).toEqual([
      ["yao.type_mismatch", "5"],
      ["yao.type_mismatch", '"c"'],
    ]);
  });

  it("the near miss: a match on a real Shape reports only the body errors", async () => {
    const es = await errorsOf(
      pkg(
        '(match (variant Shape.circle (r 1)) ((case Shape.circle (r radius)) (add radius "a")) ((case Shape.square (side s)) (add s "b")))',
        "",
        "Int",
      ),
    );
    expect(es.map((e) => [e.code, e.text])).toEqual([
      ["yao.type_mismatch", '"a"'],
      ["yao.type_mismatch", '"b"'],
    ]);
  });
});
