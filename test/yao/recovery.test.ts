/**
 * Issue 34, item 4: type checking recovers with the error type, so one function (or the entry)
 * reports each of its independent errors, and the recovered node causes nothing in the form around
 * it. Verdicts and identities do not change: the first error is the one the fail-fast analysis
 * (`recover: false`, the reference's behaviour) reports, and everything it reports is still reported.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.js";
import { NodeFs } from "../../src/fs/node-fs.js";
import { loadPackage } from "../../src/hns/load.js";
import { analyzeProgram, analyzeSources, type AnalysisResult } from "../../src/yao/analyze.js";
import { analyzePackage } from "../../src/yao/package-analysis.js";
import { morphzProfile, toolsFromManifest } from "../../src/yao/profile.js";
import { readAll } from "../../src/syntax/reader.js";
import { REPO } from "./helpers.js";

const fnSource = (body: string, params = "(n Int) (s String)", returns = "Int"): string =>
  `(fn f (params ${params}) (returns ${returns}) (body ${body}))`;

function analyzeFn(body: string, options: { params?: string; returns?: string; recover?: boolean } = {}) {
  return analyzeSources({
    source: '(eval (f (n 1) (s "a")))',
    functionSources: [{ source: fnSource(body, options.params, options.returns), file: "f.yao" }],
    allowInternal: true,
    ...(options.recover === undefined ? {} : { recover: options.recover }),
  });
}

const messages = (r: AnalysisResult): string[] => r.diagnostics.map((d) => d.message);

describe("every independent error of a function", () => {
  it("a function with two independent type errors reports both, in detection order, both in that function", () => {
    const body = '(seq (bind a (add n "x")) (bind b (not 3)) (add n 1))';
    const r = analyzeFn(body);
    expect(messages(r)).toEqual(["in fn 'f': numeric operator received String", "in fn 'f': expected Bool, found Int"]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(["yao.type_mismatch", "yao.type_mismatch"]);
    expect(r.diagnostics.map((d) => d.function)).toEqual(["f", "f"]);
    expect(r.failedFunction).toBe("f");
    // Fail-fast, the same function reports only the first.
    expect(messages(analyzeFn(body, { recover: false }))).toEqual(["in fn 'f': numeric operator received String"]);
  });

  it("errors in several operands of one form are each reported", () => {
    const r = analyzeFn("(add (get n x) (frob 1) (not 1))");
    expect(r.diagnostics.map((d) => d.code)).toEqual([
      "yao.type_mismatch",
      "yao.unknown_operator",
      "yao.type_mismatch",
    ]);
  });

  it("each failing case of a match is reported, the other cases are checked, and exhaustiveness is not a consequence", () => {
    const types = "(types (union Shape (circle (r Float)) (square (side Float)) (dot)))";
    const r = analyzeSources({
      source: `(eval ${types} (match (variant Shape.dot) ((case Shape.circl (r x)) 1) ((case Shape.square (sid s)) 2) ((case Shape.dot) (not 1))))`,
    });
    expect(messages(r)).toEqual([
      "unknown variant 'Shape.circl'",
      "variant has no field 'sid'",
      "expected Bool, found Int",
    ]);
    // Fail-fast reports the first only; with no failing case a missing one is still reported.
    expect(
      messages(
        analyzeSources({
          source: `(eval ${types} (match (variant Shape.dot) ((case Shape.circl (r x)) 1) ((case Shape.square (sid s)) 2)))`,
          recover: false,
        }),
      ),
    ).toEqual(["unknown variant 'Shape.circl'"]);
    expect(
      messages(analyzeSources({ source: `(eval ${types} (match (variant Shape.dot) ((case Shape.dot) (not 1))))` })),
    ).toEqual(["expected Bool, found Int", "non-exhaustive match; missing circle, square"]);
  });

  it("the entry reports each of its independent errors too", () => {
    const r = analyzeSources({ source: '(eval (seq (bind a (add 1 "x")) (frob) (not 1)))' });
    expect(r.diagnostics.map((d) => d.code)).toEqual([
      "yao.type_mismatch",
      "yao.unknown_operator",
      "yao.type_mismatch",
    ]);
    expect(r.program).toBeUndefined();
  });
});

describe("no cascade from the recovered node", () => {
  // Each body has exactly one mistake, inside an operand; the form around it must add nothing.
  const cases: [string, string, string?][] = [
    ["a binding of a failed value is still bound", "(seq (bind x (get n nope)) (add x (mul x 2)))"],
    ["a comparison", '(seq (bind c (lt (frob) "a")) 1)'],
    ["an equality", "(seq (bind c (eq (frob) 2)) 1)"],
    ["if's condition and common type", "(if (frob) 1 2)"],
    ["a list's common type", "(seq (bind l (list (frob) 1)) 1)"],
    ["to-json", "(seq (bind j (to-json (frob))) 1)"],
    ["json-object", "(seq (bind j (json-object (a (frob)))) 1)"],
    ["host.view of a failed reference", "(seq (bind v (host.view (frob) (returns Json))) 1)"],
    ["match on a failed value", "(seq (bind m (match (frob) ((case A.b) 1))) 1)"],
    ["run of a failed program", "(seq (bind r (run (frob))) 1)"],
    ["a field of a failed record", "(seq (bind g (get (frob) title)) 1)"],
    ["map over a failed list", "(seq (bind m (map (frob) e (add e 1))) 1)"],
    ["the function's return type", "(get (frob) x)"],
    ["a binding with an invalid name stays known", "(seq (bind 1x 2) (add 1x 1))"],
    ["an argument of a tool call", "(seq (bind c (call read (path (frob)))) 1)"],
    ["a dict's value type", "(seq (bind d (dict (a (frob)) (b 1))) 1)"],
    ["a record field", "(seq (bind p (some (frob))) 1)", "(n Int) (s String)"],
  ];
  // `read` is a known tool, so the one mistake in the tool-call case is the argument's (an unknown
  // tool is an error of its own, after which the arguments are still checked).
  const profile = morphzProfile(toolsFromManifest(["read"]).tools);
  for (const [what, body, params] of cases) {
    it(`${what}: ${body}`, () => {
      const r = analyzeSources({
        source: '(eval (requires (tools read)) (f (n 1) (s "a")))',
        functionSources: [{ source: fnSource(body, params), file: "f.yao" }],
        allowInternal: true,
        profile,
      });
      expect(r.diagnostics, messages(r).join("\n")).toHaveLength(1);
      // The same one error as fail-fast reports.
      const fast = analyzeSources({
        source: '(eval (requires (tools read)) (f (n 1) (s "a")))',
        functionSources: [{ source: fnSource(body, params), file: "f.yao" }],
        allowInternal: true,
        recover: false,
        profile,
      });
      expect(messages(r)).toEqual(messages(fast));
    });
  }

  it("callers of a function with body errors are checked against its declaration only", () => {
    const r = analyzeSources({
      source: '(eval (add (f (n 1) (s "a")) 1))',
      functionSources: [{ source: fnSource('(seq (bind a (add n "x")) (not 3))'), file: "f.yao" }],
      allowInternal: true,
    });
    expect(r.diagnostics.map((d) => d.function)).toEqual(["f", "f"]);
  });
});

// ---- verdicts and first errors over the fixtures -----------------------------------------------

/** What must not change: the verdict, the identity of the program, the first error and its function. */
function verdict(r: AnalysisResult) {
  const first = r.diagnostics.find((d) => d.severity === "error");
  return {
    valid: r.program !== undefined && first === undefined,
    programHash: r.programHash,
    first: first === undefined ? undefined : key(first),
    failedFunction: r.failedFunction,
  };
}
const key = (d: Diagnostic): string => `${d.code} ${d.file}:${d.span?.start.byte}-${d.span?.end.byte} ${d.message}`;

