/**
 * Keeps a long `yaoc check` run's memory flat in the number of packages.
 *
 * Nothing is retained per package (check-command.ts streams human and GitHub output and keeps only
 * the summary's counts): after a full collection the heap is the same after 200 packages as after
 * 1,000 (13.5 vs 13.7 MiB). The peak still grew with the count (200 × 64 KiB: 107 MiB, 1,000 × 64
 * KiB: 133 MiB, 5,000 × 4 KiB: 116 MiB against 80 MiB for 200), because each package's file buffers
 * and trees live through a few young-generation collections while it is checked, are promoted, and
 * then wait for a full collection that V8's heuristics put off while the old generation grows:
 * at the peak of the 1,000-package run, 27 MiB were dead file buffers (external memory) and 30 MiB
 * dead old-generation objects.
 *
 * So between two packages, when the heap plus external memory has grown `slackBytes` past what the
 * last full collection left, this asks V8 for one. A full collection of this heap takes about 10 ms;
 * with the default slack that is one per few dozen 64 KiB packages, about 1% of the run.
 *
 * `gc` is V8's own collector function, exposed at run time (`--expose-gc` set through
 * `v8.setFlagsFromString`, then taken from a fresh context, as V8's test runners do); if that is
 * not available the run goes on without it.
 */
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Growth of heap + external memory past the last full collection that triggers the next one. */
export const DEFAULT_SLACK_BYTES = 24 * 1024 * 1024;

export class FlatMemory {
  private floor: number;
  /** Full collections asked for so far. */
  collections = 0;

  private constructor(
    private readonly gc: () => void,
    private readonly slackBytes: number,
  ) {
    this.floor = inUse();
  }

  /** A keeper for this process, or null when V8's collector cannot be reached. */
  static start(slackBytes = DEFAULT_SLACK_BYTES): FlatMemory | null {
    const gc = exposedGc();
    return gc === null ? null : new FlatMemory(gc, slackBytes);
  }

  /** Between two packages: collect if the garbage has piled up past the slack. */
  between(): void {
    if (inUse() - this.floor < this.slackBytes) return;
    this.gc();
    this.collections++;
    this.floor = inUse();
  }
}

function inUse(): number {
  const h = getHeapStatistics();
  return h.used_heap_size + h.external_memory;
}

function exposedGc(): (() => void) | null {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === "function") return existing;
  try {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as unknown;
    return typeof gc === "function" ? (gc as () => void) : null;
  } catch {
    return null;
  }
}
