/** The RFC 8785 test vectors kept in the reference (our own vectors: fixtures/jcs, test/evidence/jcs.test.ts). */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { canonicalJson } from "../../src/json/jcs.js";
import { reproHashOf } from "../../src/evidence/canonicalize.js";
import { describeReference, referencePath } from "./reference.js";

describeReference("RFC 8785 vectors (jcs-vectors)", () => {
  const vectors = referencePath("reference", "jcs-vectors");
  const names = readdirSync(join(vectors, "input")).sort();
  const expected = JSON.parse(readFileSync(join(vectors, "expected-sha256.json"), "utf8")) as {
    vectors: Record<string, { bytes: number; sha256: string; first16: string }>;
  };
  it("has all six vectors", () => {
    expect(names).toEqual([
      "arrays.json",
      "french.json",
      "structures.json",
      "unicode.json",
      "values.json",
      "weird.json",
    ]);
  });
  for (const name of names) {
    it(name, () => {
      const input = JSON.parse(readFileSync(join(vectors, "input", name), "utf8")) as unknown;
      const out = canonicalJson(input);
      const bytes = Buffer.from(out, "utf8");
      expect(bytes.equals(readFileSync(join(vectors, "output", name)))).toBe(true);
      const hex = readFileSync(join(vectors, "outhex", name.replace(/\.json$/, ".txt")), "utf8")
        .replace(/\s+/g, "")
        .toLowerCase();
      expect(bytes.toString("hex")).toBe(hex);
      const e = expected.vectors[name]!;
      expect(bytes.length).toBe(e.bytes);
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(e.sha256);
      expect(reproHashOf(out)).toBe(e.first16);
    });
  }
});
