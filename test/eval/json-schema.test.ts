import { describe, expect, it } from "vitest";
import { INT_SCHEMA_MAXIMUM, INT_SCHEMA_MINIMUM, startProgram, valueText } from "../../src/eval/index.js";
import { compile, requests } from "./helpers.js";

/** The `schema` an infer request carries for `(returns TYPE)`, printed as the request prints it. */
function schemaOf(types: string, returns: string): string {
  const r = startProgram(compile(`(eval (types ${types}) (infer (returns ${returns}) "answer"))`));
  const [req] = requests(r);
  expect(req!.get("kind")).toBe("infer");
  return valueText(req!.get("schema")!);
}

// Upstream's json_schema (morphz yao/src/json.rs) spelled out for these types: an Int bounded to
// i64, Option/Result as closed `case` envelopes under oneOf, a union's variants as `case` +
// `fields`, every named type once under $defs behind a JSON Pointer $ref, and no $schema key.
const INT = `{"maximum":9223372036854775807,"minimum":-9223372036854775808,"type":"integer"}`;
const closed = (props: string, required: string) =>
  `{"additionalProperties":false,"properties":{${props}},"required":[${required}],"type":"object"}`;

describe("the result contract's JSON Schema is upstream's json_schema", () => {
  it("bounds an Int to i64 digit for digit and carries no $schema key", () => {
    expect(schemaOf("(record Unused (x Int))", "Int")).toBe(INT);
    expect(INT_SCHEMA_MINIMUM).toBe(-9223372036854775808n);
    expect(INT_SCHEMA_MAXIMUM).toBe(9223372036854775807n);
  });

  it("writes records, unions, Option, Result, List and Map as upstream does", () => {
    const text = schemaOf(
      "(record Row (enabled Bool) (score Float)) (union Status (open) (closed (reason String))) (record Table (rows (List Row)) (status Status) (tags (Map String)) (best (Option Int)) (outcome (Result Int String)))",
      "Table",
    );
    const row = closed(`"enabled":{"type":"boolean"},"score":{"type":"number"}`, `"enabled","score"`);
    const option = `{"oneOf":[${closed(`"case":{"const":"none"}`, `"case"`)},${closed(`"case":{"const":"some"},"value":${INT}`, `"case","value"`)}]}`;
    const result = `{"oneOf":[${closed(`"case":{"const":"ok"},"value":${INT}`, `"case","value"`)},${closed(`"case":{"const":"err"},"value":{"type":"string"}`, `"case","value"`)}]}`;
    const status = `{"oneOf":[${closed(`"case":{"const":"open"},"fields":${closed("", "")}`, `"case","fields"`)},${closed(`"case":{"const":"closed"},"fields":${closed(`"reason":{"type":"string"}`, `"reason"`)}`, `"case","fields"`)}]}`;
    const table = closed(
      `"best":${option},"outcome":${result},"rows":{"items":{"$ref":"#/$defs/Row"},"type":"array"},"status":{"$ref":"#/$defs/Status"},"tags":{"additionalProperties":{"type":"string"},"type":"object"}`,
      `"rows","status","tags","best","outcome"`,
    );
    expect(text).toBe(`{"$defs":{"Row":${row},"Status":${status},"Table":${table}},"$ref":"#/$defs/Table"}`);
  });
});
