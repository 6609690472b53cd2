/**
 * Golden IR snapshots: each `fixtures/yao/golden/NAME.yao` (with `NAME.functions/*.yao` as its module)
 * is analysed under the Morphz profile with tools `read{path:String}` and dynamic `search`; the direct
 * serialisation must equal `golden/yao/NAME.program.json`. Set UPDATE_GOLDEN=1 to rewrite them
 * (then review the diff: goldens are checked against the reference, never typed in).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  analyzeProgram,
  morphzProfile,
  programJson,
  readPersistedProgram,
  toolsFromManifest,
} from "../../src/yao/index.js";
import { parseFile, REPO } from "./helpers.js";
import { UPDATE_GOLDEN } from "../support/update-golden.js";

const FIXTURES = join(REPO, "fixtures/yao/golden");
const GOLDEN = join(REPO, "golden/yao");
const { tools } = toolsFromManifest(["read", "search"], {
  read: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
});
const profile = morphzProfile(tools);

const cases = readdirSync(FIXTURES)
  .filter((f) => f.endsWith(".yao"))
  .map((f) => f.slice(0, -4));

describe("golden IR", () => {
  it.each(cases)("%s", (name) => {
    const fnDir = join(FIXTURES, `${name}.functions`);
    const functions = existsSync(fnDir)
      ? readdirSync(fnDir)
          .sort()
          .map((f) => parseFile(join(fnDir, f)))
      : [];
    const r = analyzeProgram(parseFile(join(FIXTURES, `${name}.yao`)), { profile, functions, allowInternal: true });
    expect(r.diagnostics).toEqual([]);
    const text = programJson(r.program!);
    const golden = join(GOLDEN, `${name}.program.json`);
    if (UPDATE_GOLDEN) writeFileSync(golden, `${text}\n`);
    expect(text).toBe(readFileSync(golden, "utf8").trimEnd());
    // The persisted form reads back to the same identity.
    const back = readPersistedProgram(text);
    expect(back.ok && back.programHash).toBe(r.programHash);
  });
});
