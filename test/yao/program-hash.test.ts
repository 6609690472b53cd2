/**
 * program_hash: our persisted programs (a legacy one with `reference.path`, and the goldens), through
 * the same table as the reference's v0.1.2 programs (test/yao/persisted-program-cases.ts), and the
 * worked examples of yao-v0.1.md §9.7b/§9.10 re-written as our own sources. The reference's own
 * persisted programs and §9.7: test/reference/yao-program-hash.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeJson } from "../../src/yao/json-text.js";
import { sha256Hex } from "../../src/canonical/hash.js";
import {
  analyzeProgram,
  encodeProgram,
  identityText,
  programHash,
  programJson,
  readPersistedProgram,
  semaTestProfile,
} from "../../src/yao/index.js";
import { parse, REPO } from "./helpers.js";
import { persistedProgramCasesOn } from "./persisted-program-cases.js";

function compile(source: string) {
  const r = analyzeProgram(parse(source));
  expect(r.diagnostics).toEqual([]);
  return r;
}

describe("persisted programs (fixtures/yao/persisted, golden/yao)", () => {
  const legacyText = readFileSync(join(REPO, "fixtures/yao/persisted/legacy-reference-path.program.json"), "utf8");
  const legacySource = readFileSync(join(REPO, "fixtures/yao/persisted/legacy-reference-path.yao"), "utf8");
  persistedProgramCasesOn(
    [
      { name: "legacy-reference-path", text: legacyText },
      ...["record-box", "effects-tour", "linked-module", "candidates", "json-and-options"].map((name) => ({
        name,
        text: readFileSync(join(REPO, `golden/yao/${name}.program.json`), "utf8"),
      })),
    ],
    "record-box",
  );

  it("the legacy program (reference.path kept) re-serialises to its stored text byte for byte", () => {
    const r = readPersistedProgram(legacyText);
    if (!r.ok) throw new Error(r.diagnostic.message);
    expect(writeJson(encodeProgram(r.program), false)).toBe(legacyText.trimEnd());
  });

  it("recompiling the legacy program's source gives the current (path-less) encoding and another hash", () => {
    const r = compile(legacySource);
    expect(programJson(r.program!)).not.toContain('"path"');
    const legacy = readPersistedProgram(legacyText);
    expect(legacy.ok && legacy.programHash).not.toBe(r.programHash);
    // Without the legacy path the two programs are the same data.
    expect(programJson(r.program!)).toBe(
      legacyText
        .trimEnd()
        .replaceAll(',"path":[]', "")
        .replace(/"source_hash":"sha256:[0-9a-f]{64}"/, `"source_hash":"${r.programHash}"`),
    );
  });
});

describe("program_hash encodes no spans", () => {
  it("equals the hash of the full encoding with its spans stripped by the identity writer (§9.10)", () => {
    const programs = ["record-box", "effects-tour", "linked-module", "candidates", "json-and-options"].map((name) => {
      const r = readPersistedProgram(readFileSync(join(REPO, `golden/yao/${name}.program.json`), "utf8"));
      if (!r.ok) throw new Error(r.diagnostic.message);
      return r.program;
    });
    for (const p of programs) {
      const full = encodeProgram(p);
      expect(writeJson(full)).toContain('"span":');
      const hash = programHash(p);
      expect(hash).toBe(`sha256:${sha256Hex(identityText(full))}`);
      // Spans are written again after the hash is taken.
      expect(writeJson(encodeProgram(p))).toBe(writeJson(full));
    }
  });
});

describe("worked examples (§9.7b, §9.10)", () => {
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
