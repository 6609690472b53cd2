/**
 * program_hash against the reference: the five persisted v0.1.2 programs (upstream-asserted hashes),
 * the worked example of yao-v0.1.md §9.7 and the IR JSON Schema on those programs. Our own cases of
 * the same rules: test/yao/program-hash.test.ts, test/yao/golden.test.ts, test/yao/ir-schema.test.ts.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { type JObject, parseIrJson, writeJson } from "../../src/yao/json-text.js";
import { analyzeProgram, encodeProgram, programJson } from "../../src/yao/index.js";
import { parse } from "../yao/helpers.js";
import { persistedProgramCasesOn, sortedText } from "../yao/persisted-program-cases.js";
import { describeReference, MORPHZ, REPO, referenceText } from "./reference.js";

function compile(source: string) {
  const r = analyzeProgram(parse(source));
  expect(r.diagnostics).toEqual([]);
  return r;
}

describeReference("v0.1.2 persisted programs", () => {
  const fixture = parseIrJson(
    readFileSync(join(MORPHZ, "repo/yao/tests/fixtures/v0.1.2-programs@ba8397d.json"), "utf8"),
  ) as JObject[];
  const programs = fixture.map((p) => ({
    name: p.get("name") as string,
    source: p.get("source") as string,
    program: p.get("program")!,
    text: writeJson(p.get("program")!),
    hash: (p.get("program") as JObject).get("source_hash") as string,
  }));
  it("has the five programs", () => expect(programs.map((p) => p.name).length).toBe(5));
  // Hash, re-serialisation and the refusals: the same table as ours (test/yao/persisted-program-cases.ts).
  persistedProgramCasesOn(programs, programs[0]!.name);

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
});

describeReference("IR JSON Schema on the v0.1.2 persisted programs", () => {
  it("the v0.1.2 persisted programs are valid (legacy path kept)", () => {
    const validate = new Ajv2020({ strict: false }).compile(
      JSON.parse(readFileSync(join(REPO, "ir/yao-ir-0.1.schema.json"), "utf8")),
    );
    const fixture = JSON.parse(
      readFileSync(join(MORPHZ, "repo/yao/tests/fixtures/v0.1.2-programs@ba8397d.json"), "utf8"),
    ) as { program: unknown }[];
    for (const p of fixture) expect(validate(p.program), JSON.stringify(validate.errors)).toBe(true);
  });
});

describeReference("worked example of yao-v0.1.md §9.7", () => {
  it("§9.7 record example: direct serialisation byte for byte", () => {
    const r = compile("(eval (types (record Box (n Int))) (seq (bind x (record Box (n 42))) x.n))");
    // The reference prints the example with reading whitespace at line starts; the real text is compact.
    const doc = referenceText("reference", "yao-v0.1.md");
    const from = doc.indexOf("```json", doc.indexOf("### 9.7 Example")) + "```json\n".length;
    const expected = doc
      .slice(from, doc.indexOf("```", from))
      .split("\n")
      .map((l) => l.trim())
      .join("");
    expect(programJson(r.program!)).toBe(expected);
  });
});
