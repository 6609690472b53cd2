/** Prints the one line that says the reference-conformance tests were skipped, and why. */
import { REFERENCE_PRESENT, REFERENCE_REQUIRED, SKIP_REASON } from "./reference.js";

export default function setup(): void {
  if (REFERENCE_PRESENT) return;
  process.stdout.write(
    REFERENCE_REQUIRED
      ? `reference-conformance tests (test/reference/) fail: YAOC_REQUIRE_REFERENCE=1 and ${SKIP_REASON}\n`
      : `reference-conformance tests (test/reference/) ${SKIP_REASON}\n`,
  );
}
