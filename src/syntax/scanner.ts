/**
 * The Yao reader's scanner: one hand-written pass over the text that emits the token stream the
 * Chevrotain parser in grammar/yao.ts consumes, and in the same pass
 * - decodes string escapes and builds every atom node, in source order;
 * - records the UTF-16 offsets of every list, in the order its `)` appears;
 * - enforces the nesting limit with a counter (no recursion) and stops at the first structural
 *   error in source order, as the single-pass reference reader does.
 *
 * Allocation is what bounds a reader's speed (profiling showed GC dominating), so nothing here
 * allocates per token beyond the atom node itself: the token stream holds one shared Chevrotain
 * token object for every `(` and one for every `)`, and each atom node as its own token (the parser
 * only matches on `tokenTypeIdx`, see below); atoms keep offsets only (line, column and UTF-8 byte
 * offset come from one line index, on demand: src/diagnostics/text-positions.ts), and each list's offsets
 * and item count sit in int32 columns reused from read to read (IntColumn). So the scanner tracks
 * no positions while it runs. Token boundaries are exactly those of the Chevrotain Lexer in grammar/yao.ts:
 * test/properties/reader.test.ts checks the trees and errors of this reader against a reader built
 * on that Lexer. Errors are returned as UTF-16 offsets; the reader turns them into positions
 * (errors are rare, so they need no fast path).
 */
import type { IToken, TokenType } from "chevrotain";
import { ReadString, ReadSymbol, type SAtom, type SourceText } from "./tree.js";
import type { YaoReaderCode } from "./codes.js";
import { isWhiteSpace, LParen, RParen, StringLiteral, Symbol as SymbolToken } from "../../grammar/yao.js";

function flyweight(tokenType: TokenType, image: string): IToken {
  return {
    image,
    startOffset: NaN,
    endOffset: NaN,
    startLine: NaN,
    endLine: NaN,
    startColumn: NaN,
    endColumn: NaN,
    tokenTypeIdx: tokenType.tokenTypeIdx!,
    tokenType,
  };
}

const OPEN = flyweight(LParen, "(");
const CLOSE = flyweight(RParen, ")");

// Each atom node is its own token: the parser reads nothing of a token but `tokenTypeIdx`
// (Chevrotain's matchers and lookahead compare that number only), so the two atom classes carry it
// on their prototypes — not as own fields, so a node's keys, spreads and JSON are unchanged — and
// the scanner pushes the node itself into the token stream. No second array of atoms, no second
// push per atom; the parser hands the consumed token back to the reader as the node.
for (const [cls, type] of [
  [ReadSymbol, SymbolToken],
  [ReadString, StringLiteral],
] as const)
  Object.defineProperty(cls.prototype, "tokenTypeIdx", { value: type.tokenTypeIdx, enumerable: false });

/** An atom node in the token stream (see above). */
function asToken(atom: SAtom): IToken {
  return atom as unknown as IToken;
}

export interface ScanError {
  readonly code: YaoReaderCode;
  readonly message: string;
  /** UTF-16 offsets of the error span. */
  readonly from: number;
  readonly to: number;
}

/**
 * A growable column of int32s that the scanner reuses from one scan to the next, so its per-list
 * bookkeeping allocates nothing once the columns have grown to the inputs seen (a scan's columns
 * are valid until the next scan; the reader consumes them before it returns). Columns grown past
 * `KEEP` entries are dropped after use (`releaseColumns`), so one huge input does not pin memory.
 */
export class IntColumn {
  data = new Int32Array(64);
  length = 0;

  push(v: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = v;
  }

  pop(): number {
    return this.data[--this.length]!;
  }

  private grow(): void {
    const bigger = new Int32Array(this.data.length * 2);
    bigger.set(this.data);
    this.data = bigger;
  }
}

const KEEP = 1 << 16;
const LIST_FROM = new IntColumn();
const LIST_TO = new IntColumn();
const LIST_LENGTH = new IntColumn();
const OPENS = new IntColumn();
const ENCLOSING = new IntColumn();
const COLUMNS = [LIST_FROM, LIST_TO, LIST_LENGTH, OPENS, ENCLOSING];

