/**
 * RFC 8785 vector checks as one routine, run over both sources (issue 33 item 5): our vectors in
 * fixtures/jcs (test/evidence/jcs.test.ts) and the reference's jcs-vectors
 * (test/reference/jcs.test.ts, skipped with a reason without the reference). Each vector: the
 * canonical bytes equal `output/NAME`, the text is a fixed point, and the repro hash is the first
 * 16 hex digits of its SHA-256; a source that also ships hex dumps and expected hashes is checked
 * against them too.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { reproHashOf } from "../../src/evidence/canonicalize.js";
import { canonicalJson } from "../../src/json/jcs.js";

export function jcsVectorsOn(vectors: string, expectedNames: readonly string[]): void {
  const names = readdirSync(join(vectors, "input")).sort();
  const sums = join(vectors, "expected-sha256.json");
  const expected = existsSync(sums)
    ? (JSON.parse(readFileSync(sums, "utf8")) as {
        vectors: Record<string, { bytes: number; sha256: string; first16: string }>;
      })
    : undefined;
  it(`has the ${expectedNames.length} vectors`, () => {
    expect(names.length).toBeGreaterThan(0);
    expect(names).toEqual(expectedNames);
  });
  for (const name of names) {
    it(name, () => {
      const input = JSON.parse(readFileSync(join(vectors, "input", name), "utf8")) as unknown;
      const out = canonicalJson(input);
      const bytes = Buffer.from(out, "utf8");
      expect(bytes.equals(readFileSync(join(vectors, "output", name)))).toBe(true);
      expect(canonicalJson(JSON.parse(out))).toBe(out);
      const sha = createHash("sha256").update(bytes).digest("hex");
      expect(reproHashOf(out)).toBe(sha.slice(0, 16));
      const hexFile = join(vectors, "outhex", name.replace(/\.json$/, ".txt"));
      if (existsSync(hexFile))
        expect(bytes.toString("hex")).toBe(readFileSync(hexFile, "utf8").replace(/\s+/g, "").toLowerCase());
      if (expected !== undefined) {
        const e = expected.vectors[name]!;
        expect([bytes.length, sha, reproHashOf(out)]).toEqual([e.bytes, e.sha256, e.first16]);
      }
    });
  }
}
