/** Process-facing helpers shared by the CLI commands. */

export type ColorMode = "always" | "never" | "auto";
export const COLOR_MODES: readonly ColorMode[] = ["always", "never", "auto"];

let colorMode: ColorMode = "auto";

/** Set by `--color=always|never|auto` before a command runs. */
export function setColorMode(mode: ColorMode): void {
  colorMode = mode;
}

/**
 * Whether to colour output on `stream`, in this order: `--color=always|never` decides; else
 * FORCE_COLOR set to anything but "" or "0"/"false" forces colour (and "0"/"false" turns it off);
 * else a non-empty NO_COLOR turns it off (no-color.org); else colour exactly on a terminal.
 */
export function useColor(stream: NodeJS.WriteStream): boolean {
  if (colorMode === "always") return true;
  if (colorMode === "never") return false;
  const force = process.env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  const noColor = process.env.NO_COLOR;
  if (noColor !== undefined && noColor !== "") return false;
  return Boolean(stream.isTTY);
}

export const EXIT_OK = 0;
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;

/** The exit codes every yaoc command follows; printed at the end of every help page. */
export const EXIT_CODE_TABLE = `Exit codes:
  ${EXIT_OK}  ok: every package valid, every check passed
  ${EXIT_INVALID}  invalid: some package is invalid or a check failed
  ${EXIT_USAGE}  usage or I/O error: a bad option, a missing path, an unreadable file`;
