/**
 * Runs every fixture under fixtures/a3s/ and compares with golden/a3s/. Goldens are produced by the
 * code (UPDATE_GOLDEN=1) and reviewed against the reference (docs/a3s.md "Fixtures"); never typed in.
 * A3S_WRITE_FIXTURES=1 regenerates the fixtures first (test/a3s/fixtures-gen.ts).
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, test } from "vitest";
import { checkA3s } from "../../src/a3s/index.js";
import { checkOkfBundle, parseOkfContractJson } from "../../src/a3s/okf/bundle.js";
import { DEFAULT_OKF_LIMITS } from "../../src/a3s/okf/contract.js";
import { resolveFromRegistry, verifyLockFile } from "../../src/a3s/resolve/registry.js";
import { olpcCanonical } from "../../src/a3s/package/cjson.js";
import { NodeFs } from "../../src/fs/node-fs.js";
import { writeFixtures } from "./fixtures-gen.js";
import { REPO } from "./helpers.js";
import { UPDATE_GOLDEN } from "../support/update-golden.js";

if (process.env["A3S_WRITE_FIXTURES"] === "1") writeFixtures();

const FIX = join(REPO, "fixtures", "a3s");
const GOLD = join(REPO, "golden", "a3s");
const update = UPDATE_GOLDEN;
const fs = new NodeFs();
const list = (d: string) => (existsSync(join(FIX, d)) ? readdirSync(join(FIX, d)).sort() : []);

function golden(name: string, actual: unknown): void {
  const file = join(GOLD, `${name}.json`);
  const text = `${JSON.stringify(actual, null, 2)}\n`;
  if (update) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  expect(text).toBe(readFileSync(file, "utf8"));
}

describe("packages", () => {
  const names = list("packages");
  test("one valid and seven failing packages", () => expect(names.length).toBe(8));
  test.each(names)("%s", async (n) => {
    const { sources: _s, ...r } = await checkA3s(fs, `fixtures/a3s/packages/${n}`);
    golden(`packages/${n}`, r);
    expect(r.valid).toBe(n.startsWith("valid"));
  });
});

describe("okf bundles", () => {
  const names = list("okf").filter((n) => !n.endsWith(".json"));
  test.each(names)("%s", async (n) => {
    const contractFile = join(FIX, "okf", `${n}.contract.json`);
    const c = existsSync(contractFile) ? parseOkfContractJson(readFileSync(contractFile)) : null;
    if (c !== null && !c.ok) throw new Error(c.error.message);
    const contract = c?.ok ? c.contract : null;
    const r = await checkOkfBundle(fs, join(FIX, "okf", n), contract?.limits ?? DEFAULT_OKF_LIMITS, contract);
    golden(`okf/${n}`, r);
    expect(r.diagnostics.some((d) => d.severity === "error")).toBe(n !== "bundle-v02");
  });
});

describe("registries", () => {
  test.each(list("registry"))("%s", async (n) => {
    const args = JSON.parse(readFileSync(join(FIX, "registry", n, "resolve.json"), "utf8")) as {
      root: string;
      target: string;
      useVersion: string;
    };
    const r = await resolveFromRegistry(fs, join(FIX, "registry", n, "records"), args.root, {
      target: args.target,
      useVersion: args.useVersion,
    });
    const selected =
      r.lock?.packages.map(
        (p) =>
          `${(p.catalog.record as Record<string, string>)["packageId"]}@${(p.catalog.record as Record<string, string>)["version"]}`,
      ) ?? null;
    golden(`registry/${n}`, {
      diagnostics: r.diagnostics,
      selected,
      digest: r.digest,
      installOrder: r.verification?.installOrder ?? null,
      removalOrder: r.verification?.removalOrder ?? null,
    });
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
  test.each(list("locks"))("%s", async (n) => {
    const r = await verifyLockFile(fs, `fixtures/a3s/locks/${n}`);
    golden(`locks/${n.replace(/\.json$/, "")}`, {
      diagnostics: r.diagnostics,
      digest: r.verification?.digest ?? null,
      installOrder: r.verification?.installOrder ?? null,
      removalOrder: r.verification?.removalOrder ?? null,
    });
    expect(r.diagnostics.length === 0).toBe(n === "closure.json");
  });
});
