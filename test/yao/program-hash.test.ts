/**
 * program_hash against the reference: the five persisted v0.1.2 programs (upstream-asserted hashes)
 * and the worked examples of yao-v0.1.md §9 (hashes derived by the reference document's authors).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JObject, parseJson, writeJson } from "../../src/yao/json-text.js";
import { analyzeProgram, encodeProgram, programJson, readPersistedProgram, semaTestProfile } from "../../src/yao/index.js";
import { MORPHZ, parse, SHARED } from "./helpers.js";

const fixture = parseJson(readFileSync(join(MORPHZ, "repo/yao/tests/fixtures/v0.1.2-programs@ba8397d.json"), "utf8")) as JObject[];
const programs = fixture.map((p) => ({
  name: p.get("name") as string,
  source: p.get("source") as string,
  program: p.get("program")!,
  hash: (p.get("program") as JObject).get("source_hash") as string,
}));

function compile(source: string) {
  const r = analyzeProgram(parse(source));
  expect(r.diagnostics).toEqual([]);
  return r;
}

describe("v0.1.2 persisted programs", () => {
  it.each(programs)("$name: stored IR reproduces its source_hash and re-serialises identically", ({ program, hash }) => {
    const r = readPersistedProgram(program);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.programHash).toBe(hash);
    // Same data, keys sorted (the fixture file is written with sorted keys).
    expect(writeJson(encodeProgram(r.program), false).length).toBe(writeJson(program).length);
    expect(sortedText(encodeProgram(r.program))).toBe(sortedText(program));
  });

  it.each(programs.filter((p) => p.name === "literal" || p.name === "legacy_returns"))(
    "$name: recompiling the source gives the stored hash and the whole stored program",
    ({ source, hash, program }) => {
      const r = compile(source);
      expect(r.programHash).toBe(hash);
      expect(sortedText(encodeProgram(r.program!))).toBe(sortedText(program));
    },
  );

  it("programs 2–4 recompile to the current (path-less) encoding", () => {
    const hashes = programs.slice(1, 4).map((p) => compile(p.source).programHash);
    expect(hashes[0]).toBe("sha256:b6c6ed4f87aabecfc4d241f1112a59c1e8532e4b47392c0ae8fba7c377159558");
    expect(hashes[1]).toBe("sha256:e3b9d98769ee07e641e90eab7921def82ce649f6a4ef9d6659b113534f3aaa9e");
    expect(hashes[2]?.startsWith("sha256:6d91db89")).toBe(true);
  });

  it("a tampered program is rejected", () => {
    const text = writeJson(programs[0]!.program).replace('"value":42', '"value":43');
    const r = readPersistedProgram(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.diagnostic.code).toBe("yao.invalid_ir");
  });

  it("unknown keys inside a kind object are rejected", () => {
    const text = writeJson(programs[0]!.program).replace('"op":"literal"', '"op":"literal","extra":1');
    const r = readPersistedProgram(text);
    expect(r.ok).toBe(false);
  });
});

describe("reference worked examples (§9.7, §9.7b, §9.10)", () => {
  it("§9.7 record example: direct serialisation byte for byte", () => {
    const r = compile("(eval (types (record Box (n Int))) (seq (bind x (record Box (n 42))) x.n))");
    // The reference prints the example with reading whitespace at line starts; the real text is compact.
    const doc = readFileSync(join(SHARED, "reference/yao-v0.1.md"), "utf8");
    const from = doc.indexOf("```json", doc.indexOf("### 9.7 Example")) + "```json\n".length;
    const expected = doc.slice(from, doc.indexOf("```", from)).split("\n").map((l) => l.trim()).join("");
    expect(programJson(r.program!)).toBe(expected);
  });

  it("§9.7b linked application", () => {
    const fn = parse(
      '(fn add-one (visibility exported) (description "Add one") (params (value Int)) (returns Int) (effects) (body (add value 1)))',
    );
    const r = analyzeProgram(parse("(eval (add-one (value 41)))"), { functions: [fn] });
    expect(r.diagnostics).toEqual([]);
    expect(r.programHash).toBe("sha256:7b6c80704b7cf695d0adca9a50e0b0945ea6a4a6397bfb8894f518b758e0d4a7");
  });

  it("upstream identity equalities and inequalities", () => {
    const h = (s: string) => analyzeProgram(parse(s), { profile: semaTestProfile() }).programHash;
    expect(h('(eval (json-object (a 1) ("b" "x")))')).toBe(h('(eval (dict (a (to-json 1)) (b (to-json "x"))))'));
    expect(h("(eval (dict (b 2) (a 1)))")).toBe(h("(eval (dict (a 1) (b 2)))"));
    expect(h("(eval (par (branch a 1) (branch b 2)))")).not.toBe(h("(eval (par (branch b 2) (branch a 1)))"));
    expect(h('(eval """a\nb""")')).toBe(h('(eval "a\\nb")'));
    expect(h("(eval +7)")).toBe(h("(eval 7)"));
    expect(h("(eval 2.5)")).not.toBe(h("(eval 2.50)"));
  });
});

function sortedText(v: Parameters<typeof writeJson>[0]): string {
  // Sorted keys without stripping: compare data, not key order.
  return writeJson(sortKeys(v));
}

function sortKeys(v: Parameters<typeof writeJson>[0]): Parameters<typeof writeJson>[0] {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v instanceof JObject) return new JObject([...v.entries].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([k, x]) => [k, sortKeys(x)]));
  return v;
}
