/**
 * Golden IR snapshots: each `fixtures/yao/golden/NAME.yao` (with `NAME.functions/*.yao` as its module)
 * is analysed under the Morphz profile with tools `read{path:String}` and dynamic `search`; the direct
 * serialisation must equal `golden/yao/NAME.program.json` (the record of src/cli/golden/suites.ts,
 * which `yaoc golden verify` recomputes too). Set UPDATE_GOLDEN=1 to rewrite them
 * (then review the diff: goldens are checked against the reference, never typed in).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { yaoGoldenCases, yaoGoldenRecord } from "../../src/cli/golden/suites.js";
import { readPersistedProgram } from "../../src/yao/index.js";
import { expectGoldenFile } from "../support/golden-file.js";
import { REPO } from "./helpers.js";

describe("golden IR", () => {
  it.each(yaoGoldenCases(REPO))("%s", async (name) => {
    const { file, text, result } = await yaoGoldenRecord(REPO, name);
    expect(result.diagnostics).toEqual([]);
    expectGoldenFile(join(REPO, "golden/yao", file), text);
    // The persisted form reads back to the same identity.
    const back = readPersistedProgram(text);
    expect(back.ok && back.programHash).toBe(result.programHash);
  });
});
