/** The JSON Schema accepts every program the encoder writes and the reference's persisted programs. */
import { Ajv2020 } from "ajv/dist/2020.js";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MORPHZ, REPO } from "./helpers.js";

const ajv = new Ajv2020({ strict: false });
const validate = ajv.compile(JSON.parse(readFileSync(join(REPO, "ir/yao-ir-0.1.schema.json"), "utf8")));

describe("ir/yao-ir-0.1.schema.json", () => {
  it.each(readdirSync(join(REPO, "golden/yao")))("golden %s is valid", (f) => {
    expect(validate(JSON.parse(readFileSync(join(REPO, "golden/yao", f), "utf8"))), JSON.stringify(validate.errors)).toBe(true);
  });

  it("the v0.1.2 persisted programs are valid (legacy path kept)", () => {
    const fixture = JSON.parse(readFileSync(join(MORPHZ, "repo/yao/tests/fixtures/v0.1.2-programs@ba8397d.json"), "utf8")) as { program: unknown }[];
    for (const p of fixture) expect(validate(p.program), JSON.stringify(validate.errors)).toBe(true);
  });

  it("rejects an unknown key inside a kind object", () => {
    const p = JSON.parse(readFileSync(join(REPO, "golden/yao/record-box.program.json"), "utf8"));
    p.body.kind.extra = 1;
    expect(validate(p)).toBe(false);
  });
});
