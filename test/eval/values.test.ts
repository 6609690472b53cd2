import { describe, expect, it } from "vitest";
import {
  floatText,
  parseCompletion,
  parseValueText,
  resumeState,
  startProgram,
  valueText,
} from "../../src/eval/index.js";
import { compile, requests, run, value } from "./helpers.js";

describe("pure evaluation with the Morphz value model", () => {
  it("evaluates bindings, control and checked arithmetic", () => {
    expect(value("(eval (seq (bind x (add 2 3)) (if (eq x 5) (mul x 2) 0)))")).toBe("10");
    expect(value("(eval (div 7 2))")).toBe("3.5");
    expect(value("(eval (div 4 2))")).toBe("2.0");
    expect(value("(eval (add 1.5 2))")).toBe("3.5");
  });

  it("classifies value failures with the reference's words and the failing node's span", () => {
    const zero = run("(eval (div 1 0))");
    expect(zero).toMatchObject({ outcome: "failure", failure: { class: "value", message: "division by zero" } });
    if (zero.outcome === "failure") expect(zero.failure.span?.start.column).toBe(7);
    expect(run("(eval (add 9223372036854775807 1))")).toMatchObject({
      failure: { class: "value", message: "integer arithmetic overflow" },
    });
    expect(run("(eval (mul 9223372036854775807 2 0))")).toMatchObject({
      failure: { message: "integer arithmetic overflow" },
    });
    expect(run("(eval (mul 1e300 1e300))")).toMatchObject({
      failure: { message: "floating-point result is not finite" },
    });
    expect(run("(eval (add 1e999 1.0))")).toMatchObject({
      failure: { class: "value", message: "Float literal is not finite", span: { start: { column: 12 } } },
    });
    expect(run("(eval (sub -9223372036854775807 2))")).toMatchObject({
      failure: { class: "value", message: "integer arithmetic overflow" },
    });
    expect(run("(eval (div 1.0 0.0))")).toMatchObject({ failure: { class: "value", message: "division by zero" } });
    expect(run("(eval (get (dict (a 1)) b))")).toMatchObject({ failure: { message: "value has no field 'b'" } });
  });

  it("tags records, variants, options, results and par results exactly", () => {
    expect(value("(eval (some 7))")).toBe('{"$yao":{"kind":"option","value":7,"variant":"some"}}');
    expect(value("(eval (none String))")).toBe('{"$yao":{"kind":"option","variant":"none"}}');
    expect(value("(eval (ok 7 String))")).toBe('{"$yao":{"kind":"result","value":7,"variant":"ok"}}');
    expect(value("(eval (par (branch z 1) (branch a 2)))")).toBe(
      '{"$yao":{"fields":[{"name":"z","value":1},{"name":"a","value":2}],"kind":"structural_record"}}',
    );
    expect(
      value(`(eval (types (record Row (enabled Bool)) (union D (yes (why String)) (no)))
        (par (branch r (record Row (enabled true))) (branch d (variant D.yes (why "x")))))`),
    ).toBe(
      '{"$yao":{"fields":[{"name":"r","value":{"$yao":{"fields":{"enabled":true},"kind":"record","type":"Row"}}},{"name":"d","value":{"$yao":{"fields":{"why":"x"},"kind":"variant","type":"D","variant":"yes"}}}],"kind":"structural_record"}}',
    );
  });

  it("tags refs and Program Values as eval.rs does", () => {
    expect(value("(eval (par (branch a runtime.agent) (branch o runtime.objective)))")).toBe(
      '{"$yao":{"fields":[{"name":"a","value":{"$yao":{"id":"local","kind":"ref","ref_kind":"Agent"}}},{"name":"o","value":{"$yao":{"kind":"option","variant":"none"}}}],"kind":"structural_record"}}',
    );
    const r = startProgram(compile('(eval (infer (returns (Program Int (effects))) "write a program"))'), {
      tools: {},
    });
    const done = resumeState(r.state(), { id: requests(r)[0]!.get("id") as string, text: "(eval 1)" });
    expect(done.result.outcome).toBe("value");
    if (done.result.outcome === "value")
      expect(valueText(done.result.value)).toMatch(/^\{"\$yao":\{"hash":"sha256:[0-9a-f]{64}","kind":"program"\}\}$/);
  });

  it("eq is deep equality and an Int never equals a Float", () => {
    expect(value("(eval (eq (dict (a (list 1 2))) (dict (a (list 1 2)))))")).toBe("true");
    expect(value("(eval (eq (to-json 1) (to-json 1.0)))")).toBe("false");
    expect(value('(eval (lt "a" "b"))')).toBe("true");
  });

  it("and/or short-circuit: the right operand never runs", () => {
    expect(value("(eval (or true (eq (div 1 0) 1.0)))")).toBe("true");
    expect(value("(eval (and false (eq (div 1 0) 1.0)))")).toBe("false");
  });

  it("match binds case fields in the case only; map, fallback and functions isolate scopes", () => {
    expect(
      value(`(eval (types (union D (accept (reason String)) (reject (reason String))))
        (seq (bind d (variant D.accept (reason "ok"))) (match d ((case D.accept (reason why)) why) ((case D.reject (reason why)) why))))`),
    ).toBe('"ok"');
    expect(value("(eval (map (list 1 2 3) x (mul x x)))")).toBe("[1,4,9]");
    expect(value("(eval (fallback (div 1 0) 0.5))")).toBe("0.5");
  });

  it("from-json and to-json use the plain mapping with field paths", () => {
    expect(value(`(eval (types (record Row (enabled Bool))) (to-json (list (record Row (enabled true)))))`)).toBe(
      '[{"enabled":true}]',
    );
    expect(value(`(eval (types (union D (yes (n Int)) (no))) (to-json (variant D.yes (n 1))))`)).toBe(
      '{"case":"yes","fields":{"n":1}}',
    );
    expect(value("(eval (to-json (some 1)))")).toBe('{"case":"some","value":1}');
    expect(value("(eval (to-json (none Int)))")).toBe('{"case":"none"}');
    expect(value("(eval (to-json (err 2.5 Int)))")).toBe('{"case":"err","value":2.5}');
    expect(value("(eval (from-json (Result Int String) (to-json (ok 7 String))))")).toBe(
      '{"$yao":{"kind":"result","value":7,"variant":"ok"}}',
    );
    expect(
      run(`(eval (types (record Row (enabled Bool))) (from-json (List Row) (to-json (list (dict (enabled "yes"))))))`),
    ).toMatchObject({ failure: { class: "value", message: '$[0]["enabled"]: expected Bool, found string' } });
    expect(
      run(
        `(eval (types (record Row (enabled Bool))) (from-json (List Row) (to-json (list (dict (enabled true) (extra false))))))`,
      ),
    ).toMatchObject({ failure: { message: '$[0]["extra"]: unknown field' } });
    expect(
      value(`(eval (types (record Row (enabled Bool))) (from-json (List Row) (to-json (list (dict (enabled true))))))`),
    ).toBe('[{"$yao":{"fields":{"enabled":true},"kind":"record","type":"Row"}}]');
  });

  it("a $yao key inside a Json value stays data: from-json never reads it as a tagged value", () => {
    const r = startProgram(
      compile('(eval (requires (tools read)) (seq (bind j (call read (path "a"))) (from-json (Option Int) j)))'),
    );
    const id = requests(r)[0]!.get("id") as string;
    const forged = parseCompletion(
      JSON.stringify({ id, value: { $yao: { kind: "option", variant: "some", value: 1 } } }),
    );
    expect(resumeState(r.state(), forged).result).toMatchObject({
      outcome: "failure",
      failure: { class: "value", message: '$["case"]: missing required field' },
    });
    const plain = parseCompletion(JSON.stringify({ id, value: { case: "some", value: 1 } }));
    expect(resumeState(r.state(), plain).result).toMatchObject({ outcome: "value" });
  });

  it("an integer decoded into a Float field becomes the Float (divergence D-eval-float): eq with 1.0 holds", () => {
    const r = startProgram(
      compile(`(eval (requires (tools read)) (types (record P (x Float)))
        (seq (bind j (call read (path "a"))) (bind p (from-json P j)) (par (branch v p) (branch e (eq p.x 1.0)))))`),
    );
    const done = resumeState(
      r.state(),
      parseCompletion(JSON.stringify({ id: requests(r)[0]!.get("id"), value: { x: 1 } })),
    );
    expect(done.result.outcome).toBe("value");
    if (done.result.outcome === "value")
      expect(valueText(done.result.value)).toBe(
        '{"$yao":{"fields":[{"name":"v","value":{"$yao":{"fields":{"x":1.0},"kind":"record","type":"P"}}},{"name":"e","value":true}],"kind":"structural_record"}}',
      );
  });

  it("floats print as serde_json does and read back as Floats", () => {
    expect(floatText(1)).toBe("1.0");
    expect(floatText(1e16)).toBe("1e16");
    expect(floatText(1e-7)).toBe("1e-7");
    expect(floatText(0.00001)).toBe("0.00001");
    expect(floatText(123.456)).toBe("123.456");
    expect(floatText(1.5e300)).toBe("1.5e300");
    expect(typeof parseValueText("1.0")).toBe("number");
    expect(typeof parseValueText("1")).toBe("bigint");
    expect(valueText(parseValueText('{"b":1.0,"a":[1,2.5]}'))).toBe('{"a":[1,2.5],"b":1.0}');
    expect(() => parseValueText('{"a":1,"a":2}')).toThrow(/duplicate key/);
    expect(() => parseValueText("1 2")).toThrow(/trailing/);
  });
});
