/**
 * Runs every fixture under fixtures/a3s/ and compares with golden/a3s/. Goldens are produced by the
 * code (UPDATE_GOLDEN=1) and reviewed against the reference (docs/a3s.md "Fixtures"); never typed in.
 * The records are those of src/cli/golden/suites.ts, which `yaoc golden verify` recomputes too.
 * A3S_WRITE_FIXTURES=1 regenerates the fixtures first (test/a3s/fixtures-gen.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { olpcCanonical } from "../../src/a3s/package/cjson.js";
import { resolveFromRegistry } from "../../src/a3s/resolve/registry.js";
import {
  a3sGoldenNames,
  a3sLockRecord,
  a3sOkfRecord,
  a3sPackageRecord,
  a3sRegistryRecord,
  type GoldenRecord,
} from "../../src/cli/golden/suites.js";
import { NodeFs } from "../../src/fs/node-fs.js";
import { expectGoldenFile } from "../support/golden-file.js";
import { writeFixtures } from "./fixtures-gen.js";
import { REPO } from "./helpers.js";

if (process.env["A3S_WRITE_FIXTURES"] === "1") writeFixtures();

const FIX = join(REPO, "fixtures", "a3s");
const GOLD = join(REPO, "golden", "a3s");
const fs = new NodeFs();
const names = a3sGoldenNames(REPO);

/** Compare (or, with UPDATE_GOLDEN=1, write) the record and hand back the result it shows. */
async function golden<R>(record: Promise<GoldenRecord<R>>): Promise<R> {
  const { file, text, result } = await record;
  expectGoldenFile(join(GOLD, file), text);
  return result;
}

describe("packages", () => {
  test("one valid and seven failing packages", () => expect(names.packages.length).toBe(8));
  test.each(names.packages)("%s", async (n) => {
    const r = await golden(a3sPackageRecord(REPO, n));
    expect(r.valid).toBe(n.startsWith("valid"));
  });
});

describe("okf bundles", () => {
  test.each(names.okf)("%s", async (n) => {
    const r = await golden(a3sOkfRecord(REPO, n));
    expect(r.diagnostics.some((d) => d.severity === "error")).toBe(n !== "bundle-v02");
  });
});

describe("registries", () => {
  test.each(names.registry)("%s", async (n) => {
    const r = await golden(a3sRegistryRecord(REPO, n));
    expect(r.lock !== null).toBe(n === "closure" || n === "backtracking");
  });
  test("the closure registry resolves to exactly locks/closure.json", async () => {
    const r = await resolveFromRegistry(fs, join(FIX, "registry", "closure", "records"), "acme/root", {
      target: "linux-x86_64",
      useVersion: "0.3.0",
    });
    expect(`${olpcCanonical(r.lock)}\n`).toBe(readFileSync(join(FIX, "locks", "closure.json"), "utf8"));
  });
});

describe("locks", () => {
  test.each(names.locks)("%s", async (n) => {
    const r = await golden(a3sLockRecord(REPO, n));
    expect(r.diagnostics.length === 0).toBe(n === "closure.json");
  });
});
