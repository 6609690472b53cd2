/**
 * Yao highlighting for CodeMirror 6: a stream parser over the reader's token classes (grammar/yao.ts:
 * comments, parentheses, strings with `"…"` and `"""…"""` forms, symbols). Symbols are coloured by
 * role: HNS artifact roots and the forms of the language table as keywords, built-in and
 * capitalised names as types, numerals as numbers, `true`/`false` as atoms.
 */
import { StreamLanguage, type StreamParser } from "@codemirror/language";
import { ARTIFACT_KEYWORDS, BUILTIN_TYPES } from "../../src/lsp/operators.js";
import { FORMS } from "../../src/yao/forms.js";

/**
 * Keywords: every expression form of the language table (src/yao/forms.ts, which the guide, `yaoc
 * explain` and the language server's hover read too: `add`, `host.view`, `evidence.commit`,
 * `context.propose`…) and the HNS artifact and clause keywords. Nothing else: `let` and `type` are
 * not Yao. Built-in type names (`Int`, `List`, `Option`…) are types.
 */
export const KEYWORDS: ReadonlySet<string> = new Set([...FORMS.map((f) => f.name), ...ARTIFACT_KEYWORDS]);
const BUILTIN_TYPE_NAMES: ReadonlySet<string> = new Set(BUILTIN_TYPES);

interface State {
  /** Inside a triple-quoted string that continues on the next line. */
  longString: boolean;
}

const isDelimiter = (c: string): boolean => /[\s()";]/.test(c);

export const yaoStreamParser: StreamParser<State> = {
  name: "yao",
  startState: () => ({ longString: false }),
  token(stream, state) {
    if (state.longString) {
      while (!stream.eol()) {
        if (stream.match('"""')) {
          state.longString = false;
          return "string";
        }
        stream.next();
      }
      return "string";
    }
    if (stream.eatSpace()) return null;
    const c = stream.peek();
    if (c === ";") {
      stream.skipToEnd();
      return "comment";
    }
    if (c === "(" || c === ")") {
      stream.next();
      return "paren";
    }
    if (stream.match('"""')) {
      state.longString = true;
      return yaoStreamParser.token(stream, state);
    }
    if (c === '"') {
      stream.next();
      let escaped = false;
      while (!stream.eol()) {
        const ch = stream.next();
        if (ch === '"' && !escaped) return "string";
        escaped = ch === "\\" && !escaped;
      }
      return "string";
    }
    let word = "";
    while (!stream.eol() && !isDelimiter(stream.peek()!)) word += stream.next();
    if (word === "") {
      stream.next();
      return null;
    }
    if (/^[+-]?\d[\d_.eE+-]*$/.test(word)) return "number";
    if (word === "true" || word === "false") return "atom";
    if (KEYWORDS.has(word)) return "keyword";
    if (BUILTIN_TYPE_NAMES.has(word) || /^[A-Z]/.test(word)) return "typeName";
    if (word.startsWith(":")) return "propertyName";
    return "variableName";
  },
  languageData: { commentTokens: { line: ";" }, closeBrackets: { brackets: ["(", '"'] } },
};

export const yaoLanguage = StreamLanguage.define(yaoStreamParser);
