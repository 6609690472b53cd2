/**
 * HARP v1 diagnostic codes. Clause numbers refer to the HARP spec (seed 001); C-numbers to the
 * conformance cases listed in docs/harp.md.
 */
import { defineCodes } from "../diagnostics/codes.js";

export const HARP_CODES = defineCodes([
  // Reading the manifest.
  { code: "harp.manifest_missing", severity: "error", summary: "the package has no harp.json at its root", clause: "HARP §7.1", layer: "L1", reason: "struct_manifest_missing" },
  { code: "harp.manifest_unreadable", severity: "error", summary: "harp.json is not a readable regular file inside the package", clause: "HARP §7.1", layer: "L1", reason: "struct_manifest_unreadable" },
  { code: "harp.manifest_too_large", severity: "error", summary: "harp.json exceeds the size limit", clause: "HARP §7.2", layer: "L2", reason: "size_manifest_over_limit" },
  { code: "harp.not_a_directory", severity: "error", summary: "a HARP package must be a directory", clause: "HARP §7.1", layer: "L1", reason: "struct_not_a_directory" },
  { code: "harp.json_syntax", severity: "error", summary: "harp.json is not valid JSON (RFC 8259)", clause: "HARP §7.2", layer: "L1", reason: "struct_json_syntax" },
  { code: "harp.json_too_deep", severity: "error", summary: "harp.json nests values deeper than the parser allows", clause: "HARP §7.2", layer: "L2", reason: "size_json_too_deep" },
  { code: "harp.duplicate_key", severity: "error", summary: "a JSON object in harp.json repeats a member name", clause: "HARP §7.3", layer: "L5", reason: "ident_duplicate_key" },
  { code: "harp.not_a_manifest", severity: "error", summary: "harp.json has no schemaVersion, so it is not a HARP manifest (e.g. a Harp static-site config)", clause: "HARP §7.2, §12", layer: "L6", reason: "meta_no_schema_version" },
  { code: "harp.unsupported_schema_version", severity: "error", summary: "schemaVersion is higher than this host supports; the host does not guess", clause: "HARP §12", layer: "L8", reason: "struct_schema_version_unsupported" },
  // Schema (§7.7) violations.
  { code: "harp.missing_field", severity: "error", summary: "a required member is missing", clause: "HARP §7.7", layer: "L1", reason: "struct_missing_field" },
  { code: "harp.unknown_field", severity: "error", summary: "a member without the x- prefix is not part of HARP v1 (C02)", clause: "HARP §7.3", layer: "L1", reason: "struct_unknown_field" },
  { code: "harp.reserved_field", severity: "error", summary: "ready / operations / invoke are reserved names, not v1 fields (C02)", clause: "HARP §7.6, §10.4", layer: "L1", reason: "struct_reserved_field" },
  { code: "harp.wrong_type", severity: "error", summary: "a member has the wrong JSON type", clause: "HARP §7.7", layer: "L1", reason: "struct_wrong_type" },
  { code: "harp.invalid_value", severity: "error", summary: "a member's value is not allowed by the v1 schema", clause: "HARP §7.7", layer: "L1", reason: "struct_invalid_value" },
  { code: "harp.out_of_range", severity: "error", summary: "a string, array or number is outside the schema's limits", clause: "HARP §7.7", layer: "L2", reason: "size_out_of_range" },
  { code: "harp.invalid_kind", severity: "error", summary: "runtime.kind is not a registered HARP kind (C03)", clause: "HARP §7.4", layer: "L1", reason: "struct_invalid_kind" },
  { code: "harp.unsupported_kind", severity: "error", summary: "runtime.kind is a reserved kind this host does not run (C15)", clause: "HARP §7.4, §18", layer: "L4", reason: "perm_unsupported_kind" },
  // Beyond the schema: start.argv (§7.3, §7.5).
  { code: "harp.executable_path_invalid", severity: "error", summary: "a package executable in argv[0] must be relative, without '..', inside the package", clause: "HARP §7.5.2", layer: "L3", reason: "danger_executable_path" },
  { code: "harp.executable_missing", severity: "error", summary: "the package executable named by argv[0] does not exist in the package", clause: "HARP §7.5.2", layer: "L1", reason: "struct_executable_missing" },
  { code: "harp.executable_escapes", severity: "error", summary: "argv[0] is a symbolic link that resolves outside the package", clause: "HARP §7.5.2, §17", layer: "L3", reason: "danger_symlink_escape" },
  { code: "harp.executable_not_file", severity: "error", summary: "argv[0] names a directory or special file, not a regular file", clause: "HARP §7.5.2", layer: "L3", reason: "danger_executable_not_file" },
  { code: "harp.runtime_name_invalid", severity: "error", summary: "a host runtime name in argv[0] must be a bare name such as node or python", clause: "HARP §7.5.1", layer: "L1", reason: "struct_runtime_name" },
  { code: "harp.argv_path_escapes", severity: "error", summary: "a path-like start.argv entry is absolute or leaves the package root", clause: "HARP §7.3, §17", layer: "L3", reason: "danger_argv_path_escape" },
  { code: "harp.platform_unavailable", severity: "warning", summary: "start.platforms is declared but has no entry for the current platform; the host will refuse to start", clause: "HARP §7.5.3", layer: "L8", reason: "struct_platform_missing" },
  { code: "harp.openapi_path_invalid", severity: "error", summary: "entrypoints.openapi must be a package-relative path inside the package", clause: "HARP §10.2", layer: "L3", reason: "danger_openapi_path" },
  { code: "harp.openapi_missing", severity: "warning", summary: "entrypoints.openapi names a file that is not in the package", clause: "HARP §10.2", layer: "L1", reason: "struct_openapi_missing" },
  // Author obligations (§9.4, §17).
  { code: "harp.secret_in_manifest", severity: "error", summary: "the manifest appears to contain a secret (key, token or password)", clause: "HARP §9.4, §17", layer: "L3", reason: "danger_secret_in_manifest" },
  { code: "harp.absolute_path", severity: "error", summary: "the manifest contains an absolute file-system path", clause: "HARP §17", layer: "L3", reason: "danger_absolute_path" },
  { code: "harp.home_directory", severity: "error", summary: "the manifest refers to a user's home directory", clause: "HARP §7.3, §17", layer: "L5", reason: "ident_home_directory" },
  // Host (Runtime ABI, §8, §9, §13).
  { code: "harp.platform_refused", severity: "error", summary: "start.platforms has no entry for this host's platform, so the host refuses to start (no fallback to another architecture)", clause: "HARP §7.5.3", layer: "L8", reason: "struct_platform_refused" },
  { code: "harp.runtime_unavailable", severity: "error", summary: "argv[0] names a host runtime that this host does not provide", clause: "HARP §7.5.1, §9.5", layer: "L4", reason: "perm_runtime_unavailable" },
  { code: "harp.permission_unenforceable", severity: "error", summary: "the host cannot enforce a declared permission on this machine, so it refuses to start", clause: "HARP §9, §13", layer: "L4", reason: "perm_unenforceable" },
  { code: "harp.network_consent_required", severity: "error", summary: "network: allow needs the user's explicit consent (--allow-network)", clause: "HARP §9.1, §13", layer: "L4", reason: "perm_network_consent" },
  { code: "harp.id_changed", severity: "error", summary: "an upgrade must keep the installed id", clause: "HARP §8.5", layer: "L5", reason: "ident_id_changed" },
  { code: "harp.not_installed", severity: "error", summary: "no app with this id is installed", clause: "HARP §16", layer: "L8", reason: "struct_not_installed" },
  { code: "harp.already_running", severity: "error", summary: "the app is already running", clause: "HARP §16", layer: "L8", reason: "struct_already_running" },
  { code: "harp.start_failed", severity: "error", summary: "the process exited before it became ready", clause: "HARP §8.3", layer: "L8", reason: "struct_exit_before_ready" },
  { code: "harp.ready_timeout", severity: "error", summary: "the app did not answer the health check with 2xx within timeoutMs", clause: "HARP §8.3", layer: "L8", reason: "struct_ready_timeout" },
  { code: "harp.install_failed", severity: "error", summary: "copying the package into the host failed", clause: "HARP §16", layer: "L7", reason: "audit_install_failed" },
  { code: "harp.busy", severity: "error", summary: "another yaoc operation on the same app did not finish in time (one operation at a time per app)", clause: "HARP §16", layer: "L8", reason: "struct_app_busy" },
  { code: "harp.interrupted", severity: "error", summary: "the operation was interrupted (Ctrl-C or SIGTERM); the host stopped what it had started", clause: "HARP §16", layer: "L8", reason: "struct_interrupted" },
  { code: "harp.io_error", severity: "error", summary: "the host could not read, write or remove one of its own files", clause: "HARP §16", layer: "L7", reason: "audit_host_io" },
  { code: "harp.non_utf8_name", severity: "error", summary: "A package entry's name is not valid UTF-8, so the content digest cannot name it; the package is invalid (never skipped)", clause: "HARP §13, §17", layer: "L3", reason: "struct_undecodable_entry_name" },
  { code: "harp.package_file_rejected", severity: "error", summary: "the package contains a file the host will not copy (special file or escaping link)", clause: "HARP §13, §17", layer: "L3", reason: "danger_package_file" },
]);

export type HarpCode = (typeof HARP_CODES)[number]["code"];

const bySeverity = new Map(HARP_CODES.map((r) => [r.code, r.severity] as const));

/** The table's severity for a code (so call sites cannot drift from the table). */
export function harpSeverity(code: HarpCode): "error" | "warning" | "info" {
  return bySeverity.get(code)!;
}
