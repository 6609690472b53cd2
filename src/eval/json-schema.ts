/**
 * The strict ordinary-JSON Schema (draft 2020-12) of a Yao type, for the result contract of an
 * `infer` request: exactly the plain JSON that `fromPlainJson` accepts. Records and unions close
 * their members (`additionalProperties: false`, every field required); named types are written
 * once under `$defs` and referenced, so a type used many times is not repeated.
 */
import type { FieldDefinition, YaoType } from "../../ir/yao-ir-0.1.js";
import { compareCodePoints } from "../text/code-point-order.js";
import type { TypeTable } from "./decode.js";

export type Schema = { [key: string]: SchemaValue };
export type SchemaValue = null | boolean | number | string | SchemaValue[] | Schema;

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
        return { type: "integer" };
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
        return { $ref: `#/$defs/${encodeURIComponent(t.value)}` };
      default:
        // Authority-bearing types have no plain JSON form; nothing validates as one.
        return { not: {} };
    }
  };
  const fields = (fs: readonly FieldDefinition[]): Schema => closedObject(fs.map((f) => [f.name, of(f.ty)]));
  const schema: Schema = { $schema: "https://json-schema.org/draft/2020-12/schema", ...of(root) };
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