function compare(recovering: AnalysisResult, failFast: AnalysisResult): void {
  expect(verdict(recovering)).toEqual(verdict(failFast));
  // Everything fail-fast reports is still reported; recovery only adds.
  const all = new Set(recovering.diagnostics.map(key));
  expect(failFast.diagnostics.map(key).filter((k) => !all.has(k))).toEqual([]);
}

function hnsPackages(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (name.endsWith(".hns")) out.push(p);
    else if (statSync(p).isDirectory()) hnsPackages(p, out);
  }
  return out;
}

describe("verdicts, identities and first errors do not change", () => {
  it("over every HNS package of fixtures/ and examples/", async () => {
    const packages = [...hnsPackages(join(REPO, "fixtures")), ...hnsPackages(join(REPO, "examples"))];
    expect(packages.length).toBeGreaterThan(100);
    let analysed = 0;
    let invalid = 0;
    for (const path of packages) {
      const loaded = await loadPackage(new NodeFs(), path);
      const pkg = loaded.ok ? loaded.package : loaded.partial;
      if (pkg === undefined) continue;
      analysed++;
      const recovering = analyzePackage(pkg);
      const failFast = analyzePackage(pkg, { recover: false });
      if (recovering.diagnostics.length > 0) invalid++;
      compare(recovering, failFast);
    }
    // Both kinds are in the corpus: valid packages keep their program hash, invalid ones their first error.
    expect(analysed).toBeGreaterThan(50);
    expect(invalid).toBeGreaterThan(0);
    expect(analysed - invalid).toBeGreaterThan(0);
  });

  it("over every single-form Yao program of fixtures/yao", () => {
    const programs: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir).sort()) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (name.endsWith(".yao")) programs.push(p);
      }
    };
    walk(join(REPO, "fixtures/yao"));
    expect(programs.length).toBeGreaterThan(20);
    let analysed = 0;
    for (const p of programs) {
      const read = readAll(readFileSync(p, "utf8"), { file: p });
      if (!read.ok || read.forms.length !== 1) continue;
      analysed++;
      compare(analyzeProgram(read.forms[0]!), analyzeProgram(read.forms[0]!, { recover: false }));
    }
    expect(analysed).toBeGreaterThan(10);
  });

  it("over programs with several mistakes each", () => {
    const bodies = [
      '(seq (bind a (add n "x")) (bind b (not 3)) (add n 1))',
      "(seq (bind x (frob)) (bind x 2) (get x y))",
      '(if (lt n "a") (frob) (not n))',
      "(seq (bind 1x 2) (bind y (add 1x s)) (match y ((case A.b) 1)))",
      "(list (some n) (some s) (none Strin) (ok 1 Int))",
      "(par (branch a (frob)) (branch a (not 1)))",
      "(map (list 1 2) n (add n s))",
    ];
    for (const body of bodies) {
      const recovering = analyzeFn(body);
      const failFast = analyzeFn(body, { recover: false });
      expect(failFast.diagnostics.length, body).toBeGreaterThan(0);
      compare(recovering, failFast);
    }
  });
});

