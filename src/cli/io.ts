/** Process-facing helpers shared by the CLI commands. */

/** Colour only on a terminal, and never when NO_COLOR is set to a non-empty value (no-color.org). */
export function useColor(stream: NodeJS.WriteStream): boolean {
  const noColor = process.env.NO_COLOR;
  return Boolean(stream.isTTY) && (noColor === undefined || noColor === "");
}

/** The one exit-code table of every command (README "Exit codes", `yaoc help`). */
export const EXIT_OK = 0;
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;

/**
 * A reader that goes away (`yaoc catalog list | head -1`) is not a failure of the command: output
 * stops quietly, the command runs to its end and exits with the code it would have had (so
 * `catalog verify | head` never looks like "corrupt"). Any other write error (a full disk) is an
 * I/O error: exit 2, said once on stderr when stderr still works.
 */
export function endQuietlyOnClosedPipe(): void {
  let reported = false;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EPIPE" || e.code === "ERR_STREAM_DESTROYED") return;
      process.exitCode = EXIT_USAGE;
      if (reported || stream === process.stderr) return;
      reported = true;
      process.stderr.write(`yaoc: cannot write output: ${e.code ?? e.message}\n`);
    });
  }
}
