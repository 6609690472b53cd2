/**
 * The TextMate grammar (editors/vscode/syntaxes/yao.tmLanguage.json) tokenized with the engine VS
 * Code uses (vscode-textmate + vscode-oniguruma), compared with reviewed token snapshots in
 * test/grammar/__snapshots__/ (one line per token: line number, text, scopes).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as oniguruma from "vscode-oniguruma";
import * as textmate from "vscode-textmate";
import { REPO_ROOT } from "../support/shared.js";

const require = createRequire(import.meta.url);
const GRAMMAR = join(REPO_ROOT, "editors/vscode/syntaxes/yao.tmLanguage.json");

async function loadGrammar(): Promise<textmate.IGrammar> {
  const wasm = readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope: string) =>
      scope === "source.yao" ? textmate.parseRawGrammar(readFileSync(GRAMMAR, "utf8"), GRAMMAR) : null,
  });
  const grammar = await registry.loadGrammar("source.yao");
  if (grammar === null) throw new Error("grammar did not load");
  return grammar;
}

/** One line per non-whitespace token: `line:text  scopes` (the root scope left out). */
function tokenize(grammar: textmate.IGrammar, text: string): string {
  const out: string[] = [];
  let state = textmate.INITIAL;
  text.split("\n").forEach((line, i) => {
    const r = grammar.tokenizeLine(line, state);
    for (const t of r.tokens) {
      const slice = line.slice(t.startIndex, t.endIndex);
      if (slice.trim() === "") continue;
      const scopes = t.scopes.filter((s) => s !== "source.yao");
      out.push(`${i + 1}:${JSON.stringify(slice)} ${scopes.join(" ") || "-"}`);
    }
    state = r.ruleStack;
  });
  return `${out.join("\n")}\n`;
}

const FIXTURES = ["fixtures/grammar/tour.yao", "examples/review.hns", "fixtures/fmt/strings.yao"];

describe("Yao TextMate grammar", () => {
  for (const fixture of FIXTURES) {
    it(`tokenizes ${fixture} as the reviewed snapshot`, async () => {
      const grammar = await loadGrammar();
      const tokens = tokenize(grammar, readFileSync(join(REPO_ROOT, fixture), "utf8"));
      await expect(tokens).toMatchFileSnapshot(`__snapshots__/${fixture.replaceAll("/", "__")}.tokens`);
    });
  }

  it("scopes each construct as intended", async () => {
    const grammar = await loadGrammar();
    const scopesOf = (line: string, text: string): string[] => {
      const r = grammar.tokenizeLine(line, textmate.INITIAL);
      const at = line.indexOf(text);
      return r.tokens.find((t) => t.startIndex <= at && at < t.endIndex)!.scopes;
    };
    expect(scopesOf("(fn load (body 1))", "load")).toContain("entity.name.function.yao");
    expect(scopesOf("(fn load (body 1))", "fn")).toContain("keyword.other.artifact.yao");
    expect(scopesOf("(fn load (body 1))", "1")).toContain("constant.numeric.yao");
    expect(scopesOf('(a "x\\n")', "\\n")).toContain("constant.character.escape.yao");
    expect(scopesOf('(a "x\\q")', "\\q")).toContain("invalid.illegal.escape.yao");
    expect(scopesOf("(a) ; note", "; note")).toContain("comment.line.semicolon.yao");
    expect(scopesOf('(a "; not a comment")', "; not")).toContain("string.quoted.double.yao");
    expect(scopesOf("(add n 1)", "add")).toContain("keyword.operator.yao");
    expect(scopesOf("(seq x)", "seq")).toContain("keyword.control.yao");
    expect(scopesOf("(params (p String))", "String")).toContain("entity.name.type.yao");
    expect(scopesOf("(evidence.commit x)", "evidence.commit")).toContain("support.function.host.yao");
    // A symbol that merely contains a keyword or digits is not coloured as one.
    expect(scopesOf("(x add1 a2)", "add1")).toEqual(["source.yao"]);
    expect(scopesOf("(x a2)", "a2")).toEqual(["source.yao"]);
  });
});
