/**
 * Every package case (a path ending in `.hns`) of the Morphz reference fixtures (INDEX.json) is
 * loaded and must match its recorded outcome: the reference `artifact_hash`, or the reference
 * rejection message. Our own fixtures (fixtures/hns, test/hns/golden.test.ts) cover every code.
 */
import { join } from "node:path";
import { expect, it } from "vitest";
import { loadableSource } from "../../src/canonical/package-identity.js";
import { NodeFs } from "../../src/fs/node-fs.js";
import { loadFromSource, loadPackage } from "../../src/hns/load.js";
import { failure, identityInput, loaded } from "../hns/helpers.js";
import { describeReference, MORPHZ, referenceJson } from "./reference.js";

interface IndexEntry {
  readonly path: string;
  readonly outcome: string;
  readonly artifact_hash?: string;
}

const ROOT = MORPHZ;

/** The quoted reference message of a `rejected: "…"` outcome. */
function rejectionMessage(outcome: string): string | undefined {
  const m = /^rejected: ("(?:[^"\\]|\\.)*")/.exec(outcome);
  return m ? (JSON.parse(m[1]!) as string) : undefined;
}

/** Facts the INDEX states in prose, checked on top of the identity. */
const EXTRA: Record<string, (pkg: ReturnType<typeof loaded>) => void> = {
  "single.hns": (p) => {
    expect(p.manifest.id).toBe("coding");
    expect(p.entry.id).toBe("main");
    expect(p.entry.owner).toBe("runtime");
    expect(p.entry.declaredTools).toEqual(["read"]);
    expect(p.mind).toBeDefined();
  },
  "single_with_functions.hns": (p) => {
    expect(p.functions.map((f) => f.name)).toEqual(["load-file", "private-normalize"]);
    const loadFile = p.functions[0]!;
    expect(loadFile.visibility).toBe("exported");
    expect(loadFile.interfaceSource).not.toContain("(body");
    expect(p.functions[1]!.visibility).toBe("internal");
  },
  "single_with_functions_entry_types.hns": (p) => {
    expect(p.entry.typeSource).toBe("(types (record Receipt (path String) (verified Bool)))");
  },
  "single_typed_string_path.hns": (p) => {
    expect(p.entry.source).toContain('"/tmp/no-spaces.txt"');
  },
  "model_entry_pure_requires.hns": (p) => {
    expect(p.entry.owner).toBe("model");
    expect(p.entry.declaredTools).toEqual([]);
  },
  "block_metadata.hns": (p) => {
    const again = loaded(loadFromSource(`${p.manifest.id}.hns`, loadableSource(identityInput(p))));
    expect(again.identity).toBe(p.identity);
    expect(again.contract).toEqual(p.contract);
  },
};

describeReference("Morphz reference package fixtures (INDEX.json)", () => {
  const packages = referenceJson<IndexEntry[]>("reference", "morphz-fixtures", "INDEX.json").filter((e) =>
    /\.hns\/?$/.test(e.path),
  );
  it("the index lists the package cases", () => {
    expect(packages.length).toBeGreaterThanOrEqual(20);
    // Every package case states either an identity or a load outcome we can check.
    for (const e of packages) {
      expect(
        e.artifact_hash !== undefined ||
          rejectionMessage(e.outcome) !== undefined ||
          /accept|valid=true/.test(e.outcome),
        e.path,
      ).toBe(true);
    }
  });

  it.each(packages.map((e) => [e.path, e] as const))("%s", async (_path, entry) => {
    const result = await loadPackage(new NodeFs(), join(ROOT, entry.path));
    const expected = rejectionMessage(entry.outcome);
    if (expected !== undefined) {
      expect(failure(result).message).toBe(expected);
      return;
    }
    const pkg = loaded(result);
    if (entry.artifact_hash !== undefined) expect(pkg.identity).toBe(entry.artifact_hash);
    const name = entry.path.split("/").pop()!;
    const extra = EXTRA[name];
    if (extra !== undefined && !entry.path.includes("/dir-")) extra(pkg);
  });

  it("equal-identity pairs of the index agree (single file ≡ directory, comments ignored)", async () => {
    const load = async (p: string): Promise<string> =>
      loaded(await loadPackage(new NodeFs(), join(ROOT, "inline/morphz/src", p))).identity;
    expect(await load("harness_package.rs@fda7137/dir-coding/coding.hns")).toBe(
      await load("harness_package.rs@fda7137/single.hns"),
    );
    const functions = await load("harness_package.rs@fda7137/single_with_functions.hns");
    expect(await load("harness_package.rs@fda7137/dir-functions/coding.hns")).toBe(functions);
    expect(await load("harness_package.rs@fda7137/single_with_functions_commented.hns")).toBe(functions);
    expect(await load("harness_package.rs@fda7137/single_with_functions_changed_body.hns")).not.toBe(functions);
  });
});
