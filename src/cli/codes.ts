/** Diagnostics of the command-line front door itself. */
import { defineCodes } from "../diagnostics/codes.js";

export const CLI_CODES = defineCodes([
  { code: "cli.not_found", severity: "error", summary: "A path given on the command line does not exist (I/O error, exit 2).", clause: "yaoc CLI", layer: "L1", reason: "struct_path_not_found" },
]);
