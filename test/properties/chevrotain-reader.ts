/**
 * The Yao reader: bytes or text → S-expression tree with spans, byte-compatible with the Morphz
 * reference reader (yao-v0.1.md §1) and hardened where it is weak (invalid UTF-8 and a BOM are
 * diagnostics; nesting is checked on the token stream, so no input can overflow the stack).
 */
import type { IToken } from "chevrotain";
import type { Diagnostic, Position } from "../../src/diagnostics/diagnostic.js";
import {
  LParen,
  RParen,
  StringLiteral,
  YaoParser,
  yaoChevrotainLexer,
  type YaoTreeBuilder,
} from "../../grammar/yao.js";
import type { SNode, SourceSpan } from "../../src/syntax/tree.js";
import {
  decodeSource,
  DEFAULT_MAX_NESTING,
  oneFormOf,
  nestingLimitNotes,
  readFailure,
  type ReadOneResult,
  type ReadOptions,
  type ReadResult,
} from "../../src/syntax/reader.js";
import type { YaoReaderCode } from "../../src/syntax/codes.js";

// The decoding checks that precede lexing are shared with the real reader; this oracle re-checks only
// what the hand-written scanner replaced: tokenizing, positions, string decoding and structure.
const ORIGIN: Position = { byte: 0, line: 1, column: 1 };
const parser = new YaoParser<SNode>();
/** The reader as it was before the hand-written scanner (Chevrotain Lexer + position pass): the oracle the scanner is checked against. */
export const ORACLE = true;

/** Read every top-level form (`parse_all`). */
export function readAll(source: string | Uint8Array, options: ReadOptions = {}): ReadResult {
  const file = options.file ?? "<input>";
  const fail = (code: YaoReaderCode, message: string, start: Position, end: Position, text?: string): ReadResult =>
    readFailure(file, code, message, start, end, text);

  const decoded = decodeSource(source, options);
  if (!decoded.ok) return decoded;
  const { text } = decoded;

  const lexed = yaoChevrotainLexer().tokenize(text);
  const tokens = lexed.tokens;
  if (lexed.errors.length > 0) {
    // Unreachable by construction (every character lexes); kept so a regression is a diagnostic.
    const e = lexed.errors[0]!;
    const cursor = new PositionCursor(text);
    const at = cursor.at(e.offset);
    return fail(
      "yao.invalid_character",
      `invalid character at offset ${e.offset}`,
      at,
      cursor.at(e.offset + e.length),
      text,
    );
  }

  // One linear pass in source order: positions, string decoding and structural errors, so the
  // first error is the one the single-pass reference reports.
  const cursor = new PositionCursor(text);
  const starts: Position[] = new Array(tokens.length);
  const ends: Position[] = new Array(tokens.length);
  const values: string[] = new Array(tokens.length);
  const maxNesting = options.maxNesting ?? DEFAULT_MAX_NESTING;
  // Token index by start offset: the builder maps tokens back to their positions without adding a
  // property to every token object (which would reallocate each token's property store).
  const indexAt = new Int32Array(text.length + 1);
  let depth = 0;
  let outermostOpen = -1;
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!;
    indexAt[tok.startOffset] = i;
    const start = cursor.at(tok.startOffset);
    starts[i] = start;
    const type = tok.tokenType;
    if (type === LParen) {
      if (depth + 1 > maxNesting) {
        const failed = fail(
          "yao.nesting_limit",
          `syntax nesting exceeds ${maxNesting}`,
          start,
          cursor.at(tok.startOffset + 1),
          text,
        );
        // The notes are the reader's own (the scanner is what this oracle checks, not the wording).
        return failed.ok
          ? failed
          : { ...failed, diagnostic: { ...failed.diagnostic, ...nestingLimitNotes(maxNesting) } };
      }
      if (depth === 0) outermostOpen = i;
      depth++;
    } else if (type === RParen) {
      if (depth === 0) {
        return fail(
          "yao.unexpected_close",
          "unexpected closing parenthesis",
          start,
          cursor.at(tok.startOffset + 1),
          text,
        );
      }
      depth--;
    } else if (type === StringLiteral) {
      const decoded = decodeString(tok.image);
      if (typeof decoded !== "string") {
        if (decoded.code === "yao.invalid_escape") {
          const from = cursor.at(tok.startOffset + decoded.from);
          return fail(decoded.code, decoded.message, from, cursor.at(tok.startOffset + decoded.to), text);
        }
        return fail(decoded.code, decoded.message, start, cursor.at(tok.startOffset + tok.image.length), text);
      }
      values[i] = decoded;
    }
    ends[i] = cursor.at(tok.startOffset + tok.image.length);
  }
  if (depth > 0) {
    return fail("yao.unclosed_list", "unclosed list", starts[outermostOpen]!, cursor.at(text.length), text);
  }

  const builder: YaoTreeBuilder<SNode> = {
    atom(token: IToken): SNode {
      const i = indexAt[token.startOffset]!;
      const span: SourceSpan = { file, start: starts[i]!, end: ends[i]! };
      if (token.tokenType === StringLiteral) {
        return { kind: "string", value: values[i]!, block: token.image.startsWith('"""'), span };
      }
      return { kind: "symbol", name: token.image, span };
    },
    list(open: IToken, items: SNode[], close: IToken): SNode {
      const span: SourceSpan = {
        file,
        start: starts[indexAt[open.startOffset]!]!,
        end: ends[indexAt[close.startOffset]!]!,
      };
      return { kind: "list", items, span };
    },
  };
  parser.builder = builder;
  parser.input = tokens;
  const forms = parser.source();
  if (parser.errors.length > 0) {
    // Unreachable: the pass above guarantees a balanced stream of known tokens.
    const e = parser.errors[0]!;
    const i = Number.isNaN(e.token.startOffset) ? 0 : indexAt[e.token.startOffset]!;
    return fail("yao.invalid_character", e.message, starts[i] ?? ORIGIN, ends[i] ?? ORIGIN, text);
  }
  return { ok: true, forms, text };
}

