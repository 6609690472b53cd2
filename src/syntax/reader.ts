/**
 * The Yao reader: bytes or text → S-expression tree with spans, byte-compatible with the Morphz
 * reference reader (yao-v0.1.md §1) and hardened where it is weak (invalid UTF-8 and a BOM are
 * diagnostics; nesting is checked on the token stream, so no input can overflow the stack).
 */
import type { IToken } from "chevrotain";
import type { Diagnostic, Position } from "../diagnostics/diagnostic.js";
import { diagnostic, type YaoReaderCode } from "./codes.js";
import { YaoParser, type YaoTreeBuilder } from "../../grammar/yao.js";
import { positionOfByte, TextPositions } from "../diagnostics/text-positions.js";
import { IntColumn, releaseColumns, type Scanned, scanYao } from "./scanner.js";
import { ReadList, type SNode, SourceText } from "./tree.js";
import { decodeUtf8, utf8Length } from "./utf8.js";

export const DEFAULT_MAX_SOURCE_BYTES = 262_144;
export const DEFAULT_MAX_NESTING = 128;

export interface ReadOptions {
  /** File name recorded in every span (default `<input>`). */
  readonly file?: string;
  readonly maxBytes?: number;
  readonly maxNesting?: number;
}

export type ReadResult =
  | { readonly ok: true; readonly forms: SNode[]; readonly text: string }
  | { readonly ok: false; readonly diagnostic: Diagnostic; readonly text?: string };

export type ReadOneResult =
  | { readonly ok: true; readonly form: SNode; readonly text: string }
  | { readonly ok: false; readonly diagnostic: Diagnostic; readonly text?: string };

const ORIGIN: Position = { byte: 0, line: 1, column: 1 };
/**
 * The parser's actions for readAll, one object for every read (a builder of closures per read was
 * three closures and an object of garbage each time). `start` points it at a scan's columns.
 */
class TreeBuilder implements YaoTreeBuilder<SNode> {
  private source: SourceText;
  private columns: Pick<Scanned, "listFrom" | "listTo" | "listLength">;
  private nextList = 0;
  private nextOpen = 0;

  constructor(source: SourceText, columns: Pick<Scanned, "listFrom" | "listTo" | "listLength">) {
    this.source = source;
    this.columns = columns;
  }

  start(source: SourceText, columns: Pick<Scanned, "listFrom" | "listTo" | "listLength">): void {
    this.source = source;
    this.columns = columns;
    this.nextList = 0;
    this.nextOpen = 0;
  }

  /** The scanner's atom tokens are the atom nodes (scanner.ts). */
  atom(token: IToken): SNode {
    return token as unknown as SNode;
  }

  list(_open: IToken, items: SNode[]): SNode {
    const k = this.nextList++;
    return new ReadList(this.source, this.columns.listFrom.data[k]!, this.columns.listTo.data[k]!, items);
  }

  /**
   * Exactly as long as the list (the scanner counted its items), so no slot is wasted; cut from
   * `ITEMS` rather than made by `new Array(n)` (see there).
   */
  items(): SNode[] {
    const n = this.columns.listLength.data[this.nextOpen++]!;
    if (n > ITEMS.length && n <= MAX_ITEMS_TEMPLATE) ITEMS = Array.from({ length: n });
    return n <= ITEMS.length ? ITEMS.slice(0, n) : new Array<SNode>(n);
  }
}

/**
 * Every list's items array is a slice of this one, whose slots the parser then fills. An array
 * made by `new Array(n)` (or `[]`) at a call site carries that site's allocation memento, and V8
 * moves a site whose objects are mostly alive at minor collections to the old generation: a
 * check's items arrays live as long as its tree, so after a while they were allocated old, and an
 * old array holding young nodes keeps them through every minor collection until the next full one.
 * On the bench's 256 KiB package that switched some processes into promoting seven times as much
 * (issue 29, figure n: 3.5 instead of 0.5 MB per scavenge, a third slower). `slice` carries no
 * site. `undefined` in every slot (not holes), so each slice is a packed array of any value.
 */
let ITEMS: SNode[] = Array.from({ length: 64 });
const MAX_ITEMS_TEMPLATE = 1 << 16;

const NO_COLUMNS = { listFrom: new IntColumn(), listTo: new IntColumn(), listLength: new IntColumn() };
const NO_SOURCE = new SourceText("", "");
// Empty arrays of the element kinds the parser's arrays hold (objects), to park it on.
const NO_TOKENS: IToken[] = [{} as IToken].slice(1);
const NO_FORMS: SNode[] = [{} as SNode].slice(1);
/**
 * Shared by every read, like the parser. Between reads both keep the last read's tokens and tree
 * alive, and let go of them only when the next read starts: dropping them at the end of a read let
 * V8 collect the node classes' layouts at the next full collection and throw away the optimised
 * reader with them (`--trace-deopt`: "weak objects"; 4–9× slower reads after each full
 * collection). Held until the next read starts, one tree is the price.
 */
