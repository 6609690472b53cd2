/**
 * The compare-or-write step every golden suite shares: with UPDATE_GOLDEN=1 the record is written
 * (then reviewed and committed with [golden]); otherwise the committed file must exist and hold
 * exactly the text, byte for byte, as `yaoc golden verify` requires too. Apart from
 * update-golden.ts because vitest.config.ts loads that file, where vitest's `expect` is not at hand.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { expect } from "vitest";
import { UPDATE_GOLDEN } from "./update-golden.js";

export function expectGoldenFile(file: string, text: string): void {
  if (UPDATE_GOLDEN) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return;
  }
  expect(existsSync(file), `missing golden ${file}; run with UPDATE_GOLDEN=1 and review it`).toBe(true);
  expect(text).toBe(readFileSync(file, "utf8"));
}
