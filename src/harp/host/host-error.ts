/**
 * The host's failure: `harp.*` diagnostics thrown by the host and the bundle writer alike. Its own
 * module so the bundle writer (bundle-from-snapshot.ts), which host.ts imports, need not import
 * host.ts back.
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";

export class HostError extends Error {
  constructor(readonly diagnostics: readonly Diagnostic[]) {
    super(diagnostics.map((d) => d.message).join("; "));
    this.name = "HostError";
  }
}
