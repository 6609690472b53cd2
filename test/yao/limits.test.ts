/** Static limits (yao-v0.1.md §8) and hostile input that must be refused quickly, never crash. */
import { describe, expect, it } from "vitest";
import { analyzeModule, analyzeProgram, analyzeSources, semaTestProfile } from "../../src/yao/index.js";
import { parse } from "./helpers.js";

const profile = semaTestProfile();
const first = (source: string, functions: string[] = []) =>
  analyzeProgram(parse(source), { profile, functions: functions.map((f) => parse(f)), allowInternal: true })
    .diagnostics[0];

const nest = (depth: number): string => `${"(not ".repeat(depth)}true${")".repeat(depth)}`;

describe("limits", () => {
  it("expression depth 32 passes, 33 fails", () => {
    expect(first(`(eval ${nest(32)})`)).toBeUndefined();
    expect(first(`(eval ${nest(33)})`)).toMatchObject({
      code: "yao.resource_limit",
      message: "expression depth exceeds 32",
    });
  });

  it("analysed nodes: 4096 pass, 4097 fail", () => {
    const list = (n: number) => `(eval (list ${Array(n).fill("1").join(" ")}))`;
    expect(first(list(4095))).toBeUndefined();
    // The reference's wording (referenceMessage); people read it in Yao's words (limit-help.test.ts).
    expect(first(list(4096))).toMatchObject({ referenceMessage: "typed HIR exceeds 4096 nodes" });
  });

  it("linked nodes count inlined bodies (exponential fan-out is refused)", () => {
    const fns = ["(fn f0 (params) (returns Int) (body 1))"];
    for (let i = 1; i <= 20; i++) fns.push(`(fn f${i} (params) (returns Int) (body (add (f${i - 1}) (f${i - 1}))))`);
    const d = first("(eval (f20))", fns);
    expect(d?.code).toBe("yao.resource_limit");
    expect(d?.referenceMessage).toMatch(/^statically linked Yao HIR contains \d+ nodes, exceeding the limit of 4096$/);
  });

  it("fields per definition and dict entries: 256", () => {
    const fields = (n: number) => Array.from({ length: n }, (_, i) => `(f${i} Int)`).join(" ");
    expect(first(`(eval (types (record R ${fields(256)})) 1)`)).toBeUndefined();
    expect(first(`(eval (types (record R ${fields(257)})) 1)`)).toMatchObject({
      message: "field count 257 exceeds 256",
    });
    const entries = Array.from({ length: 257 }, (_, i) => `(k${i} 1)`).join(" ");
    expect(first(`(eval (dict ${entries}))`)).toMatchObject({ message: "field count 257 exceeds 256" });
  });

  it("par 2..32", () => {
    const par = (n: number) => `(eval (par ${Array.from({ length: n }, (_, i) => `(branch b${i} 1)`).join(" ")}))`;
    expect(first(par(32))).toBeUndefined();
    expect(first(par(33))).toMatchObject({ message: "par contains 33 branches; the limit is 32" });
  });

  it("call depth: a chain of 32 functions passes, 33 fails", () => {
    const chain = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        i === n - 1
          ? `(fn c${i} (params) (returns Int) (body 1))`
          : `(fn c${i} (params) (returns Int) (body (c${i + 1})))`,
      );
    expect(first("(eval 1)", chain(32))).toBeUndefined();
    const d = first("(eval 1)", chain(33));
    expect(d?.code).toBe("yao.resource_limit");
    expect(d?.message).toMatch(/HNS function call depth exceeds 32$/);
  });

  it("module: 128 functions, 262144 bytes", () => {
    const fns = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ source: `(fn g${i} (params) (returns Int) (body 1))` }));
    expect(
      analyzeSources({ source: "(eval 1)", functionSources: fns(128), profile, allowInternal: true }).diagnostics,
    ).toEqual([]);
    expect(analyzeSources({ source: "(eval 1)", functionSources: fns(129), profile }).diagnostics[0]?.message).toBe(
      "Yao module declares 129 functions, exceeding the limit of 128",
    );
    const big = `(eval "${"x".repeat(262_140)}")`;
    expect(analyzeSources({ source: big, functionSources: fns(1), profile }).diagnostics[0]?.message).toMatch(
      /^Yao module source is \d+ bytes, exceeding the limit of 262144$/,
    );
    const forms = fns(129).map((f, i) => ({ name: `g${i}`, form: parse(f.source), file: `g${i}.yao` }));
    expect(
      analyzeModule({ entry: parse("(eval 1)"), functions: forms, allowInternal: true, profile }).diagnostics[0]
        ?.referenceMessage,
    ).toBe("too many package functions");
  });
});

describe("hostile input", () => {
  it("a 7000-long chain of record types is validated without recursion", () => {
    const n = 7_000;
    const decls = Array.from({ length: n }, (_, i) =>
      i === n - 1 ? `(record T${i})` : `(record T${i} (next T${i + 1}))`,
    ).join(" ");
    const t0 = Date.now();
    expect(first(`(eval (types ${decls}) (to-json (none T0)))`)).toBeUndefined();
    const cyclic = decls.replace(`(record T${n - 1})`, `(record T${n - 1} (back T0))`);
    expect(first(`(eval (types ${cyclic}) 1)`)).toMatchObject({
      code: "yao.recursive_type",
      message: "recursive type 'T0' is not supported in Yao v0.1",
    });
    expect(Date.now() - t0).toBeLessThan(25_000); // a hang guard under load, not a speed test
  });
});
