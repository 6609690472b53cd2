/**
 * Issue 33, Deliver 3: one operator table. src/yao/forms.ts is the only list of Yao's expression
 * forms; the analyzer dispatches on its rows, the language server reads them, and the TextMate
 * grammar is compared with them entry by entry. A second hand-written list of operators anywhere in
 * the sources fails here, so the copies cannot drift apart again.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { analyzeSources } from "../../src/yao/analyze.js";
import { RESERVED_FUNCTION_NAMES } from "../../src/yao/expressions.js";
import { FORM_NAMES, FORMS, isFormName } from "../../src/yao/forms.js";
import { ARTIFACT_KEYWORDS, OPERATORS } from "../../src/lsp/operators.js";
import { REPO_ROOT } from "../support/repo.js";

const FORM_SET: ReadonlySet<string> = new Set(FORM_NAMES);
/** The typed IR's node kinds (`op: "list"`…): lists of these are lists of IR kinds, not of the surface forms. */
const IR_OPS: ReadonlySet<string> = new Set(
  [...readFileSync(join(REPO_ROOT, "ir/yao-ir-0.1.ts"), "utf8").matchAll(/\bop: "([a-z_]+)"/g)].map((m) => m[1]!),
);

function filesUnder(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (ext.test(name)) out.push(p);
    }
  };
  walk(join(REPO_ROOT, dir));
  return out;
}

/**
 * Lists of form names written out in `text`: array literals with 5 or more form names among their
 * string elements, object literals with 5 or more form names as keys, and `a|b|c` alternations
 * (in regular expressions) of 5 or more form names. Five, because no hand-written list of fewer
 * operators has ever been a copy of the table, while every copy was longer. A list is of the
 * surface forms only when it names one that is not also an IR node kind (`json-object`, `eq`,
 * `some`…): the evaluator's and the IR reader's lists of node kinds are not copies. An object
 * literal typed by a mapped type over the table (`[K in OwnRuleForm]`) is checked by the compiler
 * against the table, so it is not a copy either.
 */
