/** ACL reader properties beyond the rule cases (those are in test/a3s/cases.test.ts). */
import { describe, expect, test } from "vitest";
import { parseAcl } from "../../src/a3s/acl/parse.js";

describe("ACL reader", () => {
  test("spans are UTF-8 bytes with scalar columns", () => {
    const r = parseAcl('名字 { 值 = "世界" }\nb { k = ; }', "x.acl");
    const junk = r.strict.find((d) => d.code === "a3s.acl.stray_character")!;
    expect(junk.span!.start).toEqual({ byte: 34, line: 2, column: 9 });
  });

  test("hostile nesting is a diagnostic, not a stack overflow", () => {
    const deep = `a { k = ${"[".repeat(100000)}${"]".repeat(100000)} }`;
    expect(parseAcl(deep, "x.acl").strict.map((d) => d.code)).toContain("a3s.acl.too_deep");
    const chain = `a ${"b ".repeat(50000)}`;
    const r = parseAcl(chain, "x.acl");
    expect(r.blocks).toBeNull();
    expect(r.strict.map((d) => d.code)).toContain("a3s.acl.too_deep");
  });
});
