/**
 * Semantic tokens: what each word of a Yao file is, from the package's symbol index (functions,
 * parameters, bindings, types, fields, variants, tools, built-ins, keywords, numbers) and from one
 * scan of the text for strings and comments, which the reader's tree does not keep. `classify` is
 * the one classification; the LSP encoding (`encodeTokens`) and its delta (`tokenDelta`) are built
 * on it, and the playground highlights with the same function. Browser-safe.
 */
import { FORM_DOCS } from "../yao/forms.js";
import type { SymbolCategory, SymbolIndex } from "./symbol-index.js";
import type { TextLines } from "./yao-document.js";

/** The token types, in the order of the LSP legend. */
export const TOKEN_TYPES = [
  "function",
  "parameter",
  "variable",
  "type",
  "property",
  "enumMember",
  "interface",
  "keyword",
  "string",
  "number",
  "comment",
  "operator",
] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];

/** Modifiers: a declaration, or something the language defines (a built-in type, operator or host operation). */
export const TOKEN_MODIFIERS = ["declaration", "defaultLibrary"] as const;

export interface Token {
  /** UTF-16 offsets in the text. */
  readonly from: number;
  readonly to: number;
  readonly type: TokenType;
  readonly declaration: boolean;
  readonly builtin: boolean;
}

/** Operators proper (comparison, logic, arithmetic), by the language table's groups; other forms are keywords. */
const isOperator = (name: string): boolean => {
  const group = FORM_DOCS.get(name)?.group;
  return group === "comparison and logic" || group === "arithmetic";
};

const BY_CATEGORY: Record<SymbolCategory, TokenType> = {
  function: "function",
  parameter: "parameter",
  binding: "variable",
  type: "type",
  field: "property",
  variant: "enumMember",
  tool: "interface",
  builtin: "function",
  keyword: "keyword",
  number: "number",
  constant: "keyword",
};

/** Every token of `file`, in source order, never overlapping. */
export function classify(text: string, file: string, index: SymbolIndex | undefined): Token[] {
  const out: Token[] = [];
  const lexical = stringsAndComments(text);
  let li = 0;
  for (const o of index?.byFile.get(file) ?? []) {
    while (li < lexical.length && lexical[li]!.from < o.from) out.push(lexical[li++]!);
    if (out.length > 0 && out[out.length - 1]!.to > o.from) continue;
    const operator = o.category === "keyword" && isOperator(o.name);
    out.push({
      from: o.from,
      to: o.to,
      type: operator ? "operator" : BY_CATEGORY[o.category],
      declaration: o.declaration,
      builtin: o.builtin === true || o.category === "builtin" || operator,
    });
  }
  while (li < lexical.length) out.push(lexical[li++]!);
  return out;
}

/** Strings (plain and block) and `;` comments, by one scan that knows the reader's string rules. */
function stringsAndComments(text: string): Token[] {
  const out: Token[] = [];
  const token = (from: number, to: number, type: TokenType): void => {
    out.push({ from, to, type, declaration: false, builtin: false });
  };
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x3b /* ; */) {
      const nl = text.indexOf("\n", i);
      const end = nl < 0 ? text.length : nl;
      token(i, end, "comment");
      i = end;
    } else if (c === 0x22 /* " */) {
      const start = i;
      if (text.startsWith('"""', i)) {
        const end = text.indexOf('"""', i + 3);
        i = end < 0 ? text.length : end + 3;
      } else {
        i++;
        while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
        i = Math.min(i + 1, text.length);
      }
      token(start, i, "string");
    } else i++;
  }
  return out;
}

/**
 * The LSP encoding: five integers per token (line delta, start delta, length, type, modifiers),
 * positions in UTF-16; a token over several lines (a block string) is one token per line.
 */
export function encodeTokens(tokens: readonly Token[], lines: TextLines): number[] {
  const data: number[] = [];
  let lastLine = 0;
  let lastChar = 0;
  const push = (line: number, char: number, length: number, t: Token): void => {
    if (length <= 0) return;
    data.push(
      line - lastLine,
      line === lastLine ? char - lastChar : char,
      length,
      TOKEN_TYPES.indexOf(t.type),
      (t.declaration ? 1 : 0) | (t.builtin ? 2 : 0),
    );
    lastLine = line;
    lastChar = char;
  };
  for (const t of tokens) {
    const start = lines.positionAt(t.from);
    const end = lines.positionAt(t.to);
    if (start.line === end.line) {
      push(start.line, start.character, end.character - start.character, t);
      continue;
    }
    const text = lines.text;
    for (let line = start.line, from = t.from; line <= end.line; line++) {
      const nl = text.indexOf("\n", from);
      const to = line === end.line || nl < 0 ? t.to : nl;
      push(line, line === start.line ? start.character : 0, to - from, t);
      from = to + 1;
    }
  }
  return data;
}

/** One edit turning `before` into `after`: the common prefix and suffix (of whole tokens) kept. */
export function tokenDelta(
  before: readonly number[],
  after: readonly number[],
): { start: number; deleteCount: number; data: number[] }[] {
  let prefix = 0;
  const max = Math.min(before.length, after.length);
  while (prefix < max && before[prefix] === after[prefix]) prefix++;
  prefix -= prefix % 5;
  let suffix = 0;
  while (suffix < max - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
  suffix -= suffix % 5;
  if (prefix === before.length && prefix === after.length) return [];
  return [
    {
      start: prefix,
      deleteCount: before.length - prefix - suffix,
      data: after.slice(prefix, after.length - suffix),
    },
  ];
}