export function operatorLists(text: string): string[][] {
  const found: string[][] = [];
  const keep = (names: string[]): void => {
    const forms = [...new Set(names.filter((n) => FORM_SET.has(n)))];
    if (forms.length >= 5 && forms.some((n) => !IR_OPS.has(n))) found.push(forms);
  };
  for (const m of text.matchAll(/\[([^[\]]*)\]/g)) keep([...m[1]!.matchAll(/"([^"\\]*)"/g)].map((s) => s[1]!));
  for (const m of text.matchAll(/\{([^{}]*)\}/g)) {
    if (/\[\w+ in \w*Form\w*\]/.test(text.slice(Math.max(0, m.index - 200), m.index))) continue;
    keep([...m[1]!.matchAll(/(?:^|[,{\s])"?([A-Za-z][\w.-]*)"?\s*:/g)].map((s) => s[1]!));
  }
  for (const m of text.matchAll(/[A-Za-z][\w.-]*(?:\|[A-Za-z][\w.-]*){4,}/g)) keep(m[0].split("|"));
  return found;
}

describe("the operator table", () => {
  it("the detector finds each kind of copy, and not a short list", () => {
    expect(operatorLists(`const K = new Set(["list", "dict", "some", "seq", "bind"]);`)).toHaveLength(1);
    expect(operatorLists(`const P = { eq: "equal", ne: "not_equal", lt: "less", le: "le", gt: "g" };`)).toHaveLength(1);
    expect(operatorLists(`"match": "(?<=\\\\()(eq|ne|lt|le|gt)(?=x)"`)).toHaveLength(1);
    expect(operatorLists(`if (h === "none" || h === "decode") ["ok", "err", "is", "x", "y"]`)).toEqual([]);
    // IR node kinds, and an object the compiler checks against the table, are not copies.
    expect(operatorLists(`const KINDS = ["list", "dict", "record", "get", "seq", "bind"];`)).toEqual([]);
    expect(
      operatorLists(`R: { readonly [K in OwnRuleForm]: F } = { list: a, dict: b, some: c, none: d, ok: e }`),
    ).toEqual([]);
  });

  it("no source, script, editor or playground file lists the operators again", () => {
    const files = [
      ...filesUnder("src", /\.ts$/),
      ...filesUnder("scripts", /\.(mjs|ts)$/),
      ...filesUnder("editors/vscode/src", /\.ts$/),
      // The playground's highlighting reads the table (test/browser/yao-language.test.ts compares it).
      ...filesUnder("playground/src", /\.ts$/),
      ...filesUnder("bench", /\.ts$/),
    ].filter((f) => relative(REPO_ROOT, f) !== "src/yao/forms.ts");
    expect(files.length).toBeGreaterThan(100);
    const copies = files
      .map((f) => ({ file: relative(REPO_ROOT, f), lists: operatorLists(readFileSync(f, "utf8")) }))
      .filter((c) => c.lists.length > 0);
    expect(copies).toEqual([]);
  });

  it("the analyzer dispatches on every row, and on nothing else", () => {
    expect(FORMS.length).toBeGreaterThan(40);
    for (const f of FORMS) {
      // With no operands most forms are wrong (an empty list is not), but each is a known form:
      // never an unknown operator.
      const r = analyzeSources({ source: `(eval (${f.name}))` });
      expect(
        r.diagnostics.map((d) => d.code),
        f.name,
      ).not.toContain("yao.unknown_operator");
      expect(RESERVED_FUNCTION_NAMES.has(f.name), f.name).toBe(true);
    }
    // The near miss: a name that is not a row is an unknown operator.
    expect(analyzeSources({ source: "(eval (frobnicate))" }).diagnostics[0]!.code).toBe("yao.unknown_operator");
    expect(isFormName("frobnicate")).toBe(false);
  });

  it("the language server's operators are the table's rows, in its order", () => {
    expect([...OPERATORS.keys()]).toEqual([...FORM_NAMES]);
  });

  describe("the TextMate grammar, entry by entry", () => {
    const grammar = JSON.parse(readFileSync(join(REPO_ROOT, "editors/vscode/syntaxes/yao.tmLanguage.json"), "utf8"));
    const repo = grammar.repository as Record<string, { name?: string; match?: string; captures?: unknown }>;
    const order = (grammar.repository.form.patterns as { include: string }[]).map((p) => p.include.slice(1));

    /** The scope the grammar gives the head of `(NAME)`: the first pattern that matches right after `(`. */
    const headScope = (name: string): string | undefined => {
      const text = `(${name})`;
      for (const key of order) {
        const p = repo[key]!;
        if (p.match === undefined || p.name === undefined) continue;
        const re = new RegExp(p.match, "y");
        re.lastIndex = 1;
        const m = re.exec(text);
        if (m !== null && m[0].trim() === name) return p.name;
      }
      return undefined;
    };
    /** The scope each row must have: pure operators, host operations, forms that are also clause keywords, forms. */
    const expected = (f: (typeof FORMS)[number]): string =>
      f.rule.kind === "pure"
        ? "keyword.operator.yao"
        : f.name.includes(".")
          ? "support.function.host.yao"
          : ARTIFACT_KEYWORDS.includes(f.name)
            ? "keyword.other.artifact.yao"
            : "keyword.control.yao";

    it("every row is highlighted as its kind", () => {
      const wrong = FORMS.filter((f) => headScope(f.name) !== expected(f)).map(
        (f) => `${f.name}: ${headScope(f.name)}, expected ${expected(f)}`,
      );
      expect(wrong).toEqual([]);
    });

    it("every operator and form the grammar names is a row", () => {
      const words = (key: string): string[] => {
        const m = /\\s\*\(([^()]*)\)/.exec(repo[key]!.match!);
        expect(m, key).not.toBeNull();
        return m![1]!.split("|");
      };
      const operators = words("operator");
      const forms = words("expression-keyword");
      expect(operators.length).toBeGreaterThan(0);
      expect(forms.length).toBeGreaterThan(0);
      expect([...operators, ...forms].filter((w) => !FORM_SET.has(w))).toEqual([]);
      // Entry by entry (the grammar's alternation order does not matter).
      const sorted = (xs: readonly string[]): string[] => [...xs].sort();
      expect(sorted(operators)).toEqual(sorted(FORMS.filter((f) => f.rule.kind === "pure").map((f) => f.name)));
      expect(sorted(forms)).toEqual(
        sorted(
          FORMS.filter(
            (f) => f.rule.kind !== "pure" && !f.name.includes(".") && !ARTIFACT_KEYWORDS.includes(f.name),
          ).map((f) => f.name),
        ),
      );
    });
  });
});
