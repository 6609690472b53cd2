/**
 * Issue 34, item 1: the language table's claims about the operator forms, which docs/language.md,
 * `yaoc explain` and the language server's hover show, are the analyzer's behaviour. For every
 * form typed by the shared operator rule (comparison, logic, arithmetic): the operand count of its
 * signature (`(gt A B)` exactly two, `(add A B...)` two or more) and the result type its `Type:`
 * line states (Bool; Int, or Float when any operand is Float; Float for div), and the "no
 * truthiness" / "Json is not ordered" / "no string concatenation" sentences.
 */
import { describe, expect, it } from "vitest";
import { readOne } from "../../src/syntax/reader.js";
import { FORMS } from "../../src/yao/forms.js";
import { analyzeProgram, morphzProfile } from "../../src/yao/index.js";
import { displayType } from "../../src/yao/type-display.js";

/** The result type of a program, or its error codes. */
function typeOf(body: string): string {
  const read = readOne(`(eval ${body})`, { file: "claim.yao" });
  if (!read.ok) return read.diagnostic.code;
  const r = analyzeProgram(read.form, { profile: morphzProfile() });
  if (r.diagnostics.length > 0) return r.diagnostics.map((d) => d.code).join(" ");
  return displayType(r.outputType!);
}

const PURE = FORMS.filter((f) => f.rule.kind === "pure");

/** `(gt A B)` → 2 fixed operands; `(add A B...)` → 2, variadic. */
function arity(signature: string): { fixed: number; variadic: boolean } {
  const operands = signature.slice(1, -1).split(" ").slice(1);
  return { fixed: operands.length, variadic: operands.at(-1)!.endsWith("...") };
}

describe("the operator forms do what the language table says", () => {
  it("covers the comparison, logic and arithmetic forms", () => {
    expect(PURE.map((f) => f.name).sort()).toEqual(
      ["add", "and", "div", "eq", "ge", "gt", "le", "lt", "mul", "ne", "not", "or", "sub"].sort(),
    );
  });

  it.each(PURE.map((f) => [f.name, f.signature]))(
    "%s: %s takes the operand count its signature says",
    (name, signature) => {
      const { fixed, variadic } = arity(signature);
      expect(fixed).toBeGreaterThan(0);
      // An operand of the type the form takes: Bool for the logic forms, a number otherwise.
      const x = ["and", "or", "not"].includes(name) ? "true" : "2";
      const call = (n: number) => `(${name}${` ${x}`.repeat(n)})`;
      expect(typeOf(call(fixed)), call(fixed)).not.toContain("yao.");
      expect(typeOf(call(fixed - 1)), call(fixed - 1)).toBe("yao.type_mismatch");
      if (variadic) expect(typeOf(call(fixed + 3)), call(fixed + 3)).not.toContain("yao.");
      else expect(typeOf(call(fixed + 1)), call(fixed + 1)).toBe("yao.type_mismatch");
    },
  );

  it.each(PURE.filter((f) => f.type.startsWith("Bool")).map((f) => [f.name, f.type]))("%s: gives Bool (%s)", (name) => {
    const args = ["and", "or"].includes(name) ? "true false" : name === "not" ? "false" : "1 2";
    expect(typeOf(`(${name} ${args})`)).toBe("Bool");
  });

  it("add, sub and mul give Int, or Float when any operand is Float; div always Float", () => {
    for (const op of ["add", "sub", "mul"]) {
      expect(FORMS.find((f) => f.name === op)!.type).toMatch(/^Int, or Float when any operand is Float/);
      expect(typeOf(`(${op} 6 3)`), op).toBe("Int");
      expect(typeOf(`(${op} 6 1.5)`), op).toBe("Float");
      expect(typeOf(`(${op} 1.5 6)`), op).toBe("Float");
    }
    expect(FORMS.find((f) => f.name === "div")!.type).toMatch(/^Float/);
    expect(typeOf("(div 6 3)")).toBe("Float");
  });

  it("the sentences: no truthiness, Json not ordered, no string concatenation, common types for eq", () => {
    const say = (name: string) => {
      const f = FORMS.find((r) => r.name === name)!;
      return `${f.meaning} ${f.type}`;
    };
    expect(say("and")).toContain("There is no truthiness");
    for (const bad of ["(and 1 true)", '(or true "yes")', "(not 0)"])
      expect(typeOf(bad), bad).toBe("yao.type_mismatch");
    expect(say("lt")).toContain("both String");
    expect(typeOf('(lt "a" "b")')).toBe("Bool");
    expect(typeOf('(lt 1 "b")')).toBe("yao.type_mismatch");
    expect(say("lt")).toContain("Json included, is not ordered");
    expect(typeOf("(lt (to-json 1) (to-json 2))")).toBe("yao.type_mismatch");
    expect(say("add")).toContain("no string concatenation");
    expect(typeOf('(add "a" "b")')).toBe("yao.type_mismatch");
    expect(say("eq")).toContain("must have a common type");
    expect(typeOf('(eq 1 "a")')).toBe("yao.type_mismatch");
    expect(typeOf("(eq 1 2.5)")).toBe("Bool");
  });
});
