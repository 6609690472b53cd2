/** Prints the one line that says the reference-conformance tests were skipped, and why. */
import { REFERENCE_PRESENT, SKIP_REASON } from "./reference.js";

export default function setup(): void {
  if (!REFERENCE_PRESENT) process.stdout.write(`reference-conformance tests (test/reference/) ${SKIP_REASON}\n`);
}
