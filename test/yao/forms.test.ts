/**
 * The language table (src/yao/forms.ts) read by docs/language.md, `yaoc explain`, the analyzer's
 * help and the language server: every row's example is a program the analyzer accepts, every form
 * the analyzer dispatches and every built-in type has a row, and each example uses its own form.
 */
import { describe, expect, it } from "vitest";
import { FORMS, TYPES } from "../../src/yao/forms.js";
import { RESERVED_FUNCTION_NAMES } from "../../src/yao/expressions.js";
import { RESERVED_TYPE_NAMES } from "../../src/yao/types.js";
import { analyzeExample } from "../support/yao-example.js";

describe("the language table", () => {
  it.each(FORMS.map((f) => [f.name, f.example]))("%s: its example is accepted", (name, example) => {
    expect(analyzeExample(example).map((d) => `${d.code}: ${d.message}`)).toEqual([]);
    expect(example).toMatch(new RegExp(`\\(${name.replace(".", "\\.")}[\\s)]`));
  });

  it.each(TYPES.map((t) => [t.name, t.example]))("%s: its example is accepted", (_name, example) => {
    expect(analyzeExample(example).map((d) => `${d.code}: ${d.message}`)).toEqual([]);
  });

  it("has a row for every built-in form and every built-in type, and nothing else", () => {
    const forms = new Set(FORMS.map((f) => f.name));
    const builtIn = [...RESERVED_FUNCTION_NAMES].filter((n) => !["eval", "fn", "requires", "types"].includes(n));
    expect([...forms].sort()).toEqual(builtIn.sort());
    expect(TYPES.map((t) => t.name).sort()).toEqual([...RESERVED_TYPE_NAMES].sort());
  });
});
