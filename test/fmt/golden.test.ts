/**
 * Golden outputs of `yaoc fmt` for every shipped example and fixture (`.yao`/`.hns` files):
 * `golden/fmt/<path>.formatted` holds the formatted text, `golden/fmt/<path>.refused` the reader
 * diagnostic that refuses an invalid file. UPDATE_GOLDEN=1 rewrites them (review every change and
 * commit with a `[golden]` title); otherwise the test only reads them. The records are those of
 * src/cli/golden/suites.ts, which `yaoc golden verify` recomputes too.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fmtGoldenFiles, fmtGoldenRecord } from "../../src/cli/golden/suites.js";
import { expectGoldenFile } from "../support/golden-file.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const GOLDEN = join(ROOT, "golden/fmt");
const files = fmtGoldenFiles(ROOT);

describe("golden/fmt", () => {
  it("covers the fixtures", () => {
    expect(files.length).toBeGreaterThan(300);
  });

  for (const rel of files) {
    it(rel, async () => {
      const { file, text } = await fmtGoldenRecord(ROOT, rel);
      expectGoldenFile(join(GOLDEN, file), text);
    });
  }
});
