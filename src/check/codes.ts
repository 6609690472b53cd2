/**
 * Diagnostics of package-kind detection (the routing step of `check`, before any frontend runs) and
 * of the command-line front door. Both live here, below `src/cli`, so the registry and evidence can
 * read them without importing the CLI.
 */
import { defineCodes, diagnosticsFor, type CodeOf } from "../diagnostics/codes.js";

export const CHECK_CODES = defineCodes([
  {
    code: "check.no_marker",
    severity: "error",
    summary:
      "A directory holds none of the files that identify a package kind (`.hns` suffix, `harp.json`, `surface.json`+`policy.json`+`HARNESS.md`, `a3s-use-extension.acl`).",
    clause: "yaoc check",
    layer: "L1",
    reason: "struct_unknown_package_kind",
  },
  {
    code: "check.broken_link",
    severity: "error",
    summary: "The package path is a symbolic link that does not resolve (dangling, or a loop).",
    clause: "yaoc check",
    layer: "L1",
    reason: "struct_broken_link",
  },
]);

/** Diagnostics of the command-line front door itself. */
export const CLI_CODES = defineCodes([
  {
    code: "cli.not_found",
    severity: "error",
    summary: "A path given on the command line does not exist (I/O error, exit 2).",
    clause: "yaoc CLI",
    layer: "L1",
    reason: "struct_path_not_found",
  },
  {
    code: "cli.unreadable",
    severity: "error",
    summary:
      "A path given on the command line exists but cannot be used: permission denied, a directory that cannot be listed, a name too long, or an argument that is not UTF-8 (I/O error, exit 2).",
    clause: "yaoc CLI",
    layer: "L1",
    reason: "struct_path_unreadable",
  },
  {
    code: "cli.no_match",
    severity: "error",
    summary: "A glob given to `yaoc check` matches no file or directory (usage error, exit 2).",
    clause: "yaoc CLI",
    layer: "L1",
    reason: "struct_glob_no_match",
  },
  {
    code: "cli.stdin",
    severity: "error",
    summary: "Standard input (`yaoc check -`) could not be read or is larger than 16 MiB (I/O error, exit 2).",
    clause: "yaoc CLI",
    layer: "L1",
    reason: "struct_stdin_unreadable",
  },
  {
    code: "cli.worker",
    severity: "error",
    summary:
      "A worker thread of `yaoc check --jobs N` failed while checking a package (it could not start, threw or exited); the package has no result (exit 2). `--jobs 1` checks it in-process.",
    clause: "yaoc CLI",
    layer: "L1",
    reason: "struct_worker_failed",
  },
]);

export type CheckCode = CodeOf<typeof CHECK_CODES>;
export type CliCode = CodeOf<typeof CLI_CODES>;

/** Diagnostics of routing and the command line: codes from either table, severity from the row. */
export const diagnostic = diagnosticsFor([...CHECK_CODES, ...CLI_CODES] as const);
