/**
 * The collector keeper of long `yaoc check` runs (flat-memory.ts): between two packages it asks for a
 * full collection only once heap plus external memory has grown past its slack, and the collection
 * really frees the garbage that had piled up.
 */
import { getHeapStatistics } from "node:v8";
import { describe, expect, it } from "vitest";
import { FlatMemory } from "../../src/cli/flat-memory.js";

const inUse = (): number => {
  const h = getHeapStatistics();
  return h.used_heap_size + h.external_memory;
};

describe("FlatMemory", () => {
  it("collects once garbage passes the slack, and not before", () => {
    const memory = FlatMemory.start(8 * 1024 * 1024);
    expect(memory).not.toBeNull();
    memory!.between();
    expect(memory!.collections).toBe(0);
    // Garbage like a checked package's tree: many small objects, well past the slack.
    let garbage: { i: number; s: string }[] | null = Array.from({ length: 400_000 }, (_, i) => ({ i, s: `n${i}` }));
    expect(garbage.length).toBe(400_000);
    garbage = null;
    const before = inUse();
    memory!.between();
    expect(memory!.collections).toBe(1);
    expect(inUse()).toBeLessThan(before - 8 * 1024 * 1024);
    memory!.between();
    expect(memory!.collections).toBe(1);
  });
});
