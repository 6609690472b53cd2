/**
 * The reference's sema unit cases (morphz-fixtures inline/yao/src/sema.rs@70e0787) under the sema
 * test profile. The same situations, written by us, are in fixtures/yao/sema (test/yao/sema.test.ts).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { analyzeProgram, debugEffects, debugType, semaTestProfile } from "../../src/yao/index.js";
import { parseFile } from "../yao/helpers.js";
import { describeReference, MORPHZ } from "./reference.js";

const SEMA = join(MORPHZ, "inline/yao/src/sema.rs@70e0787");

const profile = semaTestProfile();
const analyze = (name: string) => analyzeProgram(parseFile(join(SEMA, name)), { profile });

describeReference("Morphz sema cases", () => {
  it("bindings_float: Float output, no effects", () => {
    const r = analyze("bindings_float.yao");
    expect(r.diagnostics).toEqual([]);
    expect(debugType(r.outputType!)).toBe("Float");
    expect(r.effects).toEqual([]);
  });

  it("reject_dollar_reference", () => {
    const [d] = analyze("reject_dollar_reference.yao").diagnostics;
    expect(d?.code).toBe("yao.unknown_name");
    expect(d?.message).toBe("binding references do not use '$'; replace '$total' with 'total'");
  });

  it("reject_heterogeneous_dict: conflicting field on line 4, representative on line 3", () => {
    const [d] = analyze("reject_heterogeneous_dict.yao").diagnostics;
    expect(d?.code).toBe("yao.type_mismatch");
    expect(d?.span?.start.line).toBe(4);
    expect(d?.related?.[0]?.span?.start.line).toBe(3);
    expect(d?.message).toContain("dict field 'note'");
    expect(d?.message).toContain("homogeneous (Map T)");
    expect(d?.referenceMessage).toContain("homogeneous Map<T>");
    expect(d?.message).toContain("named record");
  });

  it("union_match_exhaustive: String output", () => {
    const r = analyze("union_match_exhaustive.yao");
    expect(r.diagnostics).toEqual([]);
    expect(debugType(r.outputType!)).toBe("String");
  });

  it("reject_effect_escape", () => {
    const [d] = analyze("reject_effect_escape.yao").diagnostics;
    expect(d?.code).toBe("yao.effect_escape");
    expect(d?.message).toContain("Remove requires.effects");
    expect(d?.message).toContain("(effects infer)");
    expect(d?.referenceMessage).toContain("EffectSet({Infer})");
  });

  it("reject_infer_without_capture", () => {
    const [d] = analyze("reject_infer_without_capture.yao").diagnostics;
    expect(d?.code).toBe("yao.unknown_name");
    expect(d?.message).toBe("unknown binding 'base'");
  });

  it("reject_recursive_types", () => {
    const [d] = analyze("reject_recursive_types.yao").diagnostics;
    expect(d?.code).toBe("yao.recursive_type");
    expect(d?.message).toBe("recursive type 'A' is not supported in Yao v0.1");
  });

  it("reject_version_declaration", () => {
    const [d] = analyze("reject_version_declaration.yao").diagnostics;
    expect(d?.code).toBe("yao.invalid_type");
    expect(d?.message).toBe("Yao source has no in-band version declaration; remove (version ...)");
  });

  it("static_effects: infer, tool read, tool search, host objective.report", () => {
    const r = analyze("static_effects.yao");
    expect(r.diagnostics).toEqual([]);
    expect(debugEffects(r.effects!)).toBe('EffectSet({Infer, Tool("read"), Tool("search"), Host("objective.report")})');
  });

  it("module_cycle: the cycle path, wrapped per enclosing function", () => {
    const dir = join(SEMA, "module_cycle");
    const r = analyzeProgram(parseFile(join(dir, "entry.yao")), {
      profile,
      allowInternal: true,
      functions: [parseFile(join(dir, "fn_first.yao")), parseFile(join(dir, "fn_second.yao"))],
    });
    const [d] = r.diagnostics;
    expect(d?.code).toBe("yao.recursive_function");
    expect(d?.message).toBe(
      "in fn 'first': in fn 'second': recursive HNS function cycle is not supported: first -> second -> first",
    );
    expect(r.failedFunction).toBe("second");
  });

  describe("module_transitive_effects", () => {
    const dir = join(SEMA, "module_transitive_effects");
    const functions = () => [parseFile(join(dir, "fn_load.yao")), parseFile(join(dir, "fn_read-internal.yao"))];

    it("entry_ok (model-authored): effects {tool read}", () => {
      const r = analyzeProgram(parseFile(join(dir, "entry_ok.yao")), { profile, functions: functions() });
      expect(r.diagnostics).toEqual([]);
      expect(debugEffects(r.effects!)).toBe('EffectSet({Tool("read")})');
    });

    it("entry_reject_escape: per-application tool bound", () => {
      const r = analyzeProgram(parseFile(join(dir, "entry_reject_escape.yao")), { profile, functions: functions() });
      expect(r.diagnostics[0]?.code).toBe("yao.effect_escape");
      expect(r.diagnostics[0]?.message).toBe("fn 'load' reaches tool 'read' outside the program requires.tools set");
    });

    it("entry_reject_package_bound_allow_internal: module tool bound, name order", () => {
      const r = analyzeProgram(parseFile(join(dir, "entry_reject_package_bound_allow_internal.yao")), {
        profile,
        allowInternal: true,
        functions: functions(),
      });
      expect(r.diagnostics[0]?.code).toBe("yao.effect_escape");
      expect(r.diagnostics[0]?.message).toBe(
        "HNS function 'load' reaches tool 'read' outside the package entry requires.tools set",
      );
    });
  });
});
