/** The reader against the Morphz reference's syntax cases (the same rules: test/syntax/reader.test.ts). */
import { expect, it } from "vitest";
import { readAll, readOne, referenceDisplay } from "../../src/syntax/reader.js";
import type { SNode } from "../../src/syntax/tree.js";
import { describeReference, referenceText } from "./reference.js";

const morphzText = (rel: string): string => referenceText("reference", "morphz-fixtures", rel);
const SYNTAX = "inline/yao/src/syntax.rs@fda7137/";

function one(source: string | Uint8Array): SNode {
  const r = readOne(source);
  if (!r.ok) throw new Error(referenceDisplay(r.diagnostic));
  return r.form;
}

function error(source: string | Uint8Array, options = {}) {
  const r = readAll(source, options);
  if (r.ok) throw new Error("expected a reader error");
  return r.diagnostic;
}

describeReference("reader: Morphz syntax cases", () => {
  it("counts columns in Unicode scalars and ends the root span at the source length", () => {
    const text = morphzText(`${SYNTAX}multibyte_spans.yao`);
    const root = one(text);
    if (root.kind !== "list") throw new Error("list expected");
    const seq = root.items[1];
    if (seq?.kind !== "list") throw new Error("list expected");
    const str = seq.items[1]!;
    expect(str).toMatchObject({ kind: "string", value: "爻文" });
    expect(str.span.start).toMatchObject({ line: 3, column: 8 });
    expect(root.span.end.byte).toBe(new TextEncoder().encode(text).length);
  });

  it("decodes exactly the five declared escapes", () => {
    expect(one(morphzText(`${SYNTAX}declared_escapes.yao`))).toMatchObject({
      kind: "string",
      value: 'a\\b"c\nd\re\tf',
    });
  });

  it.each([
    ["reject_unknown_escape.yao", "yao.invalid_escape", "unknown string escape '\\x'"],
    ["reject_unclosed_list.yao", "yao.unclosed_list", "unclosed list"],
    ["reject_unexpected_close.yao", "yao.unexpected_close", "unexpected closing parenthesis"],
  ])("%s → %s", (file, code, message) => {
    const d = error(morphzText(`${SYNTAX}${file}`));
    expect(d.code).toBe(code);
    expect(d.message).toBe(message);
  });

  it("parse_one rejects two forms, pointing at the second and relating the first", () => {
    const r = readOne(morphzText(`${SYNTAX}reject_multiple_top_level.yao`));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostic.code).toBe("yao.multiple_top_level_forms");
    expect(r.diagnostic.message).toBe("expected one top-level artifact, found 2");
    expect(r.diagnostic.span?.start.column).toBe(12);
    expect(r.diagnostic.related?.[0]?.span?.start.column).toBe(1);
  });

  it("nesting limit 2 rejects ((())) only when configured; the default accepts it", () => {
    const text = morphzText(`${SYNTAX}reject_nesting_limit_2.yao`);
    expect(readAll(text).ok).toBe(true);
    const d = error(text, { maxNesting: 2 });
    expect(d.code).toBe("yao.nesting_limit");
    expect(d.message).toBe("syntax nesting exceeds 2");
    expect(d.span?.start.column).toBe(3);
  });
});