const treeBuilder = new TreeBuilder(NO_SOURCE, NO_COLUMNS);

/** Built on first read (grammar self-analysis is start-up cost a CLI run may not need). */
let parser: YaoParser<SNode> | undefined;

/**
 * The checks that come before lexing, shared by every reader of Yao text: the byte limit (on the
 * UTF-8 length, before decoding), strict UTF-8 decoding with the offset of a bad byte, no BOM.
 */
export function decodeSource(
  source: string | Uint8Array,
  options: ReadOptions = {},
): { readonly ok: true; readonly text: string } | (ReadResult & { readonly ok: false }) {
  const file = options.file ?? "<input>";
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_SOURCE_BYTES;
  const fail = (code: YaoReaderCode, message: string, start: Position, end: Position, text?: string) =>
    readFailure(file, code, message, start, end, text);

  let text: string;
  if (typeof source === "string") {
    const n = utf8Length(source);
    if (n > maxBytes)
      return fail("yao.source_limit", `source contains ${n} bytes; the limit is ${maxBytes}`, ORIGIN, ORIGIN);
    text = source;
  } else {
    if (source.length > maxBytes) {
      return fail(
        "yao.source_limit",
        `source contains ${source.length} bytes; the limit is ${maxBytes}`,
        ORIGIN,
        ORIGIN,
      );
    }
    const decoded = decodeUtf8(source);
    if (!decoded.ok) {
      const at = positionOfByte(source, decoded.byteOffset);
      const bad = source[decoded.byteOffset]!.toString(16).padStart(2, "0");
      const r = fail(
        "yao.invalid_utf8",
        `source is not valid UTF-8: byte 0x${bad} at offset ${decoded.byteOffset} does not start a valid sequence; save the file as UTF-8`,
        at,
        { byte: at.byte + 1, line: at.line, column: at.column + 1 },
      );
      return {
        ...r,
        diagnostic: {
          ...r.diagnostic,
          label: "not UTF-8 text",
          hint: `the file holds text in another encoding (such as Latin-1 or Windows-1252) or binary data at byte ${decoded.byteOffset}: ${utf8Problem(source[decoded.byteOffset]!)}; re-save the file as UTF-8`,
        },
      };
    }
    text = decoded.text;
  }
  if (text.charCodeAt(0) === 0xfeff) {
    return fail(
      "yao.bom",
      "source starts with a UTF-8 byte order mark (U+FEFF); Yao sources must not have one — remove it",
      ORIGIN,
      { byte: 3, line: 1, column: 2 },
      text,
    );
  }
  return { ok: true, text };
}

/** A failed read: the diagnostic, with the decoded text when there is one (for code frames). */
export function readFailure(
  file: string,
  code: YaoReaderCode,
  message: string,
  start: Position,
  end: Position,
  text?: string,
): ReadResult & { readonly ok: false } {
  return {
    ok: false,
    diagnostic: diagnostic(code, message, { file, span: { start, end }, ...teaching(code) }),
    ...(text === undefined ? {} : { text }),
  };
}

/**
 * The label under the caret and the help for each reader error. Messages keep the reference's
 * wording (the loader wraps them as "… is not valid typed Yao: UnclosedList at 3:1: …"); these
 * say in plain words what is wrong and what to change.
 */
function teaching(code: string): { label?: string; hint?: string } {
  switch (code) {
    case "yao.unclosed_list":
      return {
        label: "this list is never closed",
        hint: "add the missing ')': every '(' needs a matching ')' before the end of the file",
      };
    case "yao.unexpected_close":
      return { label: "no open list to close", hint: "remove this ')', or add the '(' it was meant to close" };
    case "yao.unterminated_string":
      return {
        label: "the string starts here and is never closed",
        hint: 'close it with a \'"\'; for text over several lines use a """…""" block string',
      };
    case "yao.invalid_escape":
      return { label: "unknown escape", hint: 'Yao strings know \\\\ \\" \\n \\r \\t; write \\\\ for a backslash' };
    case "yao.bom":
      return { label: "invisible byte order mark", hint: "save the file as UTF-8 without BOM" };
    case "yao.source_limit":
      return {
        hint: "a Yao source holds at most 262144 bytes (256 KiB, the source limit); split the package into functions/ files or move data out",
      };
    default:
      return {};
  }
}

/** What a byte that breaks UTF-8 decoding means, in words (the lead byte decides the length). */
function utf8Problem(byte: number): string {
  if (byte >= 0x80 && byte <= 0xbf) return "it continues a multi-byte character, but no character starts before it";
  if (byte === 0xc0 || byte === 0xc1 || byte >= 0xf5) return "this byte never occurs in UTF-8 text";
  const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
  return `it starts a ${length}-byte character, but the bytes after it do not complete one (or encode it in a way UTF-8 forbids)`;
}

