/**
 * When the language server re-checks: as soon as the event loop is free after a change, with no
 * fixed delay (see `kick`). Changes that arrive together are coalesced (a file changed three times before its
 * check starts is checked once, on its newest text), and a check overtaken by a change to its own
 * package while it ran is thrown away unpublished: the package is checked again on the newest text,
 * so no diagnostics for an outdated text are ever published. Checks run one at a time (they are
 * CPU-bound; interleaving two would only delay both). Browser-safe: the caller supplies `defer`.
 */
import { isWithin } from "../fs/paths.js";

/** The result of one check: the package root it covered, and what to do with it when it is still current. */
export interface ScheduledCheck {
  /** The package root (a file, or a directory holding every file of the package). */
  readonly root: string;
  /** Publish the result; called only when no change to the package arrived while it ran. */
  readonly publish: () => void;
  /** Whether the publication covers `path` (a waiting change to it then needs no check of its own). */
  readonly covers: (path: string) => boolean;
}

export class CheckScheduler {
  /** Files whose package needs a check, in the order their changes arrived. */
  private readonly dirty = new Set<string>();
  /** A counter bumped by every change; `changedAt` holds each file's last value. */
  private clock = 0;
  private readonly changedAt = new Map<string, number>();
  /** The last change that may affect any package (a change on disk), by the same clock. */
  private anyChangedAt = 0;
  private running = false;
  private deferred = false;

  constructor(
    private readonly check: (path: string) => Promise<ScheduledCheck>,
    private readonly defer: (run: () => void) => void,
    private readonly onError: (path: string, error: unknown) => void = () => undefined,
  ) {}

  /** The text of `path` changed (or it was opened or closed): check its package soon. */
  changed(path: string): void {
    this.changedAt.set(path, ++this.clock);
    this.dirty.add(path);
    this.kick();
  }

  /**
   * Something on disk changed that any package may read: a check running now is overtaken, and
   * the packages of `paths` are checked again.
   */
  diskChanged(paths: Iterable<string>): void {
    this.anyChangedAt = ++this.clock;
    for (const p of paths) this.dirty.add(p);
    this.kick();
  }

  /** No check is running or waiting (for tests and shutdown). */
  get idle(): boolean {
    return !this.running && !this.deferred && this.dirty.size === 0;
  }

  /**
   * Start checking once a whole turn of the event loop passed without a new change. The LSP
   * transport handles one queued message per turn, so a burst of changes already received (fast
   * typing, a paste sent in pieces) is applied in full before the check starts, at the cost of two
   * turns (microseconds) when there is no burst.
   */
  private kick(): void {
    if (this.running || this.deferred) return;
    this.deferred = true;
    let seen = Number.NaN;
    const turn = (): void => {
      if (this.clock !== seen) {
        seen = this.clock;
        this.defer(turn);
        return;
      }
      this.deferred = false;
      void this.drain();
    };
    this.defer(turn);
  }

  /** Check the package of the oldest dirty file, then wait for quiet again before the next. */
  private async drain(): Promise<void> {
    const path = first(this.dirty);
    if (path === undefined) return;
    this.dirty.delete(path);
    this.running = true;
    const started = this.clock;
    try {
      const result = await this.check(path);
      if (this.overtaken(result.root, started)) {
        // Checked on a text that is no longer current: nothing is published, and the package is
        // checked again (the newest change marked its own file; this keeps `path` queued too).
        this.dirty.add(path);
      } else {
        result.publish();
        // Files waiting since before this check began that its publication covers need no check of their own.
        for (const p of [...this.dirty])
          if (result.covers(p) && !((this.changedAt.get(p) ?? 0) > started)) this.dirty.delete(p);
      }
    } catch (e) {
      this.onError(path, e);
    } finally {
      this.running = false;
      // Change history only matters to a running check.
      this.changedAt.clear();
    }
    if (this.dirty.size > 0) this.kick();
  }

  /**
   * Did a change to something the check of the package at `root` reads arrive after `started`? A
   * single-file package reads itself; a directory package (or another frontend's package, whose
   * root is its directory) reads what lies below its root.
   */
  private overtaken(root: string, started: number): boolean {
    if (this.anyChangedAt > started) return true;
    for (const [file, at] of this.changedAt) if (at > started && isWithin(root, file)) return true;
    return false;
  }
}

function first(set: ReadonlySet<string>): string | undefined {
  for (const x of set) return x;
  return undefined;
}
