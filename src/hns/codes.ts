/** HNS package loader diagnostics (HNS v0.1 §4–§14; loader reference §10–§11). */
import { defineCodes, diagnosticsFor, type CodeOf } from "../diagnostics/codes.js";

export const HNS_CODES = defineCodes([
  { code: "hns.not_found", severity: "error", summary: "The package path does not exist or is neither a file nor a directory (I/O error, exit 2).", clause: "HNS §4, §11 step 1", layer: "L1", reason: "struct_package_not_found" },
  { code: "hns.io_error", severity: "error", summary: "A package file could not be read (I/O error, exit 2).", clause: "HNS §11", layer: "L1", reason: "struct_unreadable_file" },
  { code: "hns.bad_suffix", severity: "error", summary: "The package file or directory name does not end in `.hns`.", clause: "HNS §4.1, §4.2, §11 step 1", layer: "L1", reason: "struct_bad_suffix" },
  { code: "hns.artifact_not_list", severity: "error", summary: "A top-level artifact is an atom, not a list.", clause: "HNS §5", layer: "L1", reason: "struct_artifact_not_list" },
  { code: "hns.wrong_root", severity: "error", summary: "An artifact has no root name, a string root, or the wrong root for its file.", clause: "HNS §4.2, §5", layer: "L1", reason: "struct_wrong_root" },
  { code: "hns.duplicate_artifact", severity: "error", summary: "A single-cardinality artifact (manifest, contract, mind, eval/infer) appears more than once.", clause: "HNS §4.1, §4.2", layer: "L1", reason: "struct_duplicate_artifact" },
  { code: "hns.unknown_artifact", severity: "error", summary: "A top-level artifact other than manifest, contract, mind, fn, eval or infer.", clause: "HNS §4.1", layer: "L1", reason: "struct_unknown_artifact" },
  { code: "hns.missing_artifact", severity: "error", summary: "A required artifact (manifest, contract, entry) or its file is missing.", clause: "HNS §4.1, §4.2, §14", layer: "L1", reason: "struct_missing_artifact" },
  { code: "hns.duplicate_fn", severity: "error", summary: "Two `fn` artifacts share a name.", clause: "HNS §4.1, §4.2, §11 step 8", layer: "L1", reason: "struct_duplicate_fn" },
  { code: "hns.malformed_fn", severity: "error", summary: "An `fn` artifact lacks its name, has a bad `visibility`, or does not have exactly one `(body …)`.", clause: "HNS §9.4", layer: "L1", reason: "struct_malformed_fn" },
  { code: "hns.missing_field", severity: "error", summary: "A required manifest field (id, version, title; entry for directories) is missing.", clause: "HNS §6.1, §11 step 4", layer: "L1", reason: "struct_missing_manifest_field" },
  { code: "hns.duplicate_field", severity: "error", summary: "A manifest scalar field or `capabilities` appears more than once.", clause: "HNS §6.1", layer: "L1", reason: "struct_duplicate_manifest_field" },
  { code: "hns.bad_scalar", severity: "error", summary: "A manifest scalar field does not hold exactly one atom or string.", clause: "HNS §6.1", layer: "L1", reason: "struct_bad_manifest_scalar" },
  { code: "hns.empty_field", severity: "error", summary: "The manifest `id` or `version` is empty or has leading/trailing whitespace.", clause: "HNS §6.2, §6.3; loader ref H7, H13", layer: "L5", reason: "ident_empty_or_padded_id" },
  { code: "hns.empty_title", severity: "warning", summary: "The manifest `title` is empty.", clause: "HNS §6.4; loader ref H7", layer: "L6", reason: "meta_empty_title" },
  { code: "hns.bad_capabilities", severity: "error", summary: "`capabilities` items are not lists, lack a name, or hold non-atomic names.", clause: "HNS §6.6", layer: "L1", reason: "struct_bad_capabilities" },
  { code: "hns.unknown_field", severity: "warning", summary: "A manifest item yaoc ignores (unknown field, non-list item); it is not part of the identity.", clause: "HNS §6.1, §16 item 6; loader ref H7", layer: "L6", reason: "meta_ignored_manifest_item" },
  { code: "hns.unknown_capability", severity: "warning", summary: "A capability category other than `tools` and `skills`; it grants nothing and is not part of the identity.", clause: "HNS §6.6; loader ref H7", layer: "L4", reason: "perm_unknown_capability_category" },
  { code: "hns.entry_escape", severity: "error", summary: "A directory entry path is absolute, contains `..`, or resolves (through links) outside the package.", clause: "HNS §6.5, §11 step 5, §15", layer: "L4", reason: "perm_entry_escapes_package" },
  { code: "hns.bad_entry_path", severity: "error", summary: "A directory entry path is empty, has `.` or empty components, a backslash, a drive prefix or NUL, or does not end in `.yao`.", clause: "HNS §6.5; loader ref H6", layer: "L1", reason: "struct_bad_entry_path" },
  { code: "hns.entry_not_found", severity: "error", summary: "The directory entry path does not name an existing file.", clause: "HNS §4.2, §11 step 5", layer: "L1", reason: "struct_entry_not_found" },
  { code: "hns.entry_root", severity: "error", summary: "The entry program's root is not `eval` or `infer`.", clause: "HNS §9.1, §11 step 6", layer: "L1", reason: "struct_entry_root" },
  { code: "hns.in_band_version", severity: "error", summary: "The entry declares `(version …)`; Yao sources have no in-band version.", clause: "Yao ref §4.1", layer: "L1", reason: "struct_in_band_version" },
  { code: "hns.bad_requires", severity: "error", summary: "The entry's `(requires …)` is malformed: a non-list clause, `tools` twice, a non-symbol or duplicate tool.", clause: "HNS §9.2; loader ref H14", layer: "L4", reason: "perm_malformed_requires" },
  { code: "hns.missing_requires", severity: "error", summary: "A model-owned `(infer …)` entry has no `(requires (tools …))` upper bound.", clause: "HNS §9.2; loader ref V1, H5", layer: "L4", reason: "perm_model_entry_without_tool_bound" },
  { code: "hns.tool_not_in_manifest", severity: "error", summary: "The entry declares a tool the manifest's `capabilities` do not list.", clause: "HNS §9.2, §11 step 7", layer: "L4", reason: "perm_tool_outside_manifest" },
  { code: "hns.missing_module_requires", severity: "error", summary: "A package with `fn` artifacts has no module `(requires (tools …))` bound on its entry.", clause: "HNS §9.2, §9.4; loader ref V3, H5", layer: "L4", reason: "perm_module_without_tool_bound" },
  { code: "hns.non_utf8_name", severity: "error", summary: "An entry in the package directory has a name that is not valid UTF-8; it cannot be represented in the identity, so the package is invalid (never skipped).", clause: "HNS §15", layer: "L4", reason: "struct_undecodable_entry_name" },
  { code: "hns.file_escape", severity: "error", summary: "A package file resolves (through a symlink) outside the package root.", clause: "HNS §15; loader ref H2", layer: "L4", reason: "perm_file_escapes_package" },
  { code: "hns.not_regular_file", severity: "error", summary: "A package file is a FIFO, device, socket or directory; it is rejected without being opened.", clause: "HNS §15; loader ref H3", layer: "L3", reason: "danger_special_file" },
  { code: "hns.non_yao_function_file", severity: "error", summary: "`functions/` holds an entry whose extension is not exactly `.yao`.", clause: "HNS §4.2", layer: "L1", reason: "struct_non_yao_function_file" },
  { code: "hns.functions_not_directory", severity: "error", summary: "`functions` exists but is not a directory inside the package.", clause: "HNS §4.2", layer: "L1", reason: "struct_functions_not_directory" },
  { code: "hns.error_limit", severity: "info", summary: "Closing note: the package has more than 200 errors; only the first 200 are shown.", clause: "yaoc", layer: "L6", reason: "meta_error_limit" },
  { code: "hns.package_limit", severity: "error", summary: "The package exceeds an aggregate limit (total bytes or number of function files).", clause: "HNS §14, §15; loader ref H4", layer: "L2", reason: "size_package_over_limit" },
]);

/** Every Hns code; a code outside HNS_CODES is a compile error. */
export type HnsCode = CodeOf<typeof HNS_CODES>;

/** Diagnostics of this table: the code must be one of its rows and the severity is the row's. */
export const diagnostic = diagnosticsFor(HNS_CODES);
