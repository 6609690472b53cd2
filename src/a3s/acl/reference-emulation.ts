/**
 * Emulation of the reference parser's state machine (a3s-acl 0.2.2, reference §1.5).
 *
 * Used only when the strict parser rejects a manifest: it tells whether the reference would have
 * accepted it (and with which tree, so validation can still report everything) or which parse error
 * the reference reports, in its words. Depth is bounded so hostile nesting cannot blow the stack.
 */
import type { IToken } from "chevrotain";
import {
  Colon,
  Comma,
  Comment,
  Equals,
  False,
  Ident,
  LBrace,
  LBracket,
  LParen,
  Newline,
  Null,
  NumberLit,
  RBrace,
  RBracket,
  RParen,
  StringLit,
  True,
  numberValue,
  stringPayload,
  tokenEnd,
} from "../../../grammar/acl.js";
import type { AclAttribute, AclBlock, AclValue } from "./ast.js";

export const REFERENCE_MAX_DEPTH = 64;

export type ReferenceParse =
  | { readonly ok: true; readonly blocks: AclBlock[] }
  | { readonly ok: false; readonly offset: number; readonly message: string; readonly limit?: boolean };

class ReferenceError extends Error {
  constructor(
    readonly offset: number,
    message: string,
    readonly limit = false,
  ) {
    super(message);
  }
}

/** Rust `Debug` of a reference token, as the reference's messages print it. */
export function rustTokenDebug(t: IToken | undefined): string {
  if (t === undefined) return "Eof";
  switch (t.tokenType) {
    case LBrace:
      return "LeftBrace";
    case RBrace:
      return "RightBrace";
    case LBracket:
      return "LeftBracket";
    case RBracket:
      return "RightBracket";
    case LParen:
      return "LeftParen";
    case RParen:
      return "RightParen";
    case Comma:
      return "Comma";
    case Equals:
      return "Equals";
    case Colon:
      return "Colon";
    case Newline:
      return "Newline";
    case Comment:
      return `Comment(${JSON.stringify(t.image)})`;
    case True:
      return "True";
    case False:
      return "False";
    case Null:
      return "Null";
    case StringLit:
      return `String(${JSON.stringify(stringPayload(t).value)})`;
    case NumberLit: {
      const n = numberValue(t.image);
      return `Number(${Number.isInteger(n) ? n.toFixed(1) : String(n)})`;
    }
    case Ident:
      return `Ident(${JSON.stringify(t.image)})`;
    default:
      return t.tokenType.name === "PlusEquals" ? "PlusEquals" : t.tokenType.name;
  }
}

/** `tokens`: every token including trivia, in source order, junk removed. */
export function parseReference(tokens: readonly IToken[], textLength: number): ReferenceParse {
  const p = new Machine(tokens, textLength);
  try {
    return { ok: true, blocks: p.document() };
  } catch (e) {
    if (e instanceof ReferenceError) return { ok: false, offset: e.offset, message: e.message, limit: e.limit };
    throw e;
  }
}

interface MutableBlock {
  name: string;
  nameRange: { start: number; end: number };
  labels: { value: string; start: number; end: number }[];
  attributes: Map<string, AclAttribute>;
  blocks: AclBlock[];
}

class Machine {
  private i = 0;
  private depth = 0;

  constructor(
    private readonly toks: readonly IToken[],
    private readonly eofOffset: number,
  ) {}

  private peek(k = 0): IToken | undefined {
    return this.toks[this.i + k];
  }

  private is(t: IToken | undefined, ...types: unknown[]): boolean {
    return t !== undefined && types.includes(t.tokenType);
  }

  private skipTrivia(): void {
    while (this.is(this.peek(), Newline, Comment)) this.i++;
  }

  private enter(offset: number): void {
    if (++this.depth > REFERENCE_MAX_DEPTH) {
      throw new ReferenceError(offset, `nesting deeper than ${REFERENCE_MAX_DEPTH} levels`, true);
    }
  }

  private fail(prefix: string, t: IToken | undefined): never {
    throw new ReferenceError(t?.startOffset ?? this.eofOffset, `${prefix}${rustTokenDebug(t)}`);
  }

  document(): AclBlock[] {
    const blocks: AclBlock[] = [];
    for (;;) {
      this.skipTrivia();
      const t = this.peek();
      if (t === undefined) return blocks;
      if (t.tokenType !== Ident) this.fail("Unexpected token: ", t);
      if (this.is(this.peek(1), Equals, Colon)) {
        this.i += 2;
        this.skipTrivia();
        const value = this.value();
        const attr: AclAttribute = { name: t.image, nameRange: rangeOf(t), value };
        blocks.push({
          name: t.image,
          nameRange: rangeOf(t),
          labels: [],
          attributes: new Map([[t.image, attr]]),
          blocks: [],
        });
      } else {
        blocks.push(this.block());
      }
    }
  }