/** After a scan's columns are consumed: drop any grown past `KEEP` entries. */
export function releaseColumns(): void {
  for (const c of COLUMNS) {
    c.length = 0;
    if (c.data.length > KEEP) c.data = new Int32Array(64);
  }
}

export interface Scanned {
  readonly ok: true;
  /** The token stream: the shared `(` and `)` tokens and the atom nodes themselves (see above). */
  readonly tokens: IToken[];
  /** UTF-16 offsets of each list's `(` and just past its `)`, in the order of the `)`s. */
  readonly listFrom: IntColumn;
  readonly listTo: IntColumn;
  /** How many items each list holds, in the order of the `(`s. */
  readonly listLength: IntColumn;
}

export type ScanResult = Scanned | ({ readonly ok: false } & ScanError);

function isDelimiter(c: number): boolean {
  return c === 0x28 || c === 0x29 || c === 0x3b || c === 0x22 || isWhiteSpace(c);
}

/** The offset of the next `unit` at or after `from`, or the text's length when there is none. */
function nextOf(text: string, unit: string, from: number): number {
  const at = text.indexOf(unit, from);
  return at < 0 ? text.length : at;
}

/**
 * The token stream is written here, reused from scan to scan, and copied out at its exact length:
 * pushing one by one into a new array re-allocated and copied the stream as it grew (a third of
 * the scan on 200 KiB inputs), and a new array pre-sized from the text's length was ten times too
 * large for prose (a 256 KiB package of CJK descriptions holds one token per 32 units), a quarter
 * megabyte allocated per read. Emptied after each scan, so it never holds a tree alive; dropped
 * past MAX_KEPT_TOKENS so one huge input does not pin memory.
 */
let scratch: IToken[] = [];
const MAX_KEPT_TOKENS = 1 << 16;

export function scanYao(source: SourceText, maxNesting: number): ScanResult {
  const tokens = scratch;
  const r = scanInto(source, maxNesting, tokens);
  const written = r.ok ? r.count : r.written;
  const out: ScanResult = r.ok
    ? { ok: true, tokens: tokens.slice(0, written), listFrom: r.listFrom, listTo: r.listTo, listLength: r.listLength }
    : r.error;
  if (tokens.length > MAX_KEPT_TOKENS) scratch = [];
  else tokens.fill(OPEN, 0, written);
  return out;
}

type ScanInto =
  | (Omit<Scanned, "tokens"> & { readonly count: number })
  | { readonly ok: false; readonly error: ScanResult & { readonly ok: false }; readonly written: number };

/** A scan stopped at `e` after writing `written` tokens (a function of its own: a closure over the
 * count would move the scan's counter out of registers). */
function failed(written: number, e: ScanError): ScanInto {
  return { ok: false, error: { ok: false, ...e }, written };
}

