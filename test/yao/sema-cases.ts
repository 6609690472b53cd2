/**
 * The sema cases as one table, run over both sources (issue 33 item 5): our own fixtures
 * (fixtures/yao/sema, test/yao/sema.test.ts) and the reference's unit cases
 * (test/reference/yao-sema.test.ts, which skips with a reason when the reference is absent). A row
 * is one rule: the file of each source, the names that differ between them (ours use other
 * identifiers, so the two cannot be copies of each other), and one check for both.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { analyzeProgram, debugEffects, debugType, semaTestProfile } from "../../src/yao/index.js";
import { parseFile } from "./helpers.js";

export type SemaSource = "own" | "reference";

type AnalysisResult = ReturnType<typeof analyzeProgram>;

/** How one source spells a case: its file, or an entry with functions, and the names in messages. */
interface At {
  readonly file: string;
  readonly functions?: readonly string[];
  readonly allowInternal?: boolean;
  /** Names the check's expected messages take from this source. */
  readonly names?: Readonly<Record<string, string>>;
}

interface SemaCase {
  readonly title: string;
  readonly at: Readonly<Record<SemaSource, At>>;
  readonly check: (r: AnalysisResult, names: Readonly<Record<string, string>>) => void;
}

const firstError = (r: AnalysisResult) => r.diagnostics[0];

