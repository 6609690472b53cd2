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

  it("the same violation is found in an exported function nobody calls and in the entry", async () => {
    const exported = pkg('(call write (path "a") (mode "append"))', '(call write (path path) (mode "delete"))').replace(
      "(visibility internal)",
      "(visibility exported)",
    );
    const r = await checked(exported);
    expect(r.diagnostics).toMatchObject([{ code: "eval.tool_contract", span: { start: { line: 14 } } }]);
    expect(r.diagnostics[0]!.message).toContain("#/properties/mode/enum");
    const entry = await checked(pkg('(call write (path "a") (mode "delete"))'));
    expect(entry.diagnostics).toMatchObject([{ code: "eval.tool_contract", span: { start: { line: 15 } } }]);
    expect(entry.diagnostics[0]!.message).toContain("#/properties/mode/enum");
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

  it("a package within its tools' contracts is valid; it is verified only when no call waits for the run", async () => {
    // The helper's `path` is a parameter and the entry's is a `bind`: neither is known before the
    // run (the reference evaluates with no bindings), so both calls are deferred, as morphz
    // harness check reports them, and the package is valid but not verified.
    const r = await checked(
      pkg('(seq (bind p "x") (call write (path p) (mode "replace") (opts (json-object (level 3)))))'),
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.valid).toBe(true);
    expect(r.report).toEqual({
      tool_contracts_verified: false,
      tool_schema_coverage: { functions: 2, calls: 2, static_calls: 2, static_arguments: 3, deferred_calls: 2 },
      unresolved_tool_schemas: [],
    });
    const literal = '(call write (path "a") (mode "replace") (opts (json-object (level 3))))';
    const full = await checked(pkg(literal, literal));
    expect(full.diagnostics).toEqual([]);
    expect(full.report).toEqual({
      tool_contracts_verified: true,
      tool_schema_coverage: { functions: 2, calls: 2, static_calls: 2, static_arguments: 6, deferred_calls: 0 },
      unresolved_tool_schemas: [],
    });
  });

  it("a declared tool without a schema is unresolved even if nothing calls it; a schema that does not compile defers its calls", async () => {
    const text = pkg('(call write (path "a") (mode "append"))', '(call write (path "a") (mode "append"))').replace(
      "(capabilities (tools write))",
      "(capabilities (tools write search))",
    );
    const r = await checked(text);
    expect(r.valid).toBe(true);
    expect(r.report).toMatchObject({
      tool_contracts_verified: false,
      tool_schema_coverage: { deferred_calls: 0 },
      unresolved_tool_schemas: ["search"],
    });
    const broken = await checked(
      pkg('(call write (path "a") (mode "append"))', '(call write (path "a") (mode "append"))'),
      {
        write: { type: "object", properties: { path: { type: "string", pattern: "(" }, mode: { type: "string" } } },
      },
    );
    expect(broken.report).toMatchObject({
      tool_contracts_verified: false,
      tool_schema_coverage: { static_arguments: 0, deferred_calls: 2 },
      unresolved_tool_schemas: [],
    });
  });

  it("an Int beyond 2^53 is still an integer to the schema, and its bounds are still checked", async () => {
    const schemas = {
      count: {
        type: "object",
        properties: { n: { type: "integer", minimum: 0, maximum: 10_000_000_000_000_000 } },
        required: ["n"],
      },
    };
    const source = (n: string) =>
      `(manifest (id acme.count) (version "1.0.0") (title "Count") (capabilities (tools count)))
(contract (purpose "Count"))
(mind (frame (id w/one)))
(eval (requires (tools count)) (call count (n ${n})))
`;
    const big = await checked(source("9007199254740993"), schemas);
    expect(big.diagnostics).toEqual([]);
    expect(big.report).toMatchObject({ tool_contracts_verified: true });
    const over = await checked(source("9223372036854775807"), schemas);
    expect(over.diagnostics.map((d) => d.message)).toEqual([expect.stringContaining("#/properties/n/maximum")]);
    const under = await checked(source("-9007199254740993"), schemas);
    expect(under.diagnostics.map((d) => d.message)).toEqual([expect.stringContaining("#/properties/n/minimum")]);
  });

  it("a call with no arguments is checked as the empty object against the whole schema", async () => {
    const text = `(manifest (id acme.ping) (version "1.0.0") (title "Ping") (capabilities (tools ping)))
(contract (purpose "Ping"))
(mind (frame (id w/one)))
(eval (requires (tools ping)) (call ping))
`;
    const strict = await checked(text, { ping: { type: "object", properties: {}, minProperties: 1 } });
    expect(strict.diagnostics.map((d) => d.message)).toEqual([expect.stringContaining("#/minProperties")]);
    const open = await checked(text, { ping: { type: "object", properties: {} } });
    expect(open.diagnostics).toEqual([]);
    expect(open.report).toMatchObject({ tool_contracts_verified: true, tool_schema_coverage: { deferred_calls: 0 } });
  });

  it("tools without a schema are listed as unresolved, and nothing is invented for them", async () => {
    const r = await checked(pkg('(call write (path "a") (mode "delete"))'), {});
    expect(r.valid).toBe(true);
    expect(r.report).toMatchObject({ tool_contracts_verified: false, unresolved_tool_schemas: ["write"] });
  });
});
