/** Process-facing helpers shared by the CLI commands. */

/** Colour only on a terminal, and never when NO_COLOR is set to a non-empty value (no-color.org). */
export function useColor(stream: NodeJS.WriteStream): boolean {
  const noColor = process.env.NO_COLOR;
  return Boolean(stream.isTTY) && (noColor === undefined || noColor === "");
}

export const EXIT_OK = 0;
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;
