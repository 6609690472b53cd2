/**
 * Persisted Yao programs (program_hash, yao-v0.1.md §9) through one table of checks, run over both
 * sources (issue 33 item 5): our persisted programs (fixtures/yao/persisted and golden/yao, in
 * test/yao/program-hash.test.ts) and the reference's v0.1.2 programs with upstream-asserted hashes
 * (test/reference/yao-program-hash.test.ts, skipped with a reason without the reference).
 */
import { expect, it } from "vitest";
import { JObject, type JValue, parseIrJson, writeJson } from "../../src/yao/json-text.js";
import { encodeProgram, readPersistedProgram } from "../../src/yao/index.js";

export interface PersistedProgram {
  readonly name: string;
  /** The program's JSON text as stored. */
  readonly text: string;
}

/**
 * Every program reproduces its stored source_hash and re-serialises to the same data (compared with
 * keys sorted, since a source may store them sorted); `tamper` names the program the refusal cases
 * edit (it must hold a literal 42).
 */
export function persistedProgramCasesOn(programs: readonly PersistedProgram[], tamper: string): void {
  it("has programs", () => expect(programs.length).toBeGreaterThan(0));
  it.each(programs)(
    "$name: the stored IR reproduces its source_hash and re-serialises to the same data",
    ({ text }) => {
      const stored = parseIrJson(text) as JObject;
      const r = readPersistedProgram(text);
      if (!r.ok) throw new Error(r.diagnostic.message);
      expect(r.programHash).toBe(stored.get("source_hash"));
      expect(writeJson(encodeProgram(r.program), false).length).toBe(writeJson(stored).length);
      expect(sortedText(encodeProgram(r.program))).toBe(sortedText(stored));
    },
  );
  const edited = () => {
    const text = writeJson(parseIrJson(programs.find((p) => p.name === tamper)!.text));
    expect(text).toContain('"value":42');
    expect(text).toContain('"op":"literal"');
    return text;
  };
  it("a tampered program is rejected", () => {
    const r = readPersistedProgram(edited().replace('"value":42', '"value":43'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostic.code).toBe("yao.invalid_ir");
  });
  it("unknown keys inside a kind object are rejected", () => {
    const r = readPersistedProgram(edited().replace('"op":"literal"', '"op":"literal","extra":1'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostic.code).toBe("yao.invalid_ir");
  });
}

export function sortedText(v: JValue): string {
  return writeJson(sortKeys(v));
}

function sortKeys(v: JValue): JValue {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v instanceof JObject)
    return new JObject([...v.entries].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([k, x]) => [k, sortKeys(x)]));
  return v;
}
