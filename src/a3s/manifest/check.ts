/**
 * Manifest text → model + diagnostics, ordered so that the first diagnostic is the one A3S Use would
 * report (its parse error, else its first validation failure); strict-only findings follow.
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { diagnostic } from "../codes.js";
import { parseAcl } from "../acl/parse.js";
import { Omitted } from "../diagnostic-limit.js";
import { referenceMessage, splitReferenceMessage } from "../messages.js";
import { validateManifest, type ExtensionManifest } from "./schema.js";

export interface ManifestCheck {
  readonly manifest: ExtensionManifest | null;
  readonly diagnostics: Diagnostic[];
  /** Findings past the diagnostic limit (parse and schema): counted, never built. */
  readonly omitted: Omitted;
  /** What A3S Use would say: null when it accepts the manifest. */
  readonly reference: { code: string; message: string } | null;
}

export function checkManifestText(text: string, file: string): ManifestCheck {
  const acl = parseAcl(text, file);
  if (acl.blocks === null) {
    const first = acl.referenceError ? [acl.referenceError] : [];
    return {
      manifest: null,
      diagnostics: [...first, ...acl.strict],
      omitted: acl.omitted,
      reference: first[0] ? splitReferenceMessage(first[0].message) : null,
    };
  }
  const v = validateManifest(acl.blocks, file, acl.index);
  const strictErrors = acl.omitted.errors > 0 || acl.strict.some((d) => d.severity === "error");
  const firstRef = v.diagnostics.map((d) => splitReferenceMessage(d.message)).find((r) => r !== null) ?? null;
  const omitted = new Omitted();
  omitted.merge(v.omitted);
  omitted.merge(acl.omitted);
  return {
    manifest: strictErrors || v.omitted.errors > 0 ? null : v.manifest,
    diagnostics: [...v.diagnostics, ...acl.strict],
    omitted,
    reference: firstRef,
  };
}

/** Bytes → text; A3S Use requires UTF-8 and says so in its own words. */
export function decodeManifest(bytes: Uint8Array, file: string): { text: string } | { diagnostic: Diagnostic } {
  try {
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    return {
      diagnostic: diagnostic(
        "a3s.manifest.not_utf8",
        referenceMessage("use.extension.manifest_invalid", "Extension manifest must be UTF-8: invalid utf-8 sequence"),
        { file },
      ),
    };
  }
}
