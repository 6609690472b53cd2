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
 * token object per token type (the parser only matches on `tokenTypeIdx`); atoms keep offsets
 * only (line, column and UTF-8 byte offset come from one line index, on demand: src/syntax/
 * line-index.ts), and list offsets sit in two flat arrays. So the scanner tracks no positions
 * while it runs. Token boundaries are exactly those of the Chevrotain Lexer in grammar/yao.ts:
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
const STRING = flyweight(StringLiteral, '"');
const SYMBOL = flyweight(SymbolToken, "symbol");

export interface ScanError {
  readonly code: YaoReaderCode;
  readonly message: string;
  /** UTF-16 offsets of the error span. */
  readonly from: number;
  readonly to: number;
}

export interface Scanned {
  readonly ok: true;
  readonly tokens: IToken[];
  /** Atom nodes in source order. */
  readonly atoms: SAtom[];
  /** UTF-16 offsets of each list's `(` and just past its `)`, in the order of the `)`s. */
  readonly listFrom: number[];
  readonly listTo: number[];
  /** How many items each list holds, in the order of the `(`s. */
  readonly listLength: number[];
}

export type ScanResult = Scanned | ({ readonly ok: false } & ScanError);

function isDelimiter(c: number): boolean {
  return c === 0x28 || c === 0x29 || c === 0x3b || c === 0x22 || isWhiteSpace(c);
}

export function scanYao(source: SourceText, maxNesting: number): ScanResult {
  const text = source.text;
  const n = text.length;
  const tokens: IToken[] = [];
  const atoms: SAtom[] = [];
  const listFrom: number[] = [];
  const listTo: number[] = [];
  // Offsets of the open lists' `(` (the stack is bounded by maxNesting).
  const opens: number[] = [];
  const listLength: number[] = [];
  // Index in listLength of the innermost open list (-1 at top level), and of the lists around it.
  let current = -1;
  const enclosing: number[] = [];
  let depth = 0;
  let outermostOpen = -1;
  let i = 0;

  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x28) {
      if (depth + 1 > maxNesting)
        return {
          ok: false,
          code: "yao.nesting_limit",
          message: `syntax nesting exceeds ${maxNesting}`,
          from: i,
          to: i + 1,
        };
      if (depth === 0) outermostOpen = i;
      depth++;
      opens.push(i);
      if (current >= 0) listLength[current]!++;
      enclosing.push(current);
      current = listLength.length;
      listLength.push(0);
      tokens.push(OPEN);
      i++;
    } else if (c === 0x29) {
      if (depth === 0)
        return {
          ok: false,
          code: "yao.unexpected_close",
          message: "unexpected closing parenthesis",
          from: i,
          to: i + 1,
        };
      depth--;
      i++;
      current = enclosing.pop()!;
      listFrom.push(opens.pop()!);
      listTo.push(i);
      tokens.push(CLOSE);
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
          return {
            ok: false,
            code: "yao.unterminated_string",
            message: "unterminated triple-quoted block string",
            from,
            to: n,
          };
        i = close + 3;
        atoms.push(new ReadString(source, from, i, text.slice(from + 3, close), true));
        if (current >= 0) listLength[current]!++;
        tokens.push(STRING);
        continue;
      }
      // Plain string: no raw LF/CR, five escapes.
      i++;
      let value = "";
      let runStart = i;
      for (;;) {
        if (i >= n)
          return { ok: false, code: "yao.unterminated_string", message: "unterminated string literal", from, to: n };
        const d = text.charCodeAt(i);
        if (d === 0x22) {
          value = value === "" ? text.slice(runStart, i) : value + text.slice(runStart, i);
          i++;
          break;
        }
        if (d === 0x0a || d === 0x0d)
          return {
            ok: false,
            code: "yao.unterminated_string",
            message: "unescaped newline in string literal",
            from,
            to: i + 1,
          };
        if (d === 0x5c) {
          if (i + 1 >= n)
            return {
              ok: false,
              code: "yao.unterminated_string",
              message: "unterminated string after escape",
              from,
              to: n,
            };
          value += text.slice(runStart, i);
          const e = text.charCodeAt(i + 1);
          if (e === 0x5c) value += "\\";
          else if (e === 0x22) value += '"';
          else if (e === 0x6e) value += "\n";
          else if (e === 0x72) value += "\r";
          else if (e === 0x74) value += "\t";
          else {
            const ch = String.fromCodePoint(text.codePointAt(i + 1)!);
            return {
              ok: false,
              code: "yao.invalid_escape",
              message: `unknown string escape '\\${ch}'`,
              from: i,
              to: i + 1 + ch.length,
            };
          }
          i += 2;
          runStart = i;
          continue;
        }
        i++;
      }
      atoms.push(new ReadString(source, from, i, value, false));
      if (current >= 0) listLength[current]!++;
      tokens.push(STRING);
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
      atoms.push(new ReadSymbol(source, from, i, text.slice(from, i)));
      if (current >= 0) listLength[current]!++;
      tokens.push(SYMBOL);
    }
  }
  if (depth > 0) return { ok: false, code: "yao.unclosed_list", message: "unclosed list", from: outermostOpen, to: n };
  return { ok: true, tokens, atoms, listFrom, listTo, listLength };
}
