/**
 * Reference conformance: `--format sarif` output validates against the official OASIS SARIF 2.1.0
 * JSON Schema with Errata 01, read from the reference folder beside the repository (reference/sarif/) (never copied into the project).
 * Skipped, with the reason, when the shared directory is absent (a bare clone).
 */
import { readFileSync } from "node:fs";
import AjvDraft04Module from "ajv-draft-04";
import { expect, it } from "vitest";
import { yaoc } from "../support/cli.js";
import { describeReference, referencePath } from "./reference.js";

// A CommonJS default export: under NodeNext the class is `.default` of the module object.
const AjvDraft04 = ((AjvDraft04Module as unknown as { default?: unknown }).default ??
  AjvDraft04Module) as typeof AjvDraft04Module.default;

const SCHEMA = referencePath("reference", "sarif", "sarif-schema-2.1.0.json");

function validator() {
  const ajv = new AjvDraft04({ allErrors: true, strict: false });
  // The schema's formats: URIs must parse as absolute URLs (SARIF requires absolute helpUri);
  // uri-reference accepts relative references (artifact locations).
  ajv.addFormat("uri", (s: string) => {
    try {
      new URL(s);
      return true;
    } catch {
      return false;
    }
  });
  ajv.addFormat("uri-reference", (s: string) => !/\s/.test(s));
  ajv.addFormat("date-time", (s: string) => !Number.isNaN(Date.parse(s)));
  return ajv.compile(JSON.parse(readFileSync(SCHEMA, "utf8")) as object);
}

describeReference("SARIF 2.1.0 (Errata 01) official schema", () => {
  const validate = validator();

  it.each([
    [
      "check, several frontends",
      [
        "check",
        "--format",
        "sarif",
        "fixtures/hns/failure/yao.unclosed_list/single.hns",
        "fixtures/harp/invalid-types",
        "fixtures/hcp/policy-unknown-stimulus",
        "fixtures/a3s/packages/readme-missing",
      ],
    ],
    ["check, a valid package (no results)", ["check", "--format", "sarif", "examples/review.hns"]],
    ["hcp lint", ["hcp", "lint", "--format", "sarif", "fixtures/hcp/id-missing"]],
    ["harp validate", ["harp", "validate", "--format", "sarif", "fixtures/harp/invalid-duplicate-key"]],
    ["a3s check", ["a3s", "check", "--format", "sarif", "fixtures/a3s/packages/okf-contract-mismatch"]],
  ])("%s validates", (_name, args) => {
    const r = yaoc(args);
    const log = JSON.parse(r.out) as unknown;
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it("the schema catches a broken log (the check can fail)", () => {
    const log = JSON.parse(yaoc(["check", "--format", "sarif", "fixtures/harp/invalid-types"]).out) as {
      runs: { results: { level: string }[] }[];
    };
    log.runs[0]!.results[0]!.level = "fatal";
    expect(validate(log)).toBe(false);
  });
});
