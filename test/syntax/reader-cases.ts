/**
 * The reader's syntax cases as one table, run over both sources (issue 33 item 5): our fixtures
 * (fixtures/yao/reader, test/syntax/reader.test.ts) and the Morphz reference's syntax.rs cases
 * (test/reference/yao-reader.test.ts, skipped with a reason without the reference). A row is one
 * rule: the file each source spells it in and what differs between them (ours use other names,
 * characters and spacing, so the two cannot be copies of each other); the check is written once.
 */
import { expect, it } from "vitest";
import { readAll, readOne, referenceDisplay } from "../../src/syntax/reader.js";
import type { SNode } from "../../src/syntax/tree.js";

export type ReaderSource = "own" | "reference";

interface Spelling {
  /** multibyte spans: the file, the string on line 3, its column, and the column of the symbol after it (ours only). */
  readonly multibyte: { file: string; value: string; column: number; next?: number };
  readonly escapes: { file: string; value: string };
  readonly unknownEscape: { file: string; message: string };
  readonly unclosed: string;
  readonly unexpectedClose: string;
  /** Two top-level forms: the file and the column of the second. */
  readonly twoForms: { file: string; column: number };
  /** Three nested lists, refused under maxNesting 2 at column 3. */
  readonly nesting3: string;
}

const SPELLING: Readonly<Record<ReaderSource, Spelling>> = {
  own: {
    multibyte: { file: "multibyte-spans.yao", value: "語句", column: 9, next: 14 },
    escapes: { file: "declared-escapes.yao", value: 'x\\y"z\nw\rv\tu' },
    unknownEscape: { file: "reject-unknown-escape.yao", message: "unknown string escape '\\q'" },
    unclosed: "reject-unclosed-list.yao",
    unexpectedClose: "reject-unexpected-close.yao",
    twoForms: { file: "reject-two-forms.yao", column: 11 },
    nesting3: "nesting-3.yao",
  },
  reference: {
    multibyte: { file: "multibyte_spans.yao", value: "爻文", column: 8 },
    escapes: { file: "declared_escapes.yao", value: 'a\\b"c\nd\re\tf' },
    unknownEscape: { file: "reject_unknown_escape.yao", message: "unknown string escape '\\x'" },
    unclosed: "reject_unclosed_list.yao",
    unexpectedClose: "reject_unexpected_close.yao",
    twoForms: { file: "reject_multiple_top_level.yao", column: 12 },
    nesting3: "reject_nesting_limit_2.yao",
  },
};

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

/** The cases on one source; `text` reads a file of that source. */
export function readerCasesOn(source: ReaderSource, text: (file: string) => string): void {
  const s = SPELLING[source];

  it("counts columns in Unicode scalars and ends the root span at the source length", () => {
    const t = text(s.multibyte.file);
    const root = one(t);
    if (root.kind !== "list") throw new Error("list expected");
    const list = root.items[1];
    if (list?.kind !== "list") throw new Error("list expected");
    const str = list.items[1]!;
    expect(str).toMatchObject({ kind: "string", value: s.multibyte.value });
    // The wide comment on line 2 does not shift line 3.
    expect(str.span.start).toMatchObject({ line: 3, column: s.multibyte.column });
    if (s.multibyte.next !== undefined)
      expect(list.items[2]!.span.start).toMatchObject({ line: 3, column: s.multibyte.next });
    // The root form ends at the closing parenthesis, before any final newline.
    expect(root.span.end.byte).toBe(new TextEncoder().encode(t.trimEnd()).length);
  });

  it("decodes exactly the five declared escapes", () => {
    expect(one(text(s.escapes.file))).toMatchObject({ kind: "string", value: s.escapes.value });
  });

  it.each([
    [s.unknownEscape.file, "yao.invalid_escape", s.unknownEscape.message],
    [s.unclosed, "yao.unclosed_list", "unclosed list"],
    [s.unexpectedClose, "yao.unexpected_close", "unexpected closing parenthesis"],
  ])("%s → %s", (file, code, message) => {
    const d = error(text(file));
    expect(d.code).toBe(code);
    expect(d.message).toBe(message);
  });

  it("parse_one rejects two forms, pointing at the second and relating the first", () => {
    const r = readOne(text(s.twoForms.file));
    if (r.ok) throw new Error("expected two forms to be refused");
    expect(r.diagnostic.code).toBe("yao.multiple_top_level_forms");
    expect(r.diagnostic.message).toBe("expected one top-level artifact, found 2");
    expect(r.diagnostic.span?.start.column).toBe(s.twoForms.column);
    expect(r.diagnostic.related?.[0]?.span?.start.column).toBe(1);
  });

  it("nesting limit 2 rejects three nested lists only when configured; the default accepts them", () => {
    const t = text(s.nesting3);
    expect(readAll(t).ok).toBe(true);
    const d = error(t, { maxNesting: 2 });
    expect(d.code).toBe("yao.nesting_limit");
    expect(d.message).toBe("syntax nesting exceeds 2");
    expect(d.span?.start.column).toBe(3);
  });
}
