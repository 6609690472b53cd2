/**
 * Issue 20, deliverable 6: `evidence canon` / `evidence hash` read strictly (the HARP reader,
 * src/harp/json.ts, which reports positions, duplicates and lone surrogates): each problem is a
 * diagnostic with its location (file:line:column, and the JSON pointer of a duplicate), exit 1.
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BIN, yaoc } from "../support/cli.js";

describe.skipIf(!existsSync(BIN))("evidence canon / hash on invalid I-JSON (skipped unbuilt)", () => {
  it.each([
    [
      "canon",
      '{"a":1,\n "b":{"c":1,\n  "c":2}}',
      "<stdin>:3:3: error[evidence.input_duplicate_key]",
      "at JSON pointer /b/c",
    ],
    [
      "hash",
      '{"a":1,\n "b":{"c":1,\n  "c":2}}',
      "<stdin>:3:3: error[evidence.input_duplicate_key]",
      "at JSON pointer /b/c",
    ],
    ["canon", '["ok",\n "\\ud800x"]', "<stdin>:2:9: error[evidence.input_not_json]", "unpaired surrogate"],
    ["hash", '{"\\udc00":1}', "<stdin>:1:9: error[evidence.input_not_json]", "unpaired surrogate"],
    ["hash", '{"a":[1,}', "<stdin>:1:9: error[evidence.input_not_json]", "not I-JSON"],
  ])("%s %j", (command, input, located, detail) => {
    const r = yaoc(["evidence", command, "-"], { input });
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toContain(located);
    expect(r.err).toContain(detail);
  });
});
