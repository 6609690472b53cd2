/**
 * A3S ACL: Chevrotain tokens and the strict parser for the canonical subset (grammar/acl.ebnf).
 *
 * The lexer follows the reference lexer's token rules (a3s-acl 0.2.2, reference §1.1) so that both
 * the strict parser and the reference emulation (src/a3s/acl/reference-emulation.ts) read the same tokens;
 * things the reference drops silently (stray characters) become `Junk` tokens, and trivia
 * (newlines, comments) goes to a token group. Strictness lives in src/a3s/acl/parse.ts and here.
 */
import {
  EmbeddedActionsParser,
  Lexer,
  createToken,
  type CustomPatternMatcherReturn,
  type IRecognitionException,
  type IToken,
  type TokenType,
} from "chevrotain";
import type { AclAttribute, AclBlock, AclLabel, AclRange, AclValue } from "./acl-ast.js";

/** What the string scanner learned about one quoted string. */
export interface StringPayload {
  readonly value: string;
  readonly terminated: boolean;
  /** A backslash followed by a raw newline (the reference keeps both and continues the string). */
  readonly continuedOverNewline: boolean;
  /** Escapes the reference keeps as two characters (`\q`, `\u0041`). */
  readonly unknownEscapes: readonly string[];
}

function matched(text: string, payload?: unknown): CustomPatternMatcherReturn {
  const r = [text] as CustomPatternMatcherReturn;
  if (payload !== undefined) r.payload = payload;
  return r;
}

function scanString(text: string, offset: number): CustomPatternMatcherReturn | null {
  const quote = text[offset];
  if (quote !== '"' && quote !== "'") return null;
  let i = offset + 1;
  let value = "";
  let terminated = false;
  let continuedOverNewline = false;
  const unknownEscapes: string[] = [];
  while (i < text.length) {
    const c = text[i]!;
    if (c === quote) {
      terminated = true;
      i++;
      break;
    }
    if (c === "\n") break;
    if (c === "\\" && i + 1 < text.length) {
      const n = text[i + 1]!;
      if (quote === '"') {
        const esc = n === "n" ? "\n" : n === "r" ? "\r" : n === "t" ? "\t" : n === "\\" || n === '"' ? n : null;
        if (esc !== null) {
          value += esc;
        } else {
          value += c + n;
          if (n === "\n") continuedOverNewline = true;
          else unknownEscapes.push(c + n);
        }
      } else if (n === "'") {
        value += "'";
      } else {
        // Single-quoted strings only know `\'`; everything else is literal, the newline included.
        value += c + n;
        if (n === "\n") continuedOverNewline = true;
      }
      i += 2;
      continue;
    }
    value += c;
    i++;
  }
  const payload: StringPayload = { value, terminated, continuedOverNewline, unknownEscapes };
  return matched(text.slice(offset, i), payload);
}

function scanNumber(text: string, offset: number): CustomPatternMatcherReturn | null {
  const first = text[offset];
  if (first === undefined || !(first === "-" || first === "." || (first >= "0" && first <= "9"))) return null;
  let i = offset;
  if (text[i] === "-") i++;
  let seenDot = false;
  let seenExp = false;
  while (i < text.length) {
    const c = text[i]!;
    if (c >= "0" && c <= "9") i++;
    else if (c === "." && !seenDot && !seenExp) {
      seenDot = true;
      i++;
    } else if ((c === "e" || c === "E") && !seenExp) {
      seenExp = true;
      i++;
      if (text[i] === "+" || text[i] === "-") i++;
    } else break;
  }
  return matched(text.slice(offset, i));
}

const IDENT_RE = /[\p{Alphabetic}_][\p{Alphabetic}\p{N}_]*/uy;

function scanWord(text: string, offset: number): string | null {
  IDENT_RE.lastIndex = offset;
  const m = IDENT_RE.exec(text);
  return m === null ? null : m[0];
}

function keyword(word: string) {
  return (text: string, offset: number): CustomPatternMatcherReturn | null =>
    scanWord(text, offset) === word ? matched(word) : null;
}

