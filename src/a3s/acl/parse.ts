/**
 * ACL front door: lex once, parse strictly (grammar/acl.ts), and when the strict parse objects,
 * ask the reference emulation what A3S Use would have done.
 *
 * Result contract:
 * - `blocks` is the tree A3S Use would validate (null when A3S Use itself fails to parse);
 * - `referenceError` is A3S Use's own parse error, in its words, when it has one;
 * - `strict` lists every departure from the canonical subset (reference §1.2), each naming what is
 *   wrong and what the reference silently does instead (docs/divergences/a3s.md).
 */
import { utf8Length } from "../../syntax/utf8.js";
import type { IToken } from "chevrotain";
import {
  Comment,
  Ident,
  Junk,
  LBrace,
  NumberLit,
  PlusEquals,
  RBrace,
  LBracket,
  RBracket,
  LParen,
  RParen,
  StringLit,
  aclLexer,
  parseStrict,
  stringPayload,
  tokenEnd,
  type AclIssue,
} from "../../../grammar/acl.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { A3S_CODES, diagnostic, type A3sCode } from "../codes.js";
import { A3S_DIAGNOSTIC_LIMIT, Omitted } from "../diagnostic-limit.js";
import { DiagnosticCollector } from "../../diagnostics/collector.js";
import type { AclBlock } from "./ast.js";
import { parseReference, REFERENCE_MAX_DEPTH, rustTokenDebug } from "./reference-emulation.js";
import { referenceMessage } from "../messages.js";
import { TextPositions } from "../../diagnostics/text-positions.js";

/** ACL v0.3.0's document limit; the reference (0.2.2) has none. */
export const ACL_MAX_BYTES = 1024 * 1024;

export interface AclParse {
  readonly blocks: AclBlock[] | null;
  readonly referenceError: Diagnostic | null;
  readonly strict: readonly Diagnostic[];
  /** Strict findings past the diagnostic limit: counted, never built. */
  readonly omitted: Omitted;
  readonly index: TextPositions;
}

const CANONICAL_NUMBER = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

