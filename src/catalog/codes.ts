/** Package catalog diagnostics (HNS v0.1 §6.3, §10.3, §12, §14, §15; loader reference §8, H8). */
import { defineCodes, diagnosticsFor } from "../diagnostics/codes.js";

export const CATALOG_CODES = defineCodes([
  {
    code: "catalog.conflict",
    severity: "error",
    summary:
      "A different identity is already installed under the same (id, version); nothing was overwritten (exit 1).",
    clause: "HNS §6.3, §11 step 11, §12, §14; loader ref §8.1, §8.2",
    layer: "L5",
    reason: "ident_same_version_replacement",
  },
  {
    code: "catalog.corrupt",
    severity: "error",
    summary:
      "A stored object or binding no longer reloads to the identity it is filed under (a changed byte, a truncated or unparsable file).",
    clause: "HNS §10.3, §12, §15; loader ref §8.3",
    layer: "L5",
    reason: "ident_stored_content_mismatch",
  },
  {
    code: "catalog.dangling",
    severity: "error",
    summary: "A binding names an identity whose stored object is missing, so the installed package is not recoverable.",
    clause: "HNS §10.3, §12",
    layer: "L7",
    reason: "audit_binding_without_object",
  },
  {
    code: "catalog.rejected",
    severity: "error",
    summary:
      "The package failed `check`, or is not an HNS package, and was not installed; invalid packages and other kinds are never stored.",
    clause: "HNS §11, §14",
    layer: "L1",
    reason: "struct_package_rejected",
  },
  {
    code: "catalog.bad_name",
    severity: "error",
    summary: "The package id or version contains a control character, which the catalog refuses to list or address.",
    clause: "HNS §6.2, §6.3, §15; loader ref H8",
    layer: "L5",
    reason: "ident_control_character_in_name",
  },
  {
    code: "catalog.not_found",
    severity: "error",
    summary: "No package is installed under the requested ID@VERSION (exit 1).",
    clause: "HNS §12",
    layer: "L1",
    reason: "struct_package_not_installed",
  },
  {
    code: "catalog.bad_reference",
    severity: "error",
    summary: "A package reference is not of the form ID@VERSION (usage error, exit 2).",
    clause: "yaoc CLI",
    layer: "L1",
    reason: "struct_bad_package_reference",
  },
  {
    code: "catalog.ambiguous_reference",
    severity: "error",
    summary:
      "An ID@VERSION reference splits at more than one `@` into installed packages; quote the exact pair through the library API (exit 2).",
    clause: "yaoc CLI",
    layer: "L1",
    reason: "struct_ambiguous_package_reference",
  },
  {
    code: "catalog.bad_output",
    severity: "error",
    summary: "The export target is not named NAME.hns (usage error, exit 2).",
    clause: "HNS §4.1",
    layer: "L1",
    reason: "struct_bad_export_path",
  },
  {
    code: "catalog.bad_format",
    severity: "error",
    summary: "The catalog directory is not a yaoc catalog, or one of another format version (exit 2).",
    clause: "HNS §12",
    layer: "L8",
    reason: "struct_unknown_catalog_format",
  },
  {
    code: "catalog.export_limit",
    severity: "error",
    summary:
      "The package's single-file encoding exceeds the 262,144-byte single-file limit, so `catalog export` could not write it as one loadable .hns file; it is refused at install (exit 1).",
    clause: "HNS §4.1, §12; yao-v0.1 §2.3",
    layer: "L5",
    reason: "ident_export_exceeds_single_file_limit",
  },
  {
    code: "catalog.read_only",
    severity: "error",
    summary:
      "The catalog directory cannot be written (read-only mount or no write permission); install and gc need to write (exit 2).",
    clause: "HNS §12",
    layer: "L1",
    reason: "struct_catalog_read_only",
  },
  {
    code: "catalog.io",
    severity: "error",
    summary: "The catalog storage could not be read or written (I/O error, exit 2).",
    clause: "HNS §12",
    layer: "L1",
    reason: "struct_catalog_io",
  },
  {
    code: "catalog.stray_file",
    severity: "warning",
    summary: "A file in the catalog that the layout does not define; it is ignored, never trusted.",
    clause: "HNS §15",
    layer: "L7",
    reason: "audit_stray_catalog_file",
  },
  {
    code: "catalog.unreferenced",
    severity: "info",
    summary:
      "A stored object that no binding references (an interrupted or losing install); `yaoc catalog gc` removes it.",
    clause: "HNS §12",
    layer: "L7",
    reason: "audit_unreferenced_object",
  },
]);

export type CatalogCode = (typeof CATALOG_CODES)[number]["code"];

/** Builds a catalog diagnostic; the code must be a row and the severity is the row's. */
export const diagnostic = diagnosticsFor(CATALOG_CODES);