/** The nesting limit's label and help: its value and the level the '(' opens (issue 34, item 5). */
export function nestingLimitNotes(limit: number): { label: string; hint: string } {
  return {
    label: `this '(' opens level ${limit + 1}, over the limit of ${limit}`,
    hint: `lists nest at most ${limit} levels deep (the nesting limit); name intermediate values with (bind NAME E) in a (seq …) instead of nesting them`,
  };
}

/** Read every top-level form (`parse_all`). */
export function readAll(source: string | Uint8Array, options: ReadOptions = {}): ReadResult {
  const file = options.file ?? "<input>";
  const decoded = decodeSource(source, options);
  if (!decoded.ok) return decoded;
  const { text } = decoded;
  const fail = (code: YaoReaderCode, message: string, start: Position, end: Position): ReadResult =>
    readFailure(file, code, message, start, end, text);

  // The shared parser and builder still hold the last read's tree (see treeBuilder): let go of it
  // before this read allocates, so that two trees are never alive at once.
  parser?.forget(NO_TOKENS, NO_FORMS);
  treeBuilder.start(NO_SOURCE, NO_COLUMNS);
  const sourceText = new SourceText(file, text);
  const scanned = scanYao(sourceText, options.maxNesting ?? DEFAULT_MAX_NESTING);
  if (!scanned.ok) {
    releaseColumns();
    // Only LF starts a line in Yao (a CR is a column), as the line index counts on success.
    const positions = new TextPositions(text, "lf");
    const failed = fail(
      scanned.code,
      scanned.message,
      positions.position(scanned.from),
      positions.position(scanned.to),
    );
    if (scanned.code !== "yao.nesting_limit" || failed.ok) return failed;
    return {
      ...failed,
      diagnostic: { ...failed.diagnostic, ...nestingLimitNotes(options.maxNesting ?? DEFAULT_MAX_NESTING) },
    };
  }

  // The scanner has checked the stream (balanced, depth within the limit), built every atom and
  // recorded every list's offsets; the Chevrotain parser gives the tree its shape through the
  // builder's actions, which fire in the order the scanner recorded them.
  const p = (parser ??= new YaoParser<SNode>());
  treeBuilder.start(sourceText, scanned);
  p.builder = treeBuilder;
  p.input = scanned.tokens;
  const forms = p.source();
  const errors = p.errors;
  releaseColumns();
  if (errors.length > 0) {
    // Unreachable: the scanner guarantees a balanced stream of known tokens.
    const e = errors[0]!;
    const positions = new TextPositions(text, "lf");
    const from = Number.isNaN(e.token.startOffset) ? 0 : e.token.startOffset;
    return fail("yao.invalid_character", e.message, positions.position(from), positions.position(from + 1));
  }
  return { ok: true, forms, text };
}

/** Read exactly one top-level form (`parse_one`). */
export function readOne(source: string | Uint8Array, options: ReadOptions = {}): ReadOneResult {
  return oneFormOf(readAll(source, options), options.file ?? "<input>");
}

/** A `parse_all` result narrowed by the `parse_one` rule. */
export function oneFormOf(all: ReadResult, file: string): ReadOneResult {
  if (!all.ok) return all;
  const one = exactlyOneForm(all.forms, file);
  return "diagnostic" in one
    ? { ok: false, diagnostic: one.diagnostic, text: all.text }
    : { ok: true, form: one.form, text: all.text };
}

/**
 * The `parse_one` rule on forms already read: none is `yao.empty_input` (empty span at 1:1), more
 * than one is `yao.multiple_top_level_forms` at the second form, relating the first.
 */
export function exactlyOneForm(
  forms: readonly SNode[],
  file: string,
): { readonly form: SNode } | { readonly diagnostic: Diagnostic } {
  if (forms.length === 1) return { form: forms[0]! };
  if (forms.length === 0) {
    return {
      diagnostic: diagnostic("yao.empty_input", "expected one top-level artifact", {
        file,
        span: { start: ORIGIN, end: ORIGIN },
        hint: "the file is empty (or holds only comments); write its one artifact",
      }),
    };
  }
  const [first, second] = forms;
  return {
    diagnostic: diagnostic("yao.multiple_top_level_forms", `expected one top-level artifact, found ${forms.length}`, {
      file,
      span: second!.span,
      label: "a second artifact",
      hint: "each file of a directory package holds exactly one artifact; move the others into their own files",
      related: [{ file, span: first!.span, message: "the first top-level artifact is here" }],
    }),
  };
}

/** The reference's display form of a reader diagnostic: `UnclosedList at 1:1: unclosed list`. */
export function referenceDisplay(d: Diagnostic): string {
  const bare = d.code.startsWith("yao.") ? d.code.slice(4) : d.code;
  const pascal = bare
    .split("_")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("");
  const at = d.span ? `${d.span.start.line}:${d.span.start.column}` : "1:1";
  return `${pascal} at ${at}: ${d.message}`;
}