export function parseAcl(text: string, file: string): AclParse {
  // Lines break at LF only, as the reference counts them.
  const index = new TextPositions(text, "lf");
  const findings = new DiagnosticCollector(A3S_CODES, A3S_DIAGNOSTIC_LIMIT);
  const strict = findings.diagnostics;
  const counted = (): Omitted => {
    const o = new Omitted();
    o.merge(findings.omitted);
    return o;
  };
  const at = (start: number, end: number) => ({ file, span: index.span(start, end) });
  // Every finding of the unbounded loops (one per token, comment or attribute) goes through here.
  const report = (code: A3sCode, build: () => Diagnostic): void => {
    if (findings.room) findings.adopt(build());
    else findings.omit(code);
  };

  // The size limit is in UTF-8 bytes and comes before lexing, so an oversized document costs
  // nothing beyond measuring it.
  if (text.length > ACL_MAX_BYTES || utf8Length(text) > ACL_MAX_BYTES) {
    findings.adopt(
      diagnostic(
        "a3s.acl.too_large",
        `the manifest is larger than ${ACL_MAX_BYTES} bytes (ACL 0.3 document limit)`,
        at(0, 0),
      ),
    );
    return { blocks: null, referenceError: null, strict, omitted: counted(), index };
  }

  // A UTF-8 BOM is an editor artefact, not content; the reference drops it like any stray character.
  const bom = text.startsWith("\uFEFF") ? 1 : 0;
  const lexed = aclLexer.tokenize(bom === 1 ? ` ${text.slice(1)}` : text);
  const trivia = lexed.groups["trivia"] ?? [];
  const significant: IToken[] = [];
  const referenceTokens: IToken[] = mergeByOffset(lexed.tokens, trivia).filter((t) => t.tokenType !== Junk);
  const flagged = new Set<number>();

  for (const t of trivia) {
    if (t.tokenType === Comment && t.image.startsWith("/") && !t.image.startsWith("//")) {
      flagged.add(t.startOffset);
      const what = t.image.startsWith("/*")
        ? "block comments ('/* … */') are not ACL"
        : "a single '/' is not a comment marker";
      report("a3s.acl.slash_comment", () =>
        diagnostic("a3s.acl.slash_comment", `${what}; A3S Use 0.2.2 silently ignores the rest of the line from '/'`, {
          ...at(t.startOffset, tokenEnd(t)),
          hint: "use '#' or '//' for comments",
        }),
      );
    }
  }
  for (const t of lexed.tokens) {
    if (t.tokenType === Junk) {
      flagged.add(t.startOffset);
      report("a3s.acl.stray_character", () => junkDiagnostic(t, text, at));
      continue;
    }
    significant.push(t);
    if (t.tokenType === StringLit) {
      const s = stringPayload(t);
      if (!s.terminated) {
        flagged.add(t.startOffset);
        report("a3s.acl.unterminated_string", () =>
          diagnostic(
            "a3s.acl.unterminated_string",
            "unterminated string: it has no closing quote before the end of the line; A3S Use 0.2.2 silently ends it there",
            {
              ...at(t.startOffset, tokenEnd(t)),
              hint: "close the string on the same line; ACL has no multi-line strings",
            },
          ),
        );
      } else if (s.continuedOverNewline) {
        report("a3s.acl.multiline_string", () =>
          diagnostic(
            "a3s.acl.multiline_string",
            "a backslash before a line break continues this string over two lines; ACL has no multi-line strings",
            at(t.startOffset, tokenEnd(t)),
          ),
        );
      }
      for (const e of s.unknownEscapes) {
        report("a3s.acl.unknown_escape", () =>
          diagnostic(
            "a3s.acl.unknown_escape",
            `unknown escape '${e}' is kept as the two characters '${e}' (ACL knows only \\n \\r \\t \\\\ \\")`,
            {
              ...at(t.startOffset, tokenEnd(t)),
            },
          ),
        );
      }
    } else if (t.tokenType === NumberLit) {
      const n = Number(t.image);
      if (!CANONICAL_NUMBER.test(t.image) || !Number.isFinite(n)) {
        flagged.add(t.startOffset);
        const before = text[t.startOffset - 1] ?? "";
        if ((t.image === "-" || t.image === ".") && /[\p{L}\p{N}_]/u.test(before)) {
          report("a3s.acl.stray_character", () => junkDiagnostic({ ...t, image: t.image } as IToken, text, at));
          continue;
        }
        report("a3s.acl.malformed_number", () =>
          diagnostic(
            "a3s.acl.malformed_number",
            `malformed number '${t.image}'; A3S Use 0.2.2 reads it as ${Number.isNaN(n) ? "0" : String(n)}`,
            {
              ...at(t.startOffset, tokenEnd(t)),
              hint: "write digits with an optional fraction and exponent, e.g. 3 or 1.5e3",
            },
          ),
        );
      }
    } else if (t.tokenType === PlusEquals) {
      flagged.add(t.startOffset);
      report("a3s.acl.append_operator", () =>
        diagnostic(
          "a3s.acl.append_operator",
          "'+=' is not ACL; A3S Use 0.2.2 ignores it (inside a block) or makes an empty block (at top level)",
          at(t.startOffset, tokenEnd(t)),
        ),
      );
    }
  }

  let blocks: AclBlock[] | null = null;
  const depth = maxNesting(significant);
  if (depth.depth > REFERENCE_MAX_DEPTH) {
    findings.adopt(
      diagnostic(
        "a3s.acl.too_deep",
        `brackets and braces nest deeper than ${REFERENCE_MAX_DEPTH} levels (ACL 0.3 depth limit)`,
        at(depth.offset, depth.offset + 1),
      ),
    );
  } else {
    const parsed = parseStrict(significant.filter((t) => t.tokenType !== Junk));
    for (const issue of parsed.issues) report(issueCode(issue), () => issueDiagnostic(issue, at));
    if (parsed.error !== null) {
      const found = parsed.error.token;
      const offset = Number.isNaN(found.startOffset) || found.image === "" ? text.length : found.startOffset;
      if (!flagged.has(offset))
        findings.adopt(syntaxDiagnostic(parsed.error.context.ruleStack, found, offset, significant, at));
    } else if (findings.omitted.errors === 0 && strict.every((d) => d.severity !== "error")) {
      blocks = parsed.blocks;
    }
  }

  let referenceError: Diagnostic | null = null;
  if (blocks === null) {
    const ref = parseReference(referenceTokens, text.length);
    if (ref.ok) {
      blocks = ref.blocks;
    } else if (ref.limit === true) {
      if (!strict.some((d) => d.code === "a3s.acl.too_deep")) {
        findings.adopt(
          diagnostic(
            "a3s.acl.too_deep",
            `blocks nest deeper than ${REFERENCE_MAX_DEPTH} levels`,
            at(ref.offset, ref.offset),
          ),
        );
      }
    } else {
      const pos = index.position(ref.offset);
      const wording = `Failed to parse extension ACL: Parse error at line ${pos.line}, column ${pos.column}: ${ref.message}`;
      referenceError = diagnostic(
        "a3s.acl.parse_error",
        referenceMessage("use.extension.manifest_invalid", wording),
        at(ref.offset, ref.offset),
      );
    }
  }
  return { blocks, referenceError, strict, omitted: counted(), index };
}

type At = (start: number, end: number) => { file: string; span: ReturnType<TextPositions["span"]> };

