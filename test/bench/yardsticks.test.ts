/**
 * The bench's hand-written readers are yardsticks only if they read what `readAll` reads: figure a1
 * compares readAll with a reader that builds the same tree (issue 19), so the tree must be the same,
 * node for node, on every input the bench times.
 */
import { describe, expect, it } from "vitest";
import { minimalRead, type MinimalNode } from "../../bench/baselines/minimal-reader.js";
import { spanRead } from "../../bench/baselines/span-reader.js";
import { corpus, hnsPackage, readerCorpus } from "../../bench/inputs.js";
import { readAll } from "../../src/syntax/reader.js";
import type { SNode } from "../../src/syntax/tree.js";

const inputs: [string, string][] = [
  ["realistic 16 KiB", readerCorpus(16 * 1024 - 512)],
  ["package 16 KiB", hnsPackage(16 * 1024 - 512)],
  ["corpus 16 KiB", corpus(16 * 1024 - 512).yao],
];

/** Everything a node says about the source: kind, text, offsets (spans derive from those). */
function shape(n: SNode): unknown {
  const at = n as unknown as { from: number; to: number };
  switch (n.kind) {
    case "symbol":
      return ["symbol", n.name, at.from, at.to];
    case "string":
      return ["string", n.value, n.block, at.from, at.to];
    case "list":
      return ["list", at.from, at.to, n.items.map(shape)];
  }
}

function bare(n: SNode): MinimalNode {
  return n.kind === "symbol" ? n.name : n.kind === "string" ? { s: n.value } : n.items.map(bare);
}

describe("bench yardsticks read what readAll reads", () => {
  for (const [name, text] of inputs) {
    it(`span-reader builds readAll's tree, with the same offsets and spans: ${name}`, () => {
      const r = readAll(text);
      if (!r.ok) throw new Error(r.diagnostic.message);
      const ours = spanRead(text);
      expect(ours.map(shape)).toEqual(r.forms.map(shape));
      const last = ours.length - 1;
      expect(ours[last]!.span).toEqual({ ...r.forms[last]!.span, file: "<input>" });
      expect(JSON.stringify(ours.map(shape)).length).toBeGreaterThan(text.length / 2);
    });

    it(`minimal-reader builds the same tree without spans: ${name}`, () => {
      const r = readAll(text);
      if (!r.ok) throw new Error(r.diagnostic.message);
      expect(minimalRead(text)).toEqual(r.forms.map(bare));
    });
  }
});