  private block(): AclBlock {
    const name = this.peek()!;
    this.enter(name.startOffset);
    this.i++;
    const b: MutableBlock = {
      name: name.image,
      nameRange: rangeOf(name),
      labels: [],
      attributes: new Map(),
      blocks: [],
    };
    while (this.is(this.peek(), StringLit)) {
      const l = this.peek()!;
      b.labels.push({ value: stringPayload(l).value, ...rangeOf(l) });
      this.i++;
    }
    this.skipTrivia();
    this.body(b);
    this.depth--;
    return b;
  }

  private body(b: MutableBlock): void {
    for (;;) {
      const t = this.peek();
      if (t === undefined) return;
      if (t.tokenType === RBrace) {
        this.i++;
        return;
      }
      if (t.tokenType !== Ident) {
        this.i++; // `{`, trivia and any other token are skipped
        continue;
      }
      const next = this.peek(1);
      if (this.is(next, Equals, Colon)) {
        this.i += 2;
        this.skipTrivia();
        const value = this.value();
        b.attributes.delete(t.image);
        b.attributes.set(t.image, { name: t.image, nameRange: rangeOf(t), value });
      } else if (this.is(next, StringLit, LBrace)) {
        b.blocks.push(this.block());
      } else if (this.is(next, Ident)) {
        const third = this.peek(2);
        if (this.is(third, Equals, Colon)) this.fail("Expected '=' or ':', found ", next);
        b.blocks.push(this.block());
      } else {
        this.i++;
      }
    }
  }

  private value(): AclValue {
    const t = this.peek();
    if (t === undefined) this.fail("Unexpected token in value position: ", t);
    const r = rangeOf(t);
    switch (t.tokenType) {
      case StringLit:
        this.i++;
        return { kind: "string", value: stringPayload(t).value, bare: false, ...r };
      case NumberLit:
        this.i++;
        return { kind: "number", value: numberValue(t.image), text: t.image, ...r };
      case True:
      case False:
        this.i++;
        return { kind: "bool", value: t.tokenType === True, ...r };
      case Null:
        this.i++;
        return { kind: "null", ...r };
      case LBracket:
        return this.list();
      case LBrace: {
        this.enter(t.startOffset);
        this.i++;
        const inner: MutableBlock = { name: "", nameRange: r, labels: [], attributes: new Map(), blocks: [] };
        this.body(inner);
        this.depth--;
        return { kind: "object", entries: [...inner.attributes.values()], start: r.start, end: this.lastEnd() };
      }
      case Ident:
        return this.identValue(t);
      default:
        this.fail("Unexpected token in value position: ", t);
    }
  }

  private lastEnd(): number {
    const prev = this.toks[this.i - 1];
    return prev === undefined ? this.eofOffset : tokenEnd(prev);
  }

  private list(): AclValue {
    const open = this.peek()!;
    this.enter(open.startOffset);
    this.i++;
    const items: AclValue[] = [];
    for (;;) {
      while (this.is(this.peek(), Newline, Comment, Comma)) this.i++;
      const t = this.peek();
      if (this.is(t, RBracket)) {
        this.i++;
        break;
      }
      items.push(this.value());
    }
    this.depth--;
    return { kind: "list", items, start: open.startOffset, end: this.lastEnd() };
  }

  private identValue(name: IToken): AclValue {
    this.i++;
    this.skipTrivia();
    const t = this.peek();
    if (this.is(t, LParen)) {
      this.enter(name.startOffset);
      this.i++;
      const args: AclValue[] = [];
      this.skipTrivia();
      if (this.is(this.peek(), RParen)) {
        this.i++;
      } else {
        for (;;) {
          this.skipTrivia();
          args.push(this.value());
          this.skipTrivia();
          const sep = this.peek();
          if (this.is(sep, Comma)) {
            this.i++;
            continue;
          }
          if (this.is(sep, RParen)) {
            this.i++;
            break;
          }
          this.fail("Expected ',' or ')', found ", sep);
        }
      }
      this.depth--;
      return { kind: "call", name: name.image, args, start: name.startOffset, end: this.lastEnd() };
    }
    if (this.is(t, LBrace)) {
      // `k = foo { … }` is the object {_block: {name, labels, attributes}} (reference §1.4).
      this.enter(name.startOffset);
      this.i++;
      const inner: MutableBlock = {
        name: name.image,
        nameRange: rangeOf(name),
        labels: [],
        attributes: new Map(),
        blocks: [],
      };
      this.body(inner);
      this.depth--;
      const r = { start: name.startOffset, end: this.lastEnd() };
      const synthetic = (n: string, value: AclValue): AclAttribute => ({ name: n, nameRange: r, value });
      const blockObject: AclValue = {
        kind: "object",
        entries: [
          synthetic("name", { kind: "string", value: name.image, bare: false, ...r }),
          synthetic("labels", { kind: "list", items: [], ...r }),
          synthetic("attributes", { kind: "object", entries: [...inner.attributes.values()], ...r }),
        ],
        ...r,
      };
      return { kind: "object", entries: [synthetic("_block", blockObject)], ...r };
    }
    return { kind: "string", value: name.image, bare: true, ...rangeOf(name) };
  }
}

function rangeOf(t: IToken): { start: number; end: number } {
  return { start: t.startOffset, end: tokenEnd(t) };
}