/** Read exactly one top-level form (`parse_one`), with the shared rule. */
export function readOne(source: string | Uint8Array, options: ReadOptions = {}): ReadOneResult {
  return oneFormOf(readAll(source, options), options.file ?? "<input>");
}

type StringError = { code: YaoReaderCode; message: string; from: number; to: number };

/** Decode a string token image (quotes included) or say which reference error it is. */
function decodeString(image: string): string | StringError {
  if (image.startsWith('"""')) {
    if (image.length < 6 || !image.endsWith('"""')) {
      return {
        code: "yao.unterminated_string",
        message: "unterminated triple-quoted block string",
        from: 0,
        to: image.length,
      };
    }
    return image.slice(3, -3);
  }
  let out = "";
  let runStart = 1;
  for (let i = 1; i < image.length; i++) {
    const c = image.charCodeAt(i);
    if (c === 0x22) return out + image.slice(runStart, i);
    if (c === 0x0a || c === 0x0d) {
      return { code: "yao.unterminated_string", message: "unescaped newline in string literal", from: 0, to: i + 1 };
    }
    if (c === 0x5c) {
      out += image.slice(runStart, i);
      if (i + 1 >= image.length) {
        return {
          code: "yao.unterminated_string",
          message: "unterminated string after escape",
          from: 0,
          to: image.length,
        };
      }
      const e = image.charCodeAt(i + 1);
      if (e === 0x5c) out += "\\";
      else if (e === 0x22) out += '"';
      else if (e === 0x6e) out += "\n";
      else if (e === 0x72) out += "\r";
      else if (e === 0x74) out += "\t";
      else {
        const ch = String.fromCodePoint(image.codePointAt(i + 1)!);
        return {
          code: "yao.invalid_escape",
          message: `unknown string escape '\\${ch}'`,
          from: i,
          to: i + 1 + ch.length,
        };
      }
      i++;
      runStart = i + 1;
    }
  }
  return { code: "yao.unterminated_string", message: "unterminated string literal", from: 0, to: image.length };
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

/**
 * The oracle's own position computation, independent of src/diagnostics/text-positions.ts (which
 * the reader uses for error spans): increasing UTF-16 offsets to reference positions in one linear
 * pass; byte = UTF-8 offset, one-based line and column in Unicode scalars, only LF starts a line.
 */
class PositionCursor {
  private index = 0;
  private byte = 0;
  private line = 1;
  private column = 1;

  constructor(private readonly text: string) {}

  /** Position of UTF-16 offset `target`; targets must not decrease between calls. */
  at(target: number): Position {
    const text = this.text;
    let { index, byte, line, column } = this;
    while (index < target) {
      const c = text.charCodeAt(index);
      if (c === 0x0a) {
        line++;
        column = 1;
        byte++;
      } else if (c < 0x80) {
        column++;
        byte++;
      } else if (c < 0x800) {
        column++;
        byte += 2;
      } else if (c >= 0xd800 && c <= 0xdbff && index + 1 < text.length) {
        const d = text.charCodeAt(index + 1);
        column++;
        if (d >= 0xdc00 && d <= 0xdfff) {
          byte += 4;
          index++;
        } else byte += 3;
      } else {
        column++;
        byte += 3;
      }
      index++;
    }
    this.index = index;
    this.byte = byte;
    this.line = line;
    this.column = column;
    return { byte, line, column };
  }
}
