/**
 * The Yao reader's scanner: one hand-written pass over the text that emits the token stream the
 * Chevrotain parser in grammar/yao.ts consumes, and in the same pass
 * - tracks reference positions incrementally (UTF-8 byte offset, one-based line, column in Unicode
 *   scalars; only LF starts a line);
 * - decodes string escapes and builds every atom node and every list span, in source order;
 * - enforces the nesting limit with a counter (no recursion) and stops at the first structural
 *   error in source order, as the single-pass reference reader does.
 *
 * Allocation is what bounds a reader's speed (profiling showed GC dominating), so the token stream
 * holds one shared Chevrotain token object per token type (the parser only matches on
 * `tokenTypeIdx`); the per-token payload is the tree itself: `atoms` in source order (the parser's
 * atom actions fire in that order) and `lists`, the span of each list in the order its `)` appears
 * (the order the list actions fire). Token boundaries are exactly those of the Chevrotain Lexer in
 * grammar/yao.ts: test/properties/reader.test.ts checks the trees and errors of this reader against
 * a reader built on that Lexer. Errors are returned as UTF-16 offsets; the reader turns them into
 * positions (errors are rare, so they need no fast path).
 */
import type { IToken, TokenType } from "chevrotain";
import type { Position } from "../diagnostics/diagnostic.js";
import type { SAtom, SourceSpan } from "./tree.js";
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
  /** List spans in the order of their closing parentheses. */
  readonly lists: SourceSpan[];
}

export type ScanResult = Scanned | ({ readonly ok: false } & ScanError);

function isDelimiter(c: number): boolean {
  return c === 0x28 || c === 0x29 || c === 0x3b || c === 0x22 || isWhiteSpace(c);
}

export function scanYao(text: string, maxNesting: number, file: string): ScanResult {
  const n = text.length;
  const tokens: IToken[] = [];
  const atoms: SAtom[] = [];
  const lists: SourceSpan[] = [];
  // Start positions of the open lists (the stack is bounded by maxNesting).
  const opens: Position[] = [];
  // Position of index i, valid once every unit before i has been accounted for:
  //   byte = i + extra,  column = i - lineStart + 1 - pairs  (pairs: surrogate pairs on this line).
  let line = 1;
  let lineStart = 0;
  let extra = 0;
  let pairs = 0;
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
      opens.push({ byte: i + extra, line, column: i - lineStart + 1 - pairs });
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
      lists.push({ file, start: opens.pop()!, end: { byte: i + extra, line, column: i - lineStart + 1 - pairs } });
      tokens.push(CLOSE);
    } else if (c === 0x20 || (c >= 0x09 && c <= 0x0d && c !== 0x0a)) {
      i++;
    } else if (c === 0x0a) {
      i++;
      line++;
      lineStart = i;
      pairs = 0;
    } else if (c === 0x3b) {
      // Comment: up to (not including) LF.
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x0a) break;
        if (d >= 0x80) {
          const more = utf8ExtraAt(text, i, d);
          extra += more & 3;
          if (more & PAIR) {
            pairs++;
            i++;
          }
        }
        i++;
      }
    } else if (c === 0x22) {
      const start: Position = { byte: i + extra, line, column: i - lineStart + 1 - pairs };
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
        const value = text.slice(i + 3, close);
        i += 3;
        const stop = close + 3;
        while (i < stop) {
          const d = text.charCodeAt(i);
          if (d === 0x0a) {
            line++;
            lineStart = i + 1;
            pairs = 0;
          } else if (d >= 0x80) {
            const more = utf8ExtraAt(text, i, d);
            extra += more & 3;
            if (more & PAIR) {
              pairs++;
              i++;
            }
          }
          i++;
        }
        atoms.push({
          kind: "string",
          value,
          block: true,
          span: { file, start, end: { byte: i + extra, line, column: i - lineStart + 1 - pairs } },
        });
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
          value += text.slice(runStart, i);
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
        if (d >= 0x80) {
          const more = utf8ExtraAt(text, i, d);
          extra += more & 3;
          if (more & PAIR) {
            pairs++;
            i++;
          }
        }
        i++;
      }
      atoms.push({
        kind: "string",
        value,
        block: false,
        span: { file, start, end: { byte: i + extra, line, column: i - lineStart + 1 - pairs } },
      });
      tokens.push(STRING);
    } else if (c >= 0x80 && isWhiteSpace(c)) {
      // Non-ASCII White_Space (U+0085, U+2028, …): never starts a line; all are BMP, 2–3 bytes.
      extra += c < 0x800 ? 1 : 2;
      i++;
    } else {
      // Symbol: a run of anything but White_Space, ( ) ; ".
      const from = i;
      const start: Position = { byte: i + extra, line, column: i - lineStart + 1 - pairs };
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d < 0x80) {
          if (d === 0x28 || d === 0x29 || d === 0x3b || d === 0x22 || d === 0x20 || (d >= 0x09 && d <= 0x0d)) break;
        } else {
          if (isDelimiter(d)) break;
          const more = utf8ExtraAt(text, i, d);
          extra += more & 3;
          if (more & PAIR) {
            pairs++;
            i++;
          }
        }
        i++;
      }
      atoms.push({
        kind: "symbol",
        name: text.slice(from, i),
        span: { file, start, end: { byte: i + extra, line, column: i - lineStart + 1 - pairs } },
      });
      tokens.push(SYMBOL);
    }
  }
  if (depth > 0) return { ok: false, code: "yao.unclosed_list", message: "unclosed list", from: outermostOpen, to: n };
  return { ok: true, tokens, atoms, lists };
}

/** Flag in `utf8ExtraAt`'s result: the unit starts a surrogate pair (two units, one scalar). */
const PAIR = 4;

/**
 * UTF-8 bytes beyond one per UTF-16 unit for the non-ASCII unit `d` at `i`: 1 (U+0080–U+07FF) or
 * 2 (the rest of the BMP, lone surrogates as U+FFFD, and a surrogate pair: 4 bytes over 2 units,
 * flagged with PAIR so the caller also skips the low unit and counts one column for both).
 */
function utf8ExtraAt(text: string, i: number, d: number): number {
  if (d < 0x800) return 1;
  if (d >= 0xd800 && d <= 0xdbff && i + 1 < text.length && isLow(text.charCodeAt(i + 1))) return 2 | PAIR;
  return 2;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
