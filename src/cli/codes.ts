/** Diagnostics of the command-line front door itself. */
import { defineCodes } from "../diagnostics/codes.js";

export const CLI_CODES = defineCodes([
  { code: "cli.not_found", severity: "error", summary: "A path given on the command line does not exist (I/O error, exit 2).", clause: "yaoc CLI", layer: "L1", reason: "struct_path_not_found" },
  { code: "cli.no_match", severity: "error", summary: "A glob given to `yaoc check` matches no file or directory (usage error, exit 2).", clause: "yaoc CLI", layer: "L1", reason: "struct_glob_no_match" },
  { code: "cli.stdin", severity: "error", summary: "Standard input (`yaoc check -`) could not be read or is larger than 16 MiB (I/O error, exit 2).", clause: "yaoc CLI", layer: "L1", reason: "struct_stdin_unreadable" },
]);