describe("through yaoc check", () => {
  it("a package function with two independent errors shows both, the reference's first one first", async () => {
    const { MemoryFs } = await import("../../src/fs/memory-fs.js");
    const { check } = await import("../../src/check/check.js");
    const source = `(manifest (id demo) (version "1") (title "Demo") (capabilities (tools read)))
(contract (purpose "p"))
(fn f (params (n Int)) (returns Int) (body (seq (bind a (not 3)) (add n "x"))))
(eval (requires (tools read)) (f (n 1)))
`;
    const r = await check(MemoryFs.from({ "/p.hns": source }), "/p.hns");
    expect(r.valid).toBe(false);
    expect(r.identity).toBeNull();
    const errors = r.diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => d.message)).toEqual([
      "in fn 'f': expected Bool, found Int",
      "in fn 'f': numeric operator received String",
    ]);
    expect(source.slice(errors[1]!.span!.start.byte, errors[1]!.span!.end.byte)).toBe('"x"');
  });
});

describe("the error cap", () => {
  it("a body with more independent errors than the cap stops at it, with the closing note", () => {
    const body = `(list ${Array.from({ length: 250 }, () => "(not 1)").join(" ")})`;
    const r = analyzeFn(body, { returns: "(List Bool)" });
    const errors = r.diagnostics.filter((d) => d.severity === "error");
    expect(errors).toHaveLength(200);
    expect(r.diagnostics.at(-1)!.code).toBe("yao.error_limit");
    // Fail-fast, the same body reports one.
    expect(analyzeFn(body, { returns: "(List Bool)", recover: false }).diagnostics).toHaveLength(1);
  });
});

