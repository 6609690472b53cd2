/**
 * Yao's syntax as Chevrotain token and parser definitions.
 *
 * The grammar is tiny (lists of atoms); what matters is fidelity to the reference lexer:
 * - whitespace is exactly the Unicode White_Space property (not JS `\s`, which adds U+FEFF and
 *   misses U+0085), listed as a positive class so Chevrotain's first-char optimisation stays on;
 * - a symbol is any run of characters other than White_Space, `(`, `)`, `;` and `"`;
 * - a string token runs from its opening quote to its end *or to where the reference lexer would
 *   stop with an error*; src/syntax/reader.ts decodes it and reports the error, so that every
 *   input lexes and reader errors come out in source order, as the single-pass reference does.
 *
 * The reader's hot path does not run the Chevrotain Lexer: src/syntax/scanner.ts is a hand-written
 * single-pass scanner that emits tokens of these token types (Chevrotain-compatible `IToken`s, with
 * positions and decoded values attached), which this file's parser consumes. The Chevrotain Lexer
 * below is the executable specification the scanner is cross-checked against in tests; it is built
 * on first use only (its symbol start-character table has ~65k entries, too costly at start-up).
 */
import { createToken, EmbeddedActionsParser, Lexer, type IToken, type TokenType } from "chevrotain";

/** The Unicode White_Space property, exactly (UCD PropList.txt). */
export const WHITE_SPACE_CLASS = "\\t-\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";

export function isWhiteSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0x85) return false;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

function isDelimiter(c: number): boolean {
  return c === 0x28 || c === 0x29 || c === 0x3b || c === 0x22 || isWhiteSpace(c);
}

/** A symbol runs until White_Space, `(`, `)`, `;` or `"`. */
function matchSymbol(text: string, offset: number): RegExpExecArray | null {
  let end = offset;
  while (end < text.length && !isDelimiter(text.charCodeAt(end))) end++;
  if (end === offset) return null;
  return [text.slice(offset, end)] as unknown as RegExpExecArray;
}

/**
 * A string token: `"""…"""` (raw, closes at the first following `"""`) or `"…"`. An unterminated
 * string stops where the reference lexer reports it: at end of input, or just after a raw LF/CR.
 */
function matchString(text: string, offset: number): RegExpExecArray | null {
  if (text.charCodeAt(offset) !== 0x22) return null;
  let end: number;
  if (text.startsWith('"""', offset)) {
    const close = text.indexOf('"""', offset + 3);
    end = close < 0 ? text.length : close + 3;
  } else {
    end = text.length;
    for (let i = offset + 1; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22 || c === 0x0a || c === 0x0d) {
        end = i + 1;
        break;
      }
      if (c === 0x5c) i++; // the escaped character is part of the string, whatever it is
    }
    if (end > text.length) end = text.length;
  }
  return [text.slice(offset, end)] as unknown as RegExpExecArray;
}

export const WhiteSpace = createToken({
  name: "WhiteSpace",
  pattern: new RegExp(`[${WHITE_SPACE_CLASS}]+`),
  group: Lexer.SKIPPED,
});
export const Comment = createToken({ name: "Comment", pattern: /;[^\n]*/, group: Lexer.SKIPPED });
export const LParen = createToken({ name: "LParen", pattern: "(" });
export const RParen = createToken({ name: "RParen", pattern: ")" });
/** Either atom token: the parser takes strings and symbols alike (the builder tells them apart). */
export const Atom = createToken({ name: "Atom", pattern: Lexer.NA });
export const StringLiteral = createToken({
  name: "StringLiteral",
  pattern: { exec: matchString },
  start_chars_hint: ['"'],
  line_breaks: true,
  categories: [Atom],
});
export const Symbol = createToken({
  name: "Symbol",
  pattern: { exec: matchSymbol },
  line_breaks: false,
  categories: [Atom],
});

export const yaoTokens: TokenType[] = [WhiteSpace, Comment, LParen, RParen, StringLiteral, Symbol, Atom];

let lexer: Lexer | undefined;

/** The Chevrotain Lexer for Yao (the specification the hand-written scanner is checked against). */
export function yaoChevrotainLexer(): Lexer {
  if (lexer === undefined) {
    // First-character optimisation needs every symbol start character listed; computed here, on
    // first use, rather than at import.
    const symbolStartChars: number[] = [];
    for (let c = 0; c <= 0xffff; c++) if (!isDelimiter(c)) symbolStartChars.push(c);
    (Symbol as { START_CHARS_HINT?: number[] }).START_CHARS_HINT = symbolStartChars;
    lexer = new Lexer(yaoTokens, { positionTracking: "onlyOffset", ensureOptimizations: true, skipValidations: true });
  }
  return lexer;
}

