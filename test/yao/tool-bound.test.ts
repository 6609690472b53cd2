/**
 * HNS §9.2 and §14: every tool a function can reach — through its body, nested `(program …)`
 * effects at any depth, its declared effects, and the `Program` types of its parameters and result
 * (named types included) — lies inside the entry's `requires.tools` and the manifest's tools. The
 * reference inspects only top-level tool effects (quirk Q13); each case has a control that differs
 * only by granting the tool and stays valid.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkSource } from "../../src/index.js";
import { REPO } from "./helpers.js";

const DIR = join(REPO, "fixtures/yao/tool-bound");

function pkg(fn: string, tools = "read", types = ""): string {
  return `(manifest (id t) (version "1") (title "T") (capabilities (tools ${tools})))
(contract (purpose "x"))
${fn}
(eval (requires (tools ${tools})) ${types} (call read (path "a")))
`;
}

async function codes(text: string) {
  const r = await checkSource("p.hns", text);
  return { valid: r.valid, diagnostics: r.diagnostics.map((d) => `${d.code}: ${d.message}`) };
}

const ESCAPE = "yao.effect_escape: HNS function 'g' reaches tool 'exec' outside the package entry requires.tools set";

/** [case, fn form, types clause] — each reaches exec only through a program. */
const cases: [string, string, string][] = [
  [
    "a program parameter run by the body",
    `(fn g (visibility exported) (description "d") (effects (program (tool exec)))
       (params (p (Program Json (effects (tool exec))))) (returns Json) (body (run p)))`,
    "",
  ],
  [
    "a program parameter never run",
    `(fn g (params (p (Program Json (effects (tool exec))))) (returns Int) (body 1))`,
    "",
  ],
  [
    "a program three levels deep",
    `(fn g (params (p (Program Json (effects (program (program (tool exec))))))) (returns Int) (body 1))`,
    "",
  ],
  [
    "a declared effect the body does not use",
    `(fn g (visibility exported) (description "d") (effects (program (tool exec))) (params) (returns Int) (body 1))`,
    "",
  ],
  [
    "a program inside a list of a named record",
    `(fn g (params (job Job)) (returns Int) (body 1))`,
    "(types (record Job (steps (List (Program Json (effects (tool exec)))))))",
  ],
  [
    "a program result",
    `(fn g (params) (returns (Option (Program Json (effects (tool exec))))) (body (none (Program Json (effects (tool exec))))))`,
    "",
  ],
];

describe("the module tool bound reaches through programs (Q13 made strict)", () => {
  it("the issue's package is rejected, naming the function and the tool, at its declaration", async () => {
    const r = await checkSource("p.hns", readFileSync(join(DIR, "nested-program-param.hns"), "utf8"));
    expect(r.valid).toBe(false);
    const d = r.diagnostics.find((x) => x.code === "yao.effect_escape")!;
    expect(d.message).toBe("HNS function 'g' reaches tool 'exec' outside the package entry requires.tools set");
    expect(d.span?.start.line).toBe(4);
    expect(d.label).toMatch(/program that may call tool 'exec'/);
  });

  it("near miss: the same package granting exec is valid", async () => {
    const r = await checkSource("p.hns", readFileSync(join(DIR, "nested-program-granted.hns"), "utf8"));
    expect(r.diagnostics).toEqual([]);
    expect(r.valid).toBe(true);
  });

  it.each(cases)("%s is rejected; granting exec makes it valid", async (_name, fn, types) => {
    expect(await codes(pkg(fn, "read", types))).toEqual({ valid: false, diagnostics: [ESCAPE] });
    expect(await codes(pkg(fn, "read exec", types))).toEqual({ valid: true, diagnostics: [] });
  });

  it("a top-level tool still reports the reference's error first", async () => {
    const fn = `(fn g (params (p (Program Json (effects (tool edit))))) (returns Json) (body (call exec (cmd "x"))))`;
    const r = await codes(
      `(manifest (id t) (version "1") (title "T") (capabilities (tools read exec edit)))
(contract (purpose "x"))
${fn}
(eval (requires (tools read)) (call read (path "a")))`,
    );
    expect(r.diagnostics).toEqual([ESCAPE]);
  });
});

describe("without a (requires (tools …)) clause the profile's tools bound the module", () => {
  it("a function whose parameter program reaches a tool the profile lacks is rejected; one it has is not", async () => {
    const { analyzeProgram, morphzProfile, toolsFromManifest } = await import("../../src/yao/index.js");
    const { parse } = await import("./helpers.js");
    const run = (tool: string) =>
      analyzeProgram(parse("(eval 1)"), {
        profile: morphzProfile(toolsFromManifest(["read"], {}).tools),
        allowInternal: true,
        functions: [parse(`(fn g (params (p (Program Json (effects (tool ${tool}))))) (returns Int) (body 1))`)],
      }).diagnostics.map((d) => d.message);
    expect(run("exec")).toEqual(["HNS function 'g' reaches tool 'exec' outside the package entry requires.tools set"]);
    expect(run("read")).toEqual([]);
  });
});
