/**
 * The strict ordinary-JSON Schema of a Yao type, for the result contract of an `infer` request:
 * exactly the plain JSON that `fromPlainJson` accepts, shaped as upstream's `json_schema`
 * (morphz yao/src/json.rs) makes it. Records and unions close their members
 * (`additionalProperties: false`, every field required); an Int is bounded to i64; named types are
 * written once under `$defs` and referenced by a JSON Pointer, so a type used many times is not
 * repeated. Like upstream, the schema carries no `$schema` key.
 */
import type { FieldDefinition, YaoType } from "../../ir/yao-ir-0.1.js";
import { escapePointerToken } from "../json/pointer.js";
import { compareCodePoints } from "../text/code-point-order.js";
import type { TypeTable } from "./decode.js";

/**
 * The i64 bounds of an Int, as upstream writes them (`i64::MIN`, `i64::MAX`). They are bigints
 * because 2^63 − 1 has no exact JavaScript number: the request prints them digit for digit.
 */
export const INT_SCHEMA_MINIMUM = -(2n ** 63n);
export const INT_SCHEMA_MAXIMUM = 2n ** 63n - 1n;

export type Schema = { [key: string]: SchemaValue };
export type SchemaValue = null | boolean | number | bigint | string | SchemaValue[] | Schema;

function closedObject(properties: [string, Schema][]): Schema {
  return {
    type: "object",
    properties: Object.fromEntries(properties),
    required: properties.map(([n]) => n),
    additionalProperties: false,
  };
}

const tagged = (c: string, rest: [string, Schema][]): Schema => closedObject([["case", { const: c }], ...rest]);

export function jsonSchema(root: YaoType, types: TypeTable): Schema {
  const defs = new Map<string, Schema>();
  const pending: string[] = [];
  const of = (t: YaoType): Schema => {
    switch (t.kind) {
      case "nil":
        return { type: "null" };
      case "bool":
        return { type: "boolean" };
      case "int":
        return { type: "integer", minimum: INT_SCHEMA_MINIMUM, maximum: INT_SCHEMA_MAXIMUM };
      case "float":
        return { type: "number" };
      case "string":
      case "bytes":
        return { type: "string" };
      case "json":
        return {};
      case "list":
        return { type: "array", items: of(t.value) };
      case "map":
        return { type: "object", additionalProperties: of(t.value) };
      case "structural_record":
        return closedObject([...t.value.keys()].sort(compareCodePoints).map((k) => [k, of(t.value.get(k)!)]));
      case "option":
        return { oneOf: [tagged("none", []), tagged("some", [["value", of(t.value)]])] };
      case "result":
        return {
          oneOf: [tagged("ok", [["value", of(t.value.ok)]]), tagged("err", [["value", of(t.value.error)]])],
        };
      case "named":
        if (!defs.has(t.value)) {
          defs.set(t.value, {});
          pending.push(t.value);
        }
        return { $ref: `#/$defs/${escapePointerToken(t.value)}` };
      default:
        // Authority-bearing types have no plain JSON form; nothing validates as one.
        return { not: {} };
    }
  };
  const fields = (fs: readonly FieldDefinition[]): Schema => closedObject(fs.map((f) => [f.name, of(f.ty)]));
  const schema: Schema = of(root);
  while (pending.length > 0) {
    const name = pending.shift()!;
    const def = types.get(name);
    if (def === undefined) defs.set(name, { not: {} });
    else if (def.kind === "record") defs.set(name, fields(def.fields));
    else defs.set(name, { oneOf: def.variants.map((v) => tagged(v.name, [["fields", fields(v.fields)]])) });
  }
  if (defs.size > 0) {
    schema.$defs = Object.fromEntries([...defs.keys()].sort(compareCodePoints).map((k) => [k, defs.get(k)!]));
  }
  return schema;
}
