/** The building blocks of teaching diagnostics: did-you-mean, display width and ordering. */
import { describe, expect, it } from "vitest";
// A renderer input of any code: tests may use the builder that is private to src/diagnostics.
import { diagnostic } from "../../src/diagnostics/build.js";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { displayWidth } from "../../src/diagnostics/display-width.js";
import { orderDiagnostics } from "../../src/diagnostics/order.js";
import { renderDiagnosticText } from "../../src/diagnostics/render.js";
import { closestName, didYouMean } from "../../src/diagnostics/suggest.js";

describe("did-you-mean", () => {
  it("suggests the closest name within a third of the word's length", () => {
    expect(closestName("Strin", ["String", "Int", "Json"])).toBe("String");
    expect(closestName("cuont", ["count", "limit"])).toBe("count");
    expect(closestName("widht", ["width", "height"])).toBe("width");
    expect(didYouMean("raed", ["read", "search"])).toBe("did you mean 'read'?");
  });

  it("suggests nothing for far-off or very short words, except a case difference", () => {
    expect(closestName("banana", ["String", "Int"])).toBeUndefined();
    expect(closestName("x", ["n", "y"])).toBeUndefined();
    expect(closestName("id", ["ID", "it"])).toBe("ID");
    expect(closestName("string", ["String", "Strong"])).toBe("String");
    expect(closestName("same", ["same"])).toBeUndefined();
  });
});

describe("display width", () => {
  it("counts wide characters as two columns and combining marks as none", () => {
    expect(displayWidth("abc")).toBe(3);
    expect(displayWidth("数据")).toBe(4);
    expect(displayWidth("🙂")).toBe(2);
    expect(displayWidth("e\u0301")).toBe(1);
    expect(displayWidth("\t")).toBe(1);
  });

  it("puts carets under the span after wide characters", () => {
    const source = '(title "数据🙂") (bad x)\n';
    const start = Array.from('(title "数据🙂") (bad ').length + 1;
    const d = diagnostic("t.code", "msg", {
      file: "f",
      span: { start: { byte: 0, line: 1, column: start }, end: { byte: 0, line: 1, column: start + 1 } },
      label: "here",
    });
    const lines = renderDiagnosticText(d, new Map([["f", source]])).split("\n");
    const caretLine = lines[3]!;
    const codeLine = lines[2]!;
    // In display columns, the caret sits exactly under the 'x'.
    const codeText = codeLine.slice(codeLine.indexOf("| ") + 2);
    const caretText = caretLine.slice(caretLine.indexOf("| ") + 2);
    expect(displayWidth(codeText.slice(0, codeText.indexOf("x")))).toBe(caretText.indexOf("^"));
    expect(caretText.trimStart()).toBe("^ here");
  });
});

describe("ordering", () => {
  const at = (file: string, byte: number, code = "c", severity: "error" | "warning" = "error"): Diagnostic =>
    diagnostic(code, `${file}@${byte}`, {
      file,
      severity,
      span: { start: { byte, line: 1, column: byte + 1 }, end: { byte, line: 1, column: byte + 1 } },
    });

  it("keeps the given first error first and sorts the rest by file and position, stably", () => {
    const first = at("b", 9);
    const ds = [at("b", 5, "w", "warning"), first, at("a", 7), at("b", 1), at("a", 2), at("a", 2, "second")];
    expect(orderDiagnostics(ds, first).map((d) => `${d.message}:${d.code}`)).toEqual([
      "b@9:c",
      "a@2:c",
      "a@2:second",
      "a@7:c",
      "b@1:c",
      "b@5:w",
    ]);
  });
});
