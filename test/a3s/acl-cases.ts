/**
 * One ACL case check, run over both sources (issue 33 item 5): our rule cases
 * (fixtures/a3s/cases/acl-parse.json, test/a3s/cases.test.ts) and the reference's
 * acl-0.2.2-parse-cases.json (test/reference/a3s-acl.test.ts, skipped with a reason without the
 * reference). A case the reference rejects is rejected first with the reference's own message and
 * also by the strict reader; an accepted one gives the reference's tree; every strict diagnostic is
 * located and says something.
 */
import { expect } from "vitest";
import { blockToReferenceJson } from "../../src/a3s/acl/ast.js";
import { parseAcl } from "../../src/a3s/acl/parse.js";
import { splitReferenceMessage } from "../../src/a3s/messages.js";

export type AclExpectation =
  /** `error`: the reference's parse error text, when the source records it. */
  | { ok: false; error?: string }
  /** `blocks`: the reference's tree, when recorded; `strict`: whether the strict reader must accept it silently. */
  | { ok: true; blocks?: unknown[]; strict?: "canonical" | "lenient" };

export function checkAclCase(input: string, expected: AclExpectation): void {
  const r = parseAcl(input, "a3s-use-extension.acl");
  const strictErrors = r.strict.filter((d) => d.severity === "error");
  if (!expected.ok) {
    expect(r.blocks).toBeNull();
    expect(splitReferenceMessage(r.referenceError!.message)).toEqual({
      code: "use.extension.manifest_invalid",
      message:
        expected.error === undefined
          ? expect.stringMatching(/^Failed to parse extension ACL: Parse error at line \d+, column \d+: /)
          : `Failed to parse extension ACL: ${expected.error}`,
    });
    expect(strictErrors.length).toBeGreaterThan(0);
  } else {
    // Inside or outside the canonical subset, the tree we validate is the reference's tree.
    expect(r.referenceError).toBeNull();
    expect(r.blocks).not.toBeNull();
    if (expected.blocks !== undefined) expect(r.blocks!.map(blockToReferenceJson)).toEqual(expected.blocks);
    if (expected.strict === "canonical") expect(strictErrors).toEqual([]);
    if (expected.strict === "lenient") expect(strictErrors.length).toBeGreaterThan(0);
  }
  for (const d of r.strict) {
    expect(d.span).toBeDefined();
    expect(d.message.length).toBeGreaterThan(10);
  }
}
