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

  it("sorts purely by file, then position, then code, stably; no error is pulled to the front", () => {
    const ds = [
      at("b", 5, "w", "warning"),
      at("b", 9),
      at("a", 7),
      at("b", 1),
      at("a", 2, "z.late"),
      at("a", 2, "second"),
      at("a", 2, "second", "warning"),
    ];
    expect(orderDiagnostics(ds).map((d) => `${d.message}:${d.code}:${d.severity}`)).toEqual([
      "a@2:second:error",
      "a@2:second:warning",
      "a@2:z.late:error",
      "a@7:c:error",
      "b@1:c:error",
      "b@5:w:warning",
      "b@9:c:error",
    ]);
  });

  it("puts a span-less diagnostic first in its file and a closing *_limit note last", () => {
    const note = diagnostic("x.diagnostic_limit", "3 more not shown", { file: "a", severity: "info" });
    const whole = diagnostic("x.file_problem", "the file as a whole", { file: "b" });
    const notLimit = diagnostic("x.source_limit", "an error about a limit", { file: "b" });
    const ds = [note, at("b", 4), whole, at("a", 3), notLimit];
    expect(orderDiagnostics(ds).map((d) => d.code)).toEqual([
      "c",
      "x.file_problem",
      "x.source_limit",
      "c",
      "x.diagnostic_limit",
    ]);
    expect(orderDiagnostics(ds)[0]!.file).toBe("a");
  });
});
