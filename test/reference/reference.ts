/**
 * The one door to the reference material kept beside the repository (`<repo>/../shared`: the specs'
 * reference notes, the Morphz fixtures, the A3S Use ground-truth cases, the RFC 8785 vectors).
 *
 * Only the reference-conformance tests in this folder may read it, and only through this module
 * (test/repo/no-reference-reads.test.ts enforces both). The material is never copied into the
 * repository: every rule these tests compare is also exercised by fixtures of our own in
 * `fixtures/`, so a clone without `../shared` still tests every code, path rule, digest and CLI
 * behaviour. When the folder is absent, each suite is skipped with the reason in its title, and the
 * global setup prints one line saying so. With YAOC_REQUIRE_REFERENCE=1 (set by .ci/run when
 * ../shared is there) an absent folder fails every suite instead, so CI cannot pass by skipping them.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));
/** `<repo>/../shared`, where CI (and every developer checkout of the workspace) keeps the reference. */
export const REFERENCE_ROOT = fileURLToPath(new URL("../../../shared/", import.meta.url));
export const REFERENCE_PRESENT = existsSync(join(REFERENCE_ROOT, "reference"));
export const SKIP_REASON = `skipped: the reference material ../shared (${REFERENCE_ROOT}) is not beside the repository; CI runs these`;
/** Set by .ci/run when ../shared is present: a reference suite that would be skipped fails instead. */
export const REFERENCE_REQUIRED = process.env["YAOC_REQUIRE_REFERENCE"] === "1";

/** A path inside `../shared` (e.g. `reference/a3s/acl-0.2.2-parse-cases.json`). */
export function referencePath(...parts: string[]): string {
  return join(REFERENCE_ROOT, ...parts);
}
export function referenceText(...parts: string[]): string {
  return readFileSync(referencePath(...parts), "utf8");
}
export function referenceJson<T>(...parts: string[]): T {
  return JSON.parse(referenceText(...parts)) as T;
}

export const MORPHZ = referencePath("reference", "morphz-fixtures");
export const A3S = referencePath("reference", "a3s");

/**
 * A reference-conformance suite: runs when `../shared` is present; otherwise its body is not even
 * collected (so it may read reference files at collection time) and one test stands in for it,
 * asserting that the material is there: skipped with the reason in its title, or, when
 * YAOC_REQUIRE_REFERENCE=1, run, so it fails.
 */
export function describeReference(title: string, body: () => void): void {
  if (REFERENCE_PRESENT) describe(`reference-conformance: ${title}`, body);
  else
    describe(`reference-conformance: ${title}`, () => {
      it.skipIf(!REFERENCE_REQUIRED)(`the reference material is present (${SKIP_REASON})`, () => {
        expect(REFERENCE_PRESENT, `YAOC_REQUIRE_REFERENCE=1 but ${referencePath("reference")} is missing`).toBe(true);
      });
    });
}
