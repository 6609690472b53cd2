/**
 * Yao highlighting for CodeMirror 6: a stream parser over the reader's token classes (grammar/yao.ts:
 * comments, parentheses, strings with `"…"` and `"""…"""` forms, symbols). Symbols are coloured by
 * role: HNS artifact roots and Yao special forms as keywords, capitalised names as types, numerals
 * as numbers, `true`/`false` as atoms.
 */
import { StreamLanguage, type StreamParser } from "@codemirror/language";

const KEYWORDS = new Set([
  // HNS artifacts and their fields
  "manifest",
  "contract",
  "mind",
  "fn",
  "eval",
  "infer",
  "requires",
  "params",
  "returns",
  "effects",
  "body",
  "visibility",
  "description",
  // Yao special forms (src/yao/expressions.ts)
  "and",
  "bind",
  "call",
  "context-transaction",
  "decode",
  "dict",
  "eq",
  "err",
  "evidence",
  "fallback",
  "from-json",
  "ge",
  "get",
  "gt",
  "if",
  "is",
  "json-object",
  "le",
  "list",
  "lt",
  "map",
  "match",
  "ne",
  "none",
  "not",
  "ok",
  "or",
  "outcome",
  "par",
  "record",
  "run",
  "seq",
  "some",
  "to-json",
  "variant",
  "let",
  "type",
]);

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
    if (/^[A-Z]/.test(word)) return "typeName";
    if (word.startsWith(":")) return "propertyName";
    return "variableName";
  },
  languageData: { commentTokens: { line: ";" }, closeBrackets: { brackets: ["(", '"'] } },
};

export const yaoLanguage = StreamLanguage.define(yaoStreamParser);
