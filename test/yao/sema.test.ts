/**
 * The analyzer's rules on our own sema cases (fixtures/yao/sema) under the sema test profile: one
 * case per rule of the reference's sema unit tests (compared in test/reference/yao-sema.test.ts).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { analyzeProgram, debugEffects, debugType, semaTestProfile } from "../../src/yao/index.js";
import { parseFile, REPO } from "./helpers.js";

const SEMA = join(REPO, "fixtures/yao/sema");
const profile = semaTestProfile();
const analyze = (name: string) => analyzeProgram(parseFile(join(SEMA, name)), { profile });

describe("sema rules (fixtures/yao/sema)", () => {
  it("float-bindings: Int and Float arithmetic is Float, no effects", () => {
    const r = analyze("float-bindings.yao");
    expect(r.diagnostics).toEqual([]);
    expect(debugType(r.outputType!)).toBe("Float");
    expect(r.effects).toEqual([]);
  });

  it("reject-dollar-reference: names the binding without '$'", () => {
    const [d] = analyze("reject-dollar-reference.yao").diagnostics;
    expect(d?.code).toBe("yao.unknown_name");
    expect(d?.message).toBe("binding references do not use '$'; replace '$count' with 'count'");
  });

  it("reject-heterogeneous-dict: the conflicting field on line 4, the representative on line 3", () => {
    const [d] = analyze("reject-heterogeneous-dict.yao").diagnostics;
    expect(d?.code).toBe("yao.type_mismatch");
    expect(d?.span?.start.line).toBe(4);
    expect(d?.related?.[0]?.span?.start.line).toBe(3);
    expect(d?.message).toContain("dict field 'score'");
    expect(d?.message).toContain("homogeneous (Map T)");
    expect(d?.referenceMessage).toContain("homogeneous Map<T>");
    expect(d?.message).toContain("named record");
  });

  it("union-match-exhaustive: String output", () => {
    const r = analyze("union-match-exhaustive.yao");
    expect(r.diagnostics).toEqual([]);
    expect(debugType(r.outputType!)).toBe("String");
  });

  it("reject-effect-escape: infer outside requires.effects", () => {
    const [d] = analyze("reject-effect-escape.yao").diagnostics;
    expect(d?.code).toBe("yao.effect_escape");
    expect(d?.message).toContain("Remove requires.effects");
    expect(d?.message).toContain("(effects infer)");
    expect(d?.referenceMessage).toContain("EffectSet({Infer})");
  });

  it("reject-infer-without-capture: infer sees no outer binding", () => {
    const [d] = analyze("reject-infer-without-capture.yao").diagnostics;
    expect(d?.code).toBe("yao.unknown_name");
    expect(d?.message).toBe("unknown binding 'limit'");
  });

  it("reject-recursive-types: names the first type of the cycle in name order (Leaf before Node)", () => {
    const [d] = analyze("reject-recursive-types.yao").diagnostics;
    expect(d?.code).toBe("yao.recursive_type");
    expect(d?.message).toBe("recursive type 'Leaf' is not supported in Yao v0.1");
  });

  it("reject-version-declaration", () => {
    const [d] = analyze("reject-version-declaration.yao").diagnostics;
    expect(d?.code).toBe("yao.invalid_type");
    expect(d?.message).toBe("Yao source has no in-band version declaration; remove (version ...)");
  });

  it("static-effects: infer, tool search, tool read, host objective.report (in effect order)", () => {
    const r = analyze("static-effects.yao");
    expect(r.diagnostics).toEqual([]);
    expect(debugEffects(r.effects!)).toBe('EffectSet({Infer, Tool("read"), Tool("search"), Host("objective.report")})');
  });

  it("cycle: the cycle path, wrapped per enclosing function", () => {
    const dir = join(SEMA, "cycle");
    const r = analyzeProgram(parseFile(join(dir, "entry.yao")), {
      profile,
      allowInternal: true,
      functions: [parseFile(join(dir, "fn_ping.yao")), parseFile(join(dir, "fn_pong.yao"))],
    });
    const [d] = r.diagnostics;
    expect(d?.code).toBe("yao.recursive_function");
    expect(d?.message).toBe(
      "in fn 'ping': in fn 'pong': recursive HNS function cycle is not supported: ping -> pong -> ping",
    );
    expect(r.failedFunction).toBe("pong");
  });

  describe("transitive effects through an internal function", () => {
    const dir = join(SEMA, "transitive");
    const functions = () => [parseFile(join(dir, "fn_fetch.yao")), parseFile(join(dir, "fn_fetch-raw.yao"))];

    it("entry-ok (model-authored): effects {tool read}", () => {
      const r = analyzeProgram(parseFile(join(dir, "entry-ok.yao")), { profile, functions: functions() });
      expect(r.diagnostics).toEqual([]);
      expect(debugEffects(r.effects!)).toBe('EffectSet({Tool("read")})');
    });

    it("entry-reject-escape: per-application tool bound", () => {
      const r = analyzeProgram(parseFile(join(dir, "entry-reject-escape.yao")), { profile, functions: functions() });
      expect(r.diagnostics[0]?.code).toBe("yao.effect_escape");
      expect(r.diagnostics[0]?.message).toBe("fn 'fetch' reaches tool 'read' outside the program requires.tools set");
    });

    it("entry-reject-package-bound (allowInternal): module tool bound", () => {
      const r = analyzeProgram(parseFile(join(dir, "entry-reject-package-bound.yao")), {
        profile,
        allowInternal: true,
        functions: functions(),
      });
      expect(r.diagnostics[0]?.code).toBe("yao.effect_escape");
      expect(r.diagnostics[0]?.message).toBe(
        "HNS function 'fetch' reaches tool 'read' outside the package entry requires.tools set",
      );
    });
  });
});
