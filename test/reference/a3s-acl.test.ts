import { expect, test } from "vitest";
import { parseAcl } from "../../src/a3s/acl/parse.js";
import { checkAclCase } from "../a3s/acl-cases.js";
import { describeReference, referenceJson } from "./reference.js";
import { REPO } from "./reference.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";

interface ParseCase {
  id: string;
  input: string;
  result: { ok: true; blocks: unknown[] } | { ok: false; error: string };
}

describeReference("ACL parser against acl-0.2.2-parse-cases.json", () => {
  const cases = referenceJson<ParseCase[]>("reference", "a3s", "acl-0.2.2-parse-cases.json");
  const ownCases = JSON.parse(readFileSync(join(REPO, "fixtures/a3s/cases/acl-parse.json"), "utf8")) as {
    id: string;
    expect: string;
  }[];
  test("there are cases", () => expect(cases.length).toBeGreaterThan(50));
  // The same check as our own cases (test/a3s/acl-cases.ts).
  test.each(cases.map((c) => [c.id, c] as const))("%s", (_id, c) =>
    checkAclCase(c.input, c.result.ok ? { ok: true, blocks: c.result.blocks } : { ok: false, error: c.result.error }),
  );

  test("canonical cases parse without strict diagnostics; every leniency is reported", () => {
    const verdicts = Object.fromEntries(
      cases.map((c) => [
        c.id,
        parseAcl(c.input, "x.acl")
          .strict.filter((d) => d.severity === "error")
          .map((d) => d.code),
      ]),
    );
    const canonical = Object.entries(verdicts)
      .filter(([, codes]) => codes.length === 0)
      .map(([id]) => id);
    // The reference's leniencies of §1.4 each have a case; none of them may be canonical for us.
    for (const lenient of [
      "missing-close-brace",
      "missing-close-brace-nested",
      "block-without-braces",
      "string-unterminated-newline",
      "string-unterminated-eof",
      "bare-ident-value",
      "duplicate-attribute",
      "lists",
      "list-leading-comma",
      "semicolons-and-junk",
      "ident-without-equals",
      "plus-equal-top",
      "plus-equal-in-block",
      "hyphen-key",
      "dotted-key",
      "quoted-key",
      "keyword-as-key",
      "block-ident-label",
      "ident-ident-newline",
      "value-missing-newline-then-attr",
      "string-multiline-attempt",
      "comment-single-slash",
      "comment-block-style",
      "url-unquoted",
      "numbers",
      "heredoc",
      "number-label",
      "object-value-nested-block-dropped",
      "ident-block-value",
      "backslash-newline-in-string",
      "exponent-then-dot",
    ]) {
      expect(canonical, lenient).not.toContain(lenient);
    }
    expect(canonical).toContain("fixture-plugin-v3-okf");
    expect(canonical).toContain("fixture-plugin-v3-okf-crlf");
    expect(canonical).toContain("fixture-plugin-v3-okf-bom");
  });

  test("our own cases of the same situations (fixtures/a3s/cases/acl-parse.json) get the same verdict", () => {
    const own = new Map(ownCases.map((c) => [c.id, c.expect]));
    let compared = 0;
    for (const c of cases) {
      const mine = own.get(c.id);
      if (mine === undefined) continue;
      compared++;
      expect(mine === "rejected", c.id).toBe(!c.result.ok);
    }
    expect(compared).toBeGreaterThanOrEqual(50);
  });
});
