/** Diagnostics of package-kind detection (the routing step of `check`, before any frontend runs). */
import { defineCodes } from "../diagnostics/codes.js";

export const CHECK_CODES = defineCodes([
  { code: "check.no_marker", severity: "error", summary: "A directory holds none of the files that identify a package kind (`.hns` suffix, `harp.json`, `surface.json`+`policy.json`+`HARNESS.md`, `a3s-use-extension.acl`).", clause: "yaoc check", layer: "L1", reason: "struct_unknown_package_kind" },
  { code: "check.broken_link", severity: "error", summary: "The package path is a symbolic link that does not resolve (dangling, or a loop).", clause: "yaoc check", layer: "L1", reason: "struct_broken_link" },
]);
