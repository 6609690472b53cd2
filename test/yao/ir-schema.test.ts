/** The JSON Schema accepts every program the encoder writes and legacy persisted programs (the reference's own: test/reference/yao-program-hash.test.ts). */
import { Ajv2020 } from "ajv/dist/2020.js";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "./helpers.js";

const ajv = new Ajv2020({ strict: false });
const validate = ajv.compile(JSON.parse(readFileSync(join(REPO, "ir/yao-ir-0.1.schema.json"), "utf8")));

describe("ir/yao-ir-0.1.schema.json", () => {
  it.each(readdirSync(join(REPO, "golden/yao")))("golden %s is valid", (f) => {
    expect(
      validate(JSON.parse(readFileSync(join(REPO, "golden/yao", f), "utf8"))),
      JSON.stringify(validate.errors),
    ).toBe(true);
  });

  it("a legacy persisted program is valid (legacy reference.path kept)", () => {
    const p = JSON.parse(readFileSync(join(REPO, "fixtures/yao/persisted/legacy-reference-path.program.json"), "utf8"));
    expect(JSON.stringify(p)).toContain('"path":[]');
    expect(validate(p), JSON.stringify(validate.errors)).toBe(true);
  });

  it("rejects an unknown key inside a kind object", () => {
    const p = JSON.parse(readFileSync(join(REPO, "golden/yao/record-box.program.json"), "utf8"));
    p.body.kind.extra = 1;
    expect(validate(p)).toBe(false);
  });
});
