/**
 * Issue 35 item 11: `npm run fuzz` has a MemoryFs tree target and an LSP message target. Here each
 * runs on its seeds and on a few fixed mutations of them (cut short, bytes flipped, a line
 * repeated), so a target that stopped working — no seeds, or seeds that no longer reach the code
 * they fuzz — fails the suite instead of fuzzing nothing.
 */
import { describe, expect, it } from "vitest";
import { target } from "../../scripts/fuzz-targets.js";

/** Deterministic variants of `input`: a prefix, flipped bytes, a doubled middle. */
function variants(input: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [input.slice(0, Math.floor(input.length / 2))];
  const flipped = input.slice();
  let x = 12345;
  for (let i = 0; i < 16; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    const at = x % flipped.length;
    flipped[at] = flipped[at]! ^ (1 << (x >>> 29));
  }
  out.push(flipped);
  const mid = Math.floor(input.length / 2);
  const doubled = new Uint8Array(input.length + mid);
  doubled.set(input.subarray(0, mid));
  doubled.set(input.subarray(0, mid), mid);
  doubled.set(input.subarray(mid), 2 * mid);
  out.push(doubled);
  return out;
}

describe.each(["memfs", "lsp"] as const)("fuzz target %s", (name) => {
  const t = target(name);
  const seeds = t.seeds();

  it("has seeds, and each seed as it is reaches the code it fuzzes", async () => {
    expect(seeds.length).toBeGreaterThan(0);
    for (const seed of seeds.slice(0, 6)) {
      // memfs: the snapshot's entries plus check's diagnostics; lsp: requests answered plus frame events.
      expect(await t.run(seed, seed.files[seed.key]!), seed.id).toBeGreaterThan(name === "lsp" ? 3 : 1);
    }
  }, 120_000);

  it("runs mutated inputs without an exception", async () => {
    for (const seed of seeds.slice(0, 4))
      for (const input of variants(seed.files[seed.key]!)) expect(typeof (await t.run(seed, input))).toBe("number");
  }, 120_000);
});
