import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { UPDATE_GOLDEN } from "../support/update-golden.js";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const FIXTURES = join(REPO, "fixtures/harp");
export const GOLDEN = join(REPO, "golden/harp");
export const FIXTURE_APP = join(REPO, "conformance/harp/fixture-app");

/**
 * Compare against golden/harp/<name>.json. Goldens are written only with UPDATE_GOLDEN=1 and then
 * reviewed by a person; a missing golden fails the test rather than being created silently.
 */
export function expectGolden(name: string, actual: unknown): void {
  const file = join(GOLDEN, `${name}.json`);
  const text = `${JSON.stringify(actual, null, 2)}\n`;
  if (UPDATE_GOLDEN) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return;
  }
  expect(existsSync(file), `golden ${file} is missing; run with UPDATE_GOLDEN=1 and review it`).toBe(true);
  expect(text).toBe(readFileSync(file, "utf8"));
}
