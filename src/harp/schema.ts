/**
 * The shipped v1 JSON Schema (seed §7.7, verbatim in schemas/harp-v1.schema.json) compiled once with
 * ajv's draft 2020-12 class. The schema is the mechanical source of truth; this module only runs it.
 */
import Ajv2020Module from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";
import schema from "../../schemas/harp-v1.schema.json" with { type: "json" };

// ajv is CommonJS; under NodeNext the default import is the module object in some toolchains and
// the class in others, so accept both.
const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ??
  Ajv2020Module) as typeof Ajv2020Module.default;

export const HARP_V1_SCHEMA: unknown = schema;
export const HARP_SCHEMA_ID = "https://harp.dev/schema/v1.json";

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (compiled === undefined) {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    compiled = ajv.compile(schema as object);
  }
  return compiled;
}

/** Run the v1 schema; returns ajv's raw errors (empty when valid). */
export function schemaErrors(value: unknown): ErrorObject[] {
  const v = validator();
  return v(value) ? [] : [...(v.errors ?? [])];
}