export const SEMA_CASES: readonly SemaCase[] = [
  {
    title: "Int and Float arithmetic is Float, no effects",
    at: { own: { file: "float-bindings.yao" }, reference: { file: "bindings_float.yao" } },
    check: (r) => {
      expect(r.diagnostics).toEqual([]);
      expect(debugType(r.outputType!)).toBe("Float");
      expect(r.effects).toEqual([]);
    },
  },
  {
    title: "a '$' reference names the binding without '$'",
    at: {
      own: { file: "reject-dollar-reference.yao", names: { binding: "count" } },
      reference: { file: "reject_dollar_reference.yao", names: { binding: "total" } },
    },
    check: (r, n) => {
      expect(firstError(r)?.code).toBe("yao.unknown_name");
      expect(firstError(r)?.message).toBe(
        `binding references do not use '$'; replace '$${n["binding"]}' with '${n["binding"]}'`,
      );
    },
  },
  {
    title: "a heterogeneous dict: the conflicting field on line 4, the representative on line 3",
    at: {
      own: { file: "reject-heterogeneous-dict.yao", names: { field: "score" } },
      reference: { file: "reject_heterogeneous_dict.yao", names: { field: "note" } },
    },
    check: (r, n) => {
      const d = firstError(r);
      expect(d?.code).toBe("yao.type_mismatch");
      expect(d?.span?.start.line).toBe(4);
      expect(d?.related?.[0]?.span?.start.line).toBe(3);
      expect(d?.message).toContain(`dict field '${n["field"]}'`);
      expect(d?.message).toContain("homogeneous (Map T)");
      expect(d?.referenceMessage).toContain("homogeneous Map<T>");
      expect(d?.message).toContain("named record");
    },
  },
  {
    title: "an exhaustive match over a union: String output",
    at: { own: { file: "union-match-exhaustive.yao" }, reference: { file: "union_match_exhaustive.yao" } },
    check: (r) => {
      expect(r.diagnostics).toEqual([]);
      expect(debugType(r.outputType!)).toBe("String");
    },
  },
  {
    title: "infer outside requires.effects escapes",
    at: { own: { file: "reject-effect-escape.yao" }, reference: { file: "reject_effect_escape.yao" } },
    check: (r) => {
      const d = firstError(r);
      expect(d?.code).toBe("yao.effect_escape");
      expect(d?.message).toContain("Remove requires.effects");
      expect(d?.message).toContain("(effects infer)");
      expect(d?.referenceMessage).toContain("EffectSet({Infer})");
    },
  },
  {
    title: "infer sees no outer binding",
    at: {
      own: { file: "reject-infer-without-capture.yao", names: { binding: "limit" } },
      reference: { file: "reject_infer_without_capture.yao", names: { binding: "base" } },
    },
    check: (r, n) => {
      expect(firstError(r)?.code).toBe("yao.unknown_name");
      expect(firstError(r)?.message).toBe(`unknown binding '${n["binding"]}'`);
    },
  },
  {
    title: "recursive types: names the first type of the cycle in name order",
    at: {
      own: { file: "reject-recursive-types.yao", names: { type: "Leaf" } },
      reference: { file: "reject_recursive_types.yao", names: { type: "A" } },
    },
    check: (r, n) => {
      expect(firstError(r)?.code).toBe("yao.recursive_type");
      expect(firstError(r)?.message).toBe(`recursive type '${n["type"]}' is not supported in Yao v0.1`);
    },
  },
  {
    title: "an in-band version declaration is refused",
    at: { own: { file: "reject-version-declaration.yao" }, reference: { file: "reject_version_declaration.yao" } },
    check: (r) => {
      expect(firstError(r)?.code).toBe("yao.invalid_type");
      expect(firstError(r)?.message).toBe("Yao source has no in-band version declaration; remove (version ...)");
    },
  },
  {
    title: "static effects: infer, tool read, tool search, host objective.report (in effect order)",
    at: { own: { file: "static-effects.yao" }, reference: { file: "static_effects.yao" } },
    check: (r) => {
      expect(r.diagnostics).toEqual([]);
      expect(debugEffects(r.effects!)).toBe(
        'EffectSet({Infer, Tool("read"), Tool("search"), Host("objective.report")})',
      );
    },
  },
  {
    title: "a function cycle: the cycle path, wrapped per enclosing function",
    at: {
      own: {
        file: "cycle/entry.yao",
        functions: ["cycle/fn_ping.yao", "cycle/fn_pong.yao"],
        allowInternal: true,
        names: { first: "ping", second: "pong" },
      },
      reference: {
        file: "module_cycle/entry.yao",
        functions: ["module_cycle/fn_first.yao", "module_cycle/fn_second.yao"],
        allowInternal: true,
        names: { first: "first", second: "second" },
      },
    },
    check: (r, n) => {
      const [a, b] = [n["first"], n["second"]];
      expect(firstError(r)?.code).toBe("yao.recursive_function");
      expect(firstError(r)?.message).toBe(
        `in fn '${a}': in fn '${b}': recursive HNS function cycle is not supported: ${a} -> ${b} -> ${a}`,
      );
      expect(r.failedFunction).toBe(b);
    },
  },
  {
    title: "transitive effects through an internal function (model-authored entry): effects {tool read}",
    at: {
      own: { file: "transitive/entry-ok.yao", functions: ["transitive/fn_fetch.yao", "transitive/fn_fetch-raw.yao"] },
      reference: {
        file: "module_transitive_effects/entry_ok.yao",
        functions: ["module_transitive_effects/fn_load.yao", "module_transitive_effects/fn_read-internal.yao"],
      },
    },
    check: (r) => {
      expect(r.diagnostics).toEqual([]);
      expect(debugEffects(r.effects!)).toBe('EffectSet({Tool("read")})');
    },
  },
  {
    title: "transitive effects: the per-application tool bound",
    at: {
      own: {
        file: "transitive/entry-reject-escape.yao",
        functions: ["transitive/fn_fetch.yao", "transitive/fn_fetch-raw.yao"],
        names: { fn: "fetch" },
      },
      reference: {
        file: "module_transitive_effects/entry_reject_escape.yao",
        functions: ["module_transitive_effects/fn_load.yao", "module_transitive_effects/fn_read-internal.yao"],
        names: { fn: "load" },
      },
    },
    check: (r, n) => {
      expect(firstError(r)?.code).toBe("yao.effect_escape");
      expect(firstError(r)?.message).toBe(`fn '${n["fn"]}' reaches tool 'read' outside the program requires.tools set`);
    },
  },
  {
    title: "transitive effects (allowInternal): the module tool bound",
    at: {
      own: {
        file: "transitive/entry-reject-package-bound.yao",
        functions: ["transitive/fn_fetch.yao", "transitive/fn_fetch-raw.yao"],
        allowInternal: true,
        names: { fn: "fetch" },
      },
      reference: {
        file: "module_transitive_effects/entry_reject_package_bound_allow_internal.yao",
        functions: ["module_transitive_effects/fn_load.yao", "module_transitive_effects/fn_read-internal.yao"],
        allowInternal: true,
        names: { fn: "load" },
      },
    },
    check: (r, n) => {
      expect(firstError(r)?.code).toBe("yao.effect_escape");
      expect(firstError(r)?.message).toBe(
        `HNS function '${n["fn"]}' reaches tool 'read' outside the package entry requires.tools set`,
      );
    },
  },
];

/** Declare one test per row of the table, on `source`'s files under `dir`. */
export function semaCasesOn(source: SemaSource, dir: string): void {
  const profile = semaTestProfile();
  describe(`the sema table on the ${source === "own" ? "own fixtures" : "reference's cases"}`, () => {
    it("has every rule of the table", () => {
      expect(SEMA_CASES.length).toBe(13);
    });
    for (const c of SEMA_CASES) {
      const at = c.at[source];
      it(`${at.file}: ${c.title}`, () => {
        const r = analyzeProgram(parseFile(join(dir, at.file)), {
          profile,
          ...(at.allowInternal === true ? { allowInternal: true } : {}),
          ...(at.functions === undefined ? {} : { functions: at.functions.map((f) => parseFile(join(dir, f))) }),
        });
        c.check(r, at.names ?? {});
      });
    }
  });
}