describe("mutants of valid programs", () => {
  /**
   * Each valid golden program, with one or two of its literals and names replaced by something of
   * another type or an unknown name: fail-fast and recovering analyses agree on the verdict and the
   * first error, and recovery reports at least everything fail-fast does. Two mutations usually
   * make two independent errors, the case recovery exists for.
   */
  it("agree with fail-fast on verdict and first error, one or two mutations at a time", () => {
    const dir = join(REPO, "fixtures/yao/golden");
    const programs = readdirSync(dir)
      .filter((f) => f.endsWith(".yao") && f !== "linked-module.yao")
      .sort();
    expect(programs.length).toBeGreaterThan(3);
    const replacements = ['"x"', "nope", "(frob)", "true"];
    // The golden programs' profile (src/cli/golden/suites.ts): read{path:String} and dynamic search.
    const profile = morphzProfile(
      toolsFromManifest(["read", "search"], {
        read: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      }).tools,
    );
    let mutants = 0;
    let moreErrors = 0;
    for (const name of programs) {
      const text = readFileSync(join(dir, name), "utf8");
      const clean = analyzeSources({ source: text, file: name, profile });
      expect(clean.diagnostics, name).toEqual([]);
      // Atoms after an operator or a value position: numbers, strings and bare names other than heads.
      const atoms = [...text.matchAll(/(?<=\s)(?:-?\d+(?:\.\d+)?|"[^"\n]*"|[a-z][\w-]*)(?=[\s)])/g)]
        .filter((m) => text[m.index - 1] !== "(")
        .map((m) => ({ at: m.index, length: m[0].length }));
      expect(atoms.length, name).toBeGreaterThan(0);
      const mutate = (picks: readonly { at: number; length: number }[], by: readonly string[]): string => {
        let out = text;
        // From the end, so earlier offsets stay valid.
        [...picks]
          .map((p, i) => ({ ...p, by: by[i]! }))
          .sort((a, b) => b.at - a.at)
          .forEach((p) => {
            out = out.slice(0, p.at) + p.by + out.slice(p.at + p.length);
          });
        return out;
      };
      for (let i = 0; i < atoms.length; i += 2) {
        for (const j of [i + 3, i + 7]) {
          if (j >= atoms.length) continue;
          const picks = [atoms[i]!, atoms[j]!];
          const by = [replacements[i % 4]!, replacements[j % 4]!];
          for (const source of [mutate([picks[0]!], [by[0]!]), mutate(picks, by)]) {
            const recovering = analyzeSources({ source, file: name, profile });
            const failFast = analyzeSources({ source, file: name, profile, recover: false });
            compare(recovering, failFast);
            mutants++;
            if (recovering.diagnostics.length > failFast.diagnostics.length) moreErrors++;
          }
        }
      }
    }
    expect(mutants).toBeGreaterThan(50);
    // Recovery found further independent errors in some of them.
    expect(moreErrors).toBeGreaterThan(0);
  });
});