function junkDiagnostic(t: IToken, text: string, at: At): Diagnostic {
  const ch = t.image;
  const before = text[t.startOffset - 1] ?? "";
  const after = text[t.startOffset + ch.length] ?? "";
  const code = ch.codePointAt(0)!;
  const shown =
    code < 0x20 || code === 0x7f || code === 0xa0 ? `U+${code.toString(16).toUpperCase().padStart(4, "0")}` : `'${ch}'`;
  const inName = (ch === "-" || ch === ".") && /[\p{L}\p{N}_]/u.test(before) && /[\p{L}_]/u.test(after);
  const message = inName
    ? `'${ch}' is not allowed in a name; A3S Use 0.2.2 drops everything up to it and reads only the part after '${ch}'`
    : `stray character ${shown}; A3S Use 0.2.2 silently drops it`;
  return diagnostic("a3s.acl.stray_character", message, {
    ...at(t.startOffset, t.startOffset + ch.length),
    hint: inName ? "ACL names use letters, digits and '_' (e.g. base_path)" : "remove it",
  });
}

const ISSUE_CODES = {
  duplicate_attribute: "a3s.acl.duplicate_attribute",
  unquoted_word: "a3s.acl.unquoted_word",
  nested_block_in_object: "a3s.acl.syntax",
} as const satisfies Record<AclIssue["code"], A3sCode>;

function issueCode(issue: AclIssue): A3sCode {
  return ISSUE_CODES[issue.code];
}

function issueDiagnostic(issue: AclIssue, at: At): Diagnostic {
  switch (issue.code) {
    case "duplicate_attribute":
      return diagnostic(
        "a3s.acl.duplicate_attribute",
        `attribute '${issue.name}' is set more than once in this block; A3S Use 0.2.2 silently keeps the last value`,
        {
          ...at(issue.range.start, issue.range.end),
          related: issue.related
            ? [{ ...at(issue.related.start, issue.related.end), message: "first set here" }]
            : undefined,
        },
      );
    case "unquoted_word":
      return diagnostic(
        "a3s.acl.unquoted_word",
        `unquoted word '${issue.name}' used as a value; A3S Use 0.2.2 reads it as the string "${issue.name}"`,
        {
          ...at(issue.range.start, issue.range.end),
          hint: `quote it: "${issue.name}"`,
        },
      );
    case "nested_block_in_object":
      return diagnostic(
        "a3s.acl.syntax",
        "a nested block inside an object value is dropped by A3S Use 0.2.2",
        at(issue.range.start, issue.range.end),
      );
  }
}

const EXPECTED: Record<string, string> = {
  parseDocument: "an attribute 'name = value' or a block 'name \"label\" { … }'",
  attributeTail: "'=' followed by a value",
  blockTail: "a quoted label, '{', an attribute or a nested block, or '}'",
  value: "a value (a quoted string, a number, true, false, null or a list)",
  list: "',' or ']'",
  object: "an attribute 'name = value' or '}'",
  wordOrCall: "',' or ')'",
};

function syntaxDiagnostic(ruleStack: string[], found: IToken, offset: number, tokens: IToken[], at: At): Diagnostic {
  const rule = ruleStack[ruleStack.length - 1] ?? "parseDocument";
  const atEof = found.image === "" || Number.isNaN(found.startOffset);
  const unclosed = atEof ? lastUnclosedBrace(tokens) : null;
  if (unclosed !== null) {
    return diagnostic(
      "a3s.acl.unclosed_block",
      "a block is never closed: '}' is missing at the end of the file; A3S Use 0.2.2 silently closes it there",
      {
        ...at(offset, offset),
        related: [{ ...at(unclosed.startOffset, unclosed.startOffset + 1), message: "this '{' is never closed" }],
      },
    );
  }
  const what = atEof
    ? "the end of the file"
    : found.tokenType === Ident
      ? `the word '${found.image}'`
      : `'${found.image}'`;
  let hint: string | undefined;
  if (rule === "blockTail" && found.tokenType === Ident) hint = `block labels must be quoted: "${found.image}"`;
  else if (rule === "blockTail") hint = "a block needs '{' after its name and labels";
  return diagnostic(
    "a3s.acl.syntax",
    `syntax error: found ${what} where ${EXPECTED[rule] ?? "something else"} was expected (reference token ${rustTokenDebug(atEof ? undefined : found)})`,
    {
      ...at(offset, atEof ? offset : offset + found.image.length),
      hint,
    },
  );
}

function lastUnclosedBrace(tokens: readonly IToken[]): IToken | null {
  const stack: IToken[] = [];
  for (const t of tokens) {
    if (t.tokenType === LBrace) stack.push(t);
    else if (t.tokenType === RBrace) stack.pop();
  }
  return stack[0] ?? null;
}

function maxNesting(tokens: readonly IToken[]): { depth: number; offset: number } {
  let depth = 0;
  let max = 0;
  let offset = 0;
  for (const t of tokens) {
    if (t.tokenType === LBrace || t.tokenType === LBracket || t.tokenType === LParen) {
      depth++;
      if (depth > max) {
        max = depth;
        offset = t.startOffset;
      }
    } else if (t.tokenType === RBrace || t.tokenType === RBracket || t.tokenType === RParen) {
      depth = Math.max(0, depth - 1);
    }
  }
  return { depth: max, offset };
}

function mergeByOffset(a: IToken[], b: IToken[]): IToken[] {
  const out: IToken[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]!.startOffset < b[j]!.startOffset)) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}