function scanInto(source: SourceText, maxNesting: number, tokens: IToken[]): ScanInto {
  const text = source.text;
  const n = text.length;
  let count = 0;
  const listFrom = LIST_FROM;
  const listTo = LIST_TO;
  // Offsets of the open lists' `(` (the stack is bounded by maxNesting).
  const opens = OPENS;
  const listLength = LIST_LENGTH;
  // Index in listLength of the innermost open list (-1 at top level), and of the lists around it.
  let current = -1;
  const enclosing = ENCLOSING;
  for (const c of COLUMNS) c.length = 0;
  const counts = (): Int32Array => listLength.data;
  let depth = 0;
  let outermostOpen = -1;
  let i = 0;
  // Offsets of the next `"`, `\`, LF and CR at or after where a plain string's scan last looked
  // (see there).
  let nextQuote = -1;
  let nextBackslash = -1;
  let nextLf = -1;
  let nextCr = -1;

  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x28) {
      if (depth + 1 > maxNesting)
        return failed(count, {
          code: "yao.nesting_limit",
          message: `syntax nesting exceeds ${maxNesting}`,
          from: i,
          to: i + 1,
        });
      if (depth === 0) outermostOpen = i;
      depth++;
      opens.push(i);
      if (current >= 0) counts()[current]!++;
      enclosing.push(current);
      current = listLength.length;
      listLength.push(0);
      tokens[count++] = OPEN;
      i++;
    } else if (c === 0x29) {
      if (depth === 0)
        return failed(count, {
          code: "yao.unexpected_close",
          message: "unexpected closing parenthesis",
          from: i,
          to: i + 1,
        });
      depth--;
      i++;
      current = enclosing.pop();
      listFrom.push(opens.pop());
      listTo.push(i);
      tokens[count++] = CLOSE;
    } else if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) {
      i++;
    } else if (c === 0x3b) {
      // Comment: up to (not including) LF.
      const lf = text.indexOf("\n", i + 1);
      i = lf < 0 ? n : lf;
    } else if (c === 0x22) {
      const from = i;
      if (text.charCodeAt(i + 1) === 0x22 && text.charCodeAt(i + 2) === 0x22) {
        const close = text.indexOf('"""', i + 3);
        if (close < 0)
          return failed(count, {
            code: "yao.unterminated_string",
            message: "unterminated triple-quoted block string",
            from,
            to: n,
          });
        i = close + 3;
        tokens[count++] = asToken(new ReadString(source, from, i, text.slice(from + 3, close), true));
        if (current >= 0) counts()[current]!++;
        continue;
      }
      // Plain string: no raw LF/CR, five escapes.
      i++;
      let value = "";
      let runStart = i;
      for (;;) {
        // Every unit up to the next `"`, `\`, LF or CR is taken as it is: skip to that one, found by
        // the platform's search instead of a step per unit here (long CJK descriptions made those
        // steps most of the scan; issue 29, figure n). Each of the four is searched for again only
        // once the scan has passed where it was found, so the searches cover the text once in all.
        if (nextQuote < i) nextQuote = nextOf(text, '"', i);
        if (nextBackslash < i) nextBackslash = nextOf(text, "\\", i);
        if (nextLf < i) nextLf = nextOf(text, "\n", i);
        if (nextCr < i) nextCr = nextOf(text, "\r", i);
        i = Math.min(nextQuote, nextBackslash, nextLf, nextCr);
        if (i >= n)
          return failed(count, {
            code: "yao.unterminated_string",
            message: "unterminated string literal",
            from,
            to: n,
          });
        const d = text.charCodeAt(i);
        if (d === 0x22) {
          value = value === "" ? text.slice(runStart, i) : value + text.slice(runStart, i);
          i++;
          break;
        }
        if (d === 0x0a || d === 0x0d)
          return failed(count, {
            code: "yao.unterminated_string",
            message: "unescaped newline in string literal",
            from,
            to: i + 1,
          });
        if (d === 0x5c) {
          if (i + 1 >= n)
            return failed(count, {
              code: "yao.unterminated_string",
              message: "unterminated string after escape",
              from,
              to: n,
            });
          value += text.slice(runStart, i);
          const e = text.charCodeAt(i + 1);
          if (e === 0x5c) value += "\\";
          else if (e === 0x22) value += '"';
          else if (e === 0x6e) value += "\n";
          else if (e === 0x72) value += "\r";
          else if (e === 0x74) value += "\t";
          else {
            const ch = String.fromCodePoint(text.codePointAt(i + 1)!);
            return failed(count, {
              code: "yao.invalid_escape",
              message: `unknown string escape '\\${ch}'`,
              from: i,
              to: i + 1 + ch.length,
            });
          }
          i += 2;
          runStart = i;
        }
      }
      tokens[count++] = asToken(new ReadString(source, from, i, value, false));
      if (current >= 0) counts()[current]!++;
    } else if (c >= 0x80 && isWhiteSpace(c)) {
      // Non-ASCII White_Space (U+0085, U+2028, …): never starts a line.
      i++;
    } else {
      // Symbol: a run of anything but White_Space, ( ) ; ". Every delimiter is a BMP unit that is
      // not a surrogate, so a unit-by-unit scan never splits a pair.
      const from = i;
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d < 0x80) {
          if (d === 0x28 || d === 0x29 || d === 0x3b || d === 0x22 || d === 0x20 || (d >= 0x09 && d <= 0x0d)) break;
        } else if (isDelimiter(d)) break;
        i++;
      }
      tokens[count++] = asToken(new ReadSymbol(source, from, i, text.slice(from, i)));
      if (current >= 0) counts()[current]!++;
    }
  }
  if (depth > 0)
    return failed(count, { code: "yao.unclosed_list", message: "unclosed list", from: outermostOpen, to: n });
  return { ok: true, count, listFrom, listTo, listLength };
}