export const WhiteSpace = createToken({ name: "WhiteSpace", pattern: /[ \t]+/, group: Lexer.SKIPPED });
export const Newline = createToken({ name: "Newline", pattern: /\n|\r/, line_breaks: true, group: "trivia" });
export const Comment = createToken({ name: "Comment", pattern: /#[^\n]*|\/[^\n]*/, group: "trivia" });
export const PlusEquals = createToken({ name: "PlusEquals", pattern: /\+=/ });
export const LBrace = createToken({ name: "LBrace", pattern: /\{/ });
export const RBrace = createToken({ name: "RBrace", pattern: /\}/ });
export const LBracket = createToken({ name: "LBracket", pattern: /\[/ });
export const RBracket = createToken({ name: "RBracket", pattern: /\]/ });
export const LParen = createToken({ name: "LParen", pattern: /\(/ });
export const RParen = createToken({ name: "RParen", pattern: /\)/ });
export const Comma = createToken({ name: "Comma", pattern: /,/ });
export const Equals = createToken({ name: "Equals", pattern: /=/ });
export const Colon = createToken({ name: "Colon", pattern: /:/ });
export const StringLit = createToken({
  name: "StringLit",
  pattern: { exec: scanString },
  line_breaks: true,
  start_chars_hint: ['"', "'"],
});
export const NumberLit = createToken({
  name: "NumberLit",
  pattern: { exec: scanNumber },
  line_breaks: false,
  start_chars_hint: ["-", ".", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"],
});
export const True = createToken({
  name: "True",
  pattern: { exec: keyword("true") },
  line_breaks: false,
  start_chars_hint: ["t"],
});
export const False = createToken({
  name: "False",
  pattern: { exec: keyword("false") },
  line_breaks: false,
  start_chars_hint: ["f"],
});
export const Null = createToken({
  name: "Null",
  pattern: { exec: keyword("null") },
  line_breaks: false,
  start_chars_hint: ["n"],
});
/**
 * First-character hints keep Chevrotain's first-char optimisation on (without them every custom
 * token is tried at every offset, which made lexing ~1 MB/s). A hint must be a superset of the
 * possible first UTF-16 units: an identifier starts with an ASCII letter or `_`, or with some unit
 * at or above U+0080 (non-ASCII letters, including high surrogates of astral ones); Junk is anything.
 */
const IDENT_START_HINT: number[] = [95];
for (let c = 65; c <= 90; c++) IDENT_START_HINT.push(c, c + 32);
for (let c = 0x80; c <= 0xffff; c++) IDENT_START_HINT.push(c);
const ANY_UNIT_HINT: number[] = Array.from({ length: 0x10000 }, (_, c) => c);

export const Ident = createToken({
  name: "Ident",
  pattern: {
    exec: (text: string, offset: number) => {
      const w = scanWord(text, offset);
      return w === null ? null : matched(w);
    },
  },
  line_breaks: false,
  start_chars_hint: IDENT_START_HINT,
});
/** Any other single character (a code point): the reference drops it silently, we report it. */
export const Junk = createToken({
  name: "Junk",
  pattern: {
    exec: (text: string, offset: number) => {
      const cp = text.codePointAt(offset);
      if (cp === undefined) return null;
      return matched(String.fromCodePoint(cp));
    },
  },
  line_breaks: false,
  start_chars_hint: ANY_UNIT_HINT,
});

export const ALL_TOKENS: TokenType[] = [
  WhiteSpace,
  Newline,
  Comment,
  PlusEquals,
  LBrace,
  RBrace,
  LBracket,
  RBracket,
  LParen,
  RParen,
  Comma,
  Equals,
  Colon,
  StringLit,
  NumberLit,
  True,
  False,
  Null,
  Ident,
  Junk,
];

export const aclLexer = new Lexer(ALL_TOKENS, {
  positionTracking: "onlyOffset",
  ensureOptimizations: true,
  skipValidations: true,
});

export function tokenEnd(t: IToken): number {
  return t.startOffset + t.image.length;
}

export function stringPayload(t: IToken): StringPayload {
  return t.payload as StringPayload;
}

/** Parse the reference's way: `Number::from_str` failing yields 0. */
export function numberValue(text: string): number {
  const n = Number(text);
  return Number.isNaN(n) || text.trim() === "" ? 0 : n;
}

/** Something the strict parser objects to; src/a3s/acl/parse.ts turns these into diagnostics. */
export interface AclIssue {
  readonly code: "duplicate_attribute" | "unquoted_word" | "nested_block_in_object";
  readonly range: AclRange;
  readonly name: string;
  readonly related?: AclRange;
}

function range(t: IToken): AclRange {
  return { start: t.startOffset, end: tokenEnd(t) };
}

/**
 * The canonical subset as an LL(2) grammar. One instance; call `parseDocument` after setting
 * `input`. Errors stop at the first syntax error (`this.errors`), which acl.ts reports.
 */
class AclStrictParser extends EmbeddedActionsParser {
  issues: AclIssue[] = [];

  constructor() {
    super(ALL_TOKENS, { maxLookahead: 2, recoveryEnabled: false, nodeLocationTracking: "none" });
    this.performSelfAnalysis();
  }

  load(tokens: IToken[]): void {
    this.input = tokens;
    this.issues = [];
  }

  public parseDocument = this.RULE("parseDocument", (): AclBlock[] => {
    const blocks: AclBlock[] = [];
    this.MANY(() => {
      const name = this.CONSUME(Ident);
      const b = this.OR([
        {
          ALT: () => {
            const attr = this.SUBRULE(this.attributeTail, { ARGS: [name] });
            // A top-level `k = v` is a block `k` holding attribute `k` (reference §1.2).
            return this.ACTION(
              (): AclBlock => ({
                name: name.image,
                nameRange: range(name),
                labels: [],
                attributes: new Map([[attr.name, attr]]),
                blocks: [],
              }),
            );
          },
        },
        { ALT: () => this.SUBRULE(this.blockTail, { ARGS: [name] }) },
      ]);
      this.ACTION(() => blocks.push(b));
    });
    return blocks;
  });

  private attributeTail = this.RULE("attributeTail", (name: IToken): AclAttribute => {
    this.OR([{ ALT: () => this.CONSUME(Equals) }, { ALT: () => this.CONSUME(Colon) }]);
    const value = this.SUBRULE(this.value);
    return this.ACTION((): AclAttribute => ({ name: name.image, nameRange: range(name), value }));
  });

  private blockTail = this.RULE("blockTail", (name: IToken): AclBlock => {
    const labels: AclLabel[] = [];
    this.MANY(() => {
      const t = this.CONSUME(StringLit);
      this.ACTION(() => labels.push({ value: stringPayload(t).value, ...range(t) }));
    });
    this.CONSUME(LBrace);
    const attributes = new Map<string, AclAttribute>();
    const blocks: AclBlock[] = [];
    this.MANY2(() => {
      const inner = this.CONSUME2(Ident);
      this.OR([
        {
          ALT: () => {
            const attr = this.SUBRULE(this.attributeTail, { ARGS: [inner] });
            this.ACTION(() => this.addAttribute(attributes, attr));
          },
        },
        {
          ALT: () => {
            const b = this.SUBRULE(this.blockTail, { ARGS: [inner] });
            this.ACTION(() => blocks.push(b));
          },
        },
      ]);
    });
    this.CONSUME(RBrace);
    return this.ACTION((): AclBlock => ({ name: name.image, nameRange: range(name), labels, attributes, blocks }));
  });

  private addAttribute(attributes: Map<string, AclAttribute>, attr: AclAttribute): void {
    const earlier = attributes.get(attr.name);
    if (earlier !== undefined) {
      this.issues.push({
        code: "duplicate_attribute",
        range: attr.nameRange,
        name: attr.name,
        related: earlier.nameRange,
      });
      attributes.delete(attr.name);
    }
    attributes.set(attr.name, attr);
  }

  private value = this.RULE("value", (): AclValue => {
    return this.OR([
      {
        ALT: () => {
          const t = this.CONSUME(StringLit);
          return this.ACTION(
            (): AclValue => ({ kind: "string", value: stringPayload(t).value, bare: false, ...range(t) }),
          );
        },
      },
      {
        ALT: () => {
          const t = this.CONSUME(NumberLit);
          return this.ACTION(
            (): AclValue => ({ kind: "number", value: numberValue(t.image), text: t.image, ...range(t) }),
          );
        },
      },
      {
        ALT: () => {
          const t = this.CONSUME(True);
          return this.ACTION(() => this.literal(t, true));
        },
      },
      {
        ALT: () => {
          const t = this.CONSUME(False);
          return this.ACTION(() => this.literal(t, false));
        },
      },
      {
        ALT: () => {
          const t = this.CONSUME(Null);
          return this.ACTION((): AclValue => ({ kind: "null", ...range(t) }));
        },
      },
      { ALT: () => this.SUBRULE(this.list) },
      { ALT: () => this.SUBRULE(this.object) },
      { ALT: () => this.SUBRULE(this.wordOrCall) },
    ]);
  });

  private literal(t: IToken, value: boolean): AclValue {
    return { kind: "bool", value, ...range(t) };
  }

  private list = this.RULE("list", (): AclValue => {
    const open = this.CONSUME(LBracket);
    const items: AclValue[] = [];
    this.OPTION(() => {
      const first = this.SUBRULE(this.value);
      this.ACTION(() => items.push(first));
      this.MANY(() => {
        this.CONSUME(Comma);
        const next = this.SUBRULE2(this.value);
        this.ACTION(() => items.push(next));
      });
      this.OPTION2(() => this.CONSUME2(Comma));
    });
    const close = this.CONSUME(RBracket);
    return this.ACTION((): AclValue => ({ kind: "list", items, start: open.startOffset, end: tokenEnd(close) }));
  });

  private object = this.RULE("object", (): AclValue => {
    const open = this.CONSUME(LBrace);
    const attributes = new Map<string, AclAttribute>();
    this.MANY(() => {
      const name = this.CONSUME(Ident);
      const attr = this.SUBRULE(this.attributeTail, { ARGS: [name] });
      this.ACTION(() => this.addAttribute(attributes, attr));
      this.OPTION(() => this.CONSUME(Comma));
    });
    const close = this.CONSUME(RBrace);
    return this.ACTION(
      (): AclValue => ({
        kind: "object",
        entries: [...attributes.values()],
        start: open.startOffset,
        end: tokenEnd(close),
      }),
    );
  });

  private wordOrCall = this.RULE("wordOrCall", (): AclValue => {
    const name = this.CONSUME(Ident);
    return this.OR([
      {
        ALT: () => {
          this.CONSUME(LParen);
          const args: AclValue[] = [];
          this.OPTION(() => {
            const first = this.SUBRULE(this.value);
            this.ACTION(() => args.push(first));
            this.MANY(() => {
              this.CONSUME(Comma);
              const next = this.SUBRULE2(this.value);
              this.ACTION(() => args.push(next));
            });
          });
          const close = this.CONSUME(RParen);
          return this.ACTION(
            (): AclValue => ({ kind: "call", name: name.image, args, start: name.startOffset, end: tokenEnd(close) }),
          );
        },
      },
      {
        ALT: () => {
          // A bare word reads as the string of its text in the reference; strict mode reports it.
          this.ACTION(() => this.issues.push({ code: "unquoted_word", range: range(name), name: name.image }));
          return this.ACTION((): AclValue => ({ kind: "string", value: name.image, bare: true, ...range(name) }));
        },
      },
    ]);
  });
}

let instance: AclStrictParser | null = null;

export interface StrictParseResult {
  readonly blocks: AclBlock[] | null;
  readonly issues: readonly AclIssue[];
  readonly error: IRecognitionException | null;
}

/** Parse significant tokens (no trivia, no junk) with the one shared parser instance. */
export function parseStrict(tokens: IToken[]): StrictParseResult {
  instance ??= new AclStrictParser();
  const p = instance;
  p.load(tokens);
  const blocks = p.parseDocument();
  const error = p.errors[0] ?? null;
  return { blocks: error === null ? blocks : null, issues: [...p.issues], error };
}
