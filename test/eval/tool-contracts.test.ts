import { describe, expect, it } from "vitest";
import { checkSource } from "../../src/check/check.js";

const SCHEMAS = {
  write: {
    type: "object",
    properties: {
      path: { type: "string", minLength: 1 },
      mode: { type: "string", enum: ["append", "replace"] },
      notify: { type: "string", format: "email" },
      opts: { type: "object", properties: { level: { type: "integer", maximum: 9 } }, required: ["level"] },
    },
    required: ["path", "mode"],
  },
};

const pkg = (entry: string, fn = '(call write (path path) (mode "append"))') => `(manifest
  (id acme.writer)
  (version "1.0.0")
  (title "Writer")
  (capabilities (tools write)))
(contract (purpose "Write files"))
(mind (frame (id w/one)))
(fn helper
  (visibility internal)
  (description "Writes")
  (params (path String))
  (returns Json)
  (effects (tool write))
  (body ${fn}))
(eval (requires (tools write)) ${entry})
`;

async function checked(text: string, schemas: Record<string, unknown> = SCHEMAS) {
  return checkSource("w.hns", text, { toolSchemas: schemas });
}

describe("tool contracts in check", () => {
  it("an illegal enum value in a function nobody calls is an error at the argument naming the schema path", async () => {
    const r = await checked(pkg('(call write (path "a") (mode "append"))', '(call write (path path) (mode "delete"))'));
    expect(r.valid).toBe(false);
    const [d] = r.diagnostics;
    expect(d).toMatchObject({ code: "eval.tool_contract", span: { start: { line: 14 } } });
    expect(d!.message).toContain("#/properties/mode/enum");
    expect(d!.message).toContain('found "delete"');
    expect(r.report).toMatchObject({ tool_contracts_verified: false, unresolved_tool_schemas: [] });
  });

  it("checks nested required fields, bounds and formats of evaluated arguments", async () => {
    const cases: [string, string][] = [
      ['(call write (path "a") (mode "append") (opts (json-object (depth 1))))', "#/properties/opts/required"],
      [
        '(call write (path "a") (mode "append") (opts (json-object (level (add 5 5)))))',
        "#/properties/opts/properties/level/maximum",
      ],
      ['(call write (path "a") (mode "append") (notify "not an address"))', "#/properties/notify/format"],
      ['(call write (path "") (mode "append"))', "#/properties/path/minLength"],
    ];
    for (const [call, path] of cases) {
      const r = await checked(pkg(call));
      expect(
        r.diagnostics.map((d) => d.code),
        call,
      ).toEqual(["eval.tool_contract"]);
      expect(r.diagnostics[0]!.message, call).toContain(path);
    }
  });

  it("a package within its tools' contracts is valid and reports full coverage", async () => {
    const r = await checked(
      pkg('(seq (bind p "x") (call write (path p) (mode "replace") (opts (json-object (level 3)))))'),
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.valid).toBe(true);
    expect(r.report).toEqual({
      tool_contracts_verified: true,
      tool_schema_coverage: { functions: 2, calls: 2, static_calls: 2, static_arguments: 3 },
      unresolved_tool_schemas: [],
    });
  });

  it("tools without a schema are listed as unresolved, and nothing is invented for them", async () => {
    const r = await checked(pkg('(call write (path "a") (mode "delete"))'), {});
    expect(r.valid).toBe(true);
    expect(r.report).toMatchObject({ tool_contracts_verified: false, unresolved_tool_schemas: ["write"] });
  });
});
