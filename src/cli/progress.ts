/**
 * A one-line progress indicator on stderr for long commands (checking many packages, verifying a
 * catalog): `[3/120] checking pkgs/foo.hns`, redrawn in place. Only on a terminal: when stderr is
 * piped or redirected nothing is written, so logs and machine output stay clean. It is shown only
 * when there is more than one item, and cleared before anything else is printed on the terminal.
 */
export class Progress {
  private current = 0;
  private shown = false;
  private readonly enabled: boolean;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly total: number,
    private readonly verb: string,
  ) {
    this.enabled = Boolean(stream.isTTY) && total > 1;
  }

  /** Show that item `current + 1` (named `what`) is being worked on. */
  update(what: string): void {
    if (!this.enabled) return;
    const columns = this.stream.columns ?? 80;
    const line = `[${this.current + 1}/${this.total}] ${this.verb} ${what}`;
    const fitted = line.length >= columns ? `${line.slice(0, Math.max(0, columns - 2))}…` : line;
    this.stream.write(`\r\x1b[2K${fitted}`);
    this.shown = true;
  }

  /** One item finished. */
  done(): void {
    this.current++;
  }

  /** Erase the progress line (before printing results, and at the end). */
  clear(): void {
    if (!this.shown) return;
    this.stream.write("\r\x1b[2K");
    this.shown = false;
  }
}
