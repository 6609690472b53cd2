import { describe, expect, test } from "vitest";
import { parseAcl } from "../../src/a3s/acl.js";
import { blockToReferenceJson } from "../../src/a3s/acl-ast.js";
import { splitReferenceMessage } from "../../src/a3s/messages.js";
import { loadReference } from "./helpers.js";

interface ParseCase {
  id: string;
  input: string;
  result: { ok: true; blocks: unknown[] } | { ok: false; error: string };
}

const cases = loadReference<ParseCase[]>("acl-0.2.2-parse-cases.json");

describe("ACL parser against acl-0.2.2-parse-cases.json", () => {
  test.each(cases.map((c) => [c.id, c] as const))("%s", (_id, c) => {
    const r = parseAcl(c.input, "a3s-use-extension.acl");
    const strictErrors = r.strict.filter((d) => d.severity === "error");
    if (c.result.ok) {
      // Inside or outside the canonical subset, the tree we validate is the reference's tree.
      expect(r.referenceError).toBeNull();
      expect(r.blocks?.map(blockToReferenceJson)).toEqual(c.result.blocks);
    } else {
      // The reference rejects it: so do we, first with the reference's own message.
      expect(r.blocks).toBeNull();
      const ref = splitReferenceMessage(r.referenceError!.message);
      expect(ref).toEqual({ code: "use.extension.manifest_invalid", message: `Failed to parse extension ACL: ${c.result.error}` });
      expect(strictErrors.length).toBeGreaterThan(0);
    }
    for (const d of r.strict) {
      expect(d.span).toBeDefined();
      expect(d.message.length).toBeGreaterThan(10);
    }
  });

  test("canonical cases parse without strict diagnostics; every leniency is reported", () => {
    const verdicts = Object.fromEntries(
      cases.map((c) => [c.id, parseAcl(c.input, "x.acl").strict.filter((d) => d.severity === "error").map((d) => d.code)]),
    );
    const canonical = Object.entries(verdicts).filter(([, codes]) => codes.length === 0).map(([id]) => id);
    // The reference's leniencies of §1.4 each have a case; none of them may be canonical for us.
    for (const lenient of [
      "missing-close-brace", "missing-close-brace-nested", "block-without-braces", "string-unterminated-newline",
      "string-unterminated-eof", "bare-ident-value", "duplicate-attribute", "lists", "list-leading-comma",
      "semicolons-and-junk", "ident-without-equals", "plus-equal-top", "plus-equal-in-block", "hyphen-key",
      "dotted-key", "quoted-key", "keyword-as-key", "block-ident-label", "ident-ident-newline",
      "value-missing-newline-then-attr", "string-multiline-attempt", "comment-single-slash", "comment-block-style",
      "url-unquoted", "numbers", "heredoc", "number-label", "object-value-nested-block-dropped", "ident-block-value",
      "backslash-newline-in-string", "exponent-then-dot",
    ]) {
      expect(canonical, lenient).not.toContain(lenient);
    }
    expect(canonical).toContain("fixture-plugin-v3-okf");
    expect(canonical).toContain("fixture-plugin-v3-okf-crlf");
    expect(canonical).toContain("fixture-plugin-v3-okf-bom");
  });

  test("spans are UTF-8 bytes with scalar columns", () => {
    const r = parseAcl('名字 { 值 = "世界" }\nb { k = ; }', "x.acl");
    const junk = r.strict.find((d) => d.code === "a3s.acl.stray_character")!;
    expect(junk.span!.start).toEqual({ byte: 34, line: 2, column: 9 });
  });

  test("hostile nesting is a diagnostic, not a stack overflow", () => {
    const deep = "a { k = " + "[".repeat(100000) + "]".repeat(100000) + " }";
    expect(parseAcl(deep, "x.acl").strict.map((d) => d.code)).toContain("a3s.acl.too_deep");
    const chain = "a " + "b ".repeat(50000);
    const r = parseAcl(chain, "x.acl");
    expect(r.blocks).toBeNull();
    expect(r.strict.map((d) => d.code)).toContain("a3s.acl.too_deep");
  });
});