/** Callbacks the parser's embedded actions use to build nodes; the reader supplies them. */
export interface YaoTreeBuilder<N> {
  atom(token: IToken): N;
  list(open: IToken, items: N[], close: IToken): N;
  /**
   * The array a list's items go into, asked for when the list opens (lists in the order of their
   * `(`); the parser fills it by index from 0. A builder that knows each list's length hands out
   * arrays of exactly that length rather than letting push over-allocate (17 slots at the first).
   */
  items?(): N[];
}

/**
 * source = { form } ;  form = list | atom ;  list = "(" { atom } { list { atom } } ")" ;
 * atom = STRING | SYMBOL (the token category Atom).
 * The list rule is `"(" { form } ")"` written so that the parser decides between a list and an
 * atom once per run rather than once per item: an atom costs one repetition and one CONSUME, no
 * OR (profiling showed Chevrotain's per-item OR a large share of the reader's time). Only ever
 * run on token streams the scanner has already checked (balanced, depth ≤ the limit), so
 * recursion here is bounded by the nesting limit.
 */
export class YaoParser<N> extends EmbeddedActionsParser {
  builder!: YaoTreeBuilder<N>;

  constructor() {
    super(yaoTokens, { maxLookahead: 1, skipValidations: true, recoveryEnabled: false });
    this.performSelfAnalysis();
  }

  // Chevrotain re-evaluates an alternatives array on every call; caching it avoids allocating
  // closures per form.
  private alternatives?: { ALT: () => N }[];
  /** The items of the list being parsed (or the top-level forms); a nested list swaps in its own. */
  private items: N[] = [];
  /** How many of `items` are filled. */
  private filled = 0;
  // The repetition bodies are fields, shared by every list, that read the current list from
  // `items`: a closure per list that captured its items array was the parser's largest allocation
  // after the tree itself. Each computes its node before storing it: a nested list restores
  // `items` and `filled` when it returns, but only then.
  private readonly form = (): void => {
    const alternatives = (this.alternatives ??= [
      { ALT: () => this.SUBRULE(this.list) },
      { ALT: () => this.atomOf(this.CONSUME(Atom)) },
    ]);
    const node = this.OR(alternatives);
    this.items[this.filled++] = node;
  };
  private readonly leadingAtom = (): void => {
    const node = this.atomOf(this.CONSUME1(Atom));
    this.items[this.filled++] = node;
  };
  private readonly trailingAtom = (): void => {
    const node = this.atomOf(this.CONSUME2(Atom));
    this.items[this.filled++] = node;
  };
  private readonly nestedList = (): void => {
    const node = this.SUBRULE1(this.list);
    this.items[this.filled++] = node;
    this.MANY3(this.trailingAtom);
  };

  readonly source = this.RULE("source", (): N[] => {
    const forms: N[] = [];
    this.items = forms;
    this.filled = 0;
    this.MANY(this.form);
    return forms;
  });

  private readonly list = this.RULE("list", (): N => {
    const open = this.CONSUME(LParen);
    const outer = this.items;
    const outerFilled = this.filled;
    const items: N[] = this.RECORDING_PHASE || this.builder.items === undefined ? [] : this.builder.items();
    this.items = items;
    this.filled = 0;
    this.MANY1(this.leadingAtom);
    this.MANY2(this.nestedList);
    this.items = outer;
    this.filled = outerFilled;
    const close = this.CONSUME(RParen);
    // Equivalent to ACTION(() => …) without allocating a closure per call.
    return this.RECORDING_PHASE ? (items as unknown as N) : this.builder.list(open, items, close);
  });

  /**
   * Drop the last parse's token stream and top-level items before the next parse allocates
   * (a shared parser would otherwise hold the last tree while the next is built). The caller
   * passes empty arrays of the element kinds it parses with, to park on.
   */
  forget(noTokens: IToken[], noItems: N[]): void {
    this.input = noTokens;
    this.items = noItems;
  }

  private atomOf(token: IToken): N {
    return this.RECORDING_PHASE ? (token as unknown as N) : this.builder.atom(token);
  }
}
