/**
 * Issue 28, item 4: HNS §9.4 — function parameters are immutable, inside a function body as in an
 * entry. The control binds a fresh name and stays valid.
 */
import { describe, expect, it } from "vitest";
import { analyzeProgram, semaTestProfile } from "../../src/yao/index.js";
import { parse } from "./helpers.js";

const run = (body: string) =>
  analyzeProgram(parse("(eval (f (x 1)))"), {
    profile: semaTestProfile(),
    allowInternal: true,
    functions: [parse(`(fn f (params (x Int)) (returns Int) (body ${body}))`, "fn.yao")],
  }).diagnostics.map((d) => [d.code, d.message]);

describe("function parameters are immutable (HNS §9.4)", () => {
  it("rebinding a parameter inside the function body is rejected", () => {
    expect(run("(seq (bind x 2) x)")).toEqual([["yao.duplicate_name", "in fn 'f': binding 'x' cannot be overwritten"]]);
  });

  it("rebinding it in a nested scope is rejected too", () => {
    expect(run("(if true (seq (bind x 3) x) x)").map((d) => d[0])).toEqual(["yao.duplicate_name"]);
  });

  it("control: binding a fresh name is valid", () => {
    expect(run("(seq (bind y 2) (add x y))")).toEqual([]);
  });
});
