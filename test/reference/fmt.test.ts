/**
 * Reference conformance of `yaoc fmt` against the shared Morphz notes (the reference folder beside the repository): the
 * formatter's own example (`format_identity.hns`: `format --check` reports a change and, after
 * `--write`, the artifact_hash is unchanged and equals the recorded one), and every inline Morphz
 * fixture (refused exactly when the reader refuses it; idempotent; the same tree; package identity
 * unchanged). Skipped, with the reason, when that folder is absent.
 */
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { formatSource } from "../../src/fmt/format.js";
import { readAll } from "../../src/syntax/reader.js";
import { filesUnder, fmt, packageFacts, shape } from "../fmt/helpers.js";
import { describeReference, MORPHZ as MORPHZ_DIR, referenceJson } from "./reference.js";

interface MorphzCase {
  readonly path: string;
  readonly outcome: string;
  readonly artifact_hash?: string;
}
const MORPHZ = `${MORPHZ_DIR}/`;
const morphzIndex = (): MorphzCase[] => referenceJson<MorphzCase[]>("reference", "morphz-fixtures", "INDEX.json");

const FORMAT_CASE = "inline/morphz/src/harness_authoring.rs@70e0787/format_identity.hns";

describeReference("fmt against the Morphz reference notes", () => {
  it("format_identity.hns: --check reports a change; the formatted package keeps the recorded artifact_hash", async () => {
    const entry = morphzIndex().find((e) => e.path === FORMAT_CASE)!;
    expect(entry.outcome).toContain("format --check reports change");
    const path = `${MORPHZ}${FORMAT_CASE}`;
    const original = readFileSync(path, "utf8");
    const formatted = fmt(original);
    expect(formatted).not.toBe(original);
    const files = filesUnder(path);
    const before = await packageFacts(files, "format_identity.hns", (t) => t);
    const after = await packageFacts(files, "format_identity.hns", fmt);
    expect(before.identity).toBe(entry.artifact_hash);
    expect(after.identity).toBe(entry.artifact_hash);
  });

  it("every inline Morphz fixture: refused iff the reader refuses; otherwise idempotent with the same tree and identity", async () => {
    let packages = 0;
    for (const e of morphzIndex()) {
      if (!e.path.startsWith("inline/")) continue;
      const path = `${MORPHZ}${e.path}`;
      const fixtureFiles = filesUnder(path);
      expect(fixtureFiles.size, e.path).toBeGreaterThan(0);
      for (const [rel, bytes] of fixtureFiles) {
        if (rel !== "" && !/\.(yao|hns)$/.test(rel)) continue;
        const r = formatSource(bytes);
        const read = readAll(bytes);
        expect(r.ok, `${e.path}/${rel}`).toBe(read.ok);
        if (!r.ok || !read.ok) continue;
        expect(fmt(r.text)).toBe(r.text);
        const again = readAll(r.text);
        expect(again.ok && again.forms.map(shape)).toEqual(read.forms.map(shape));
      }
      if (e.path.endsWith(".hns") && e.artifact_hash !== undefined) {
        const files = filesUnder(path);
        const name = e.path.split("/").pop()!;
        const after = await packageFacts(files, name, (t) => {
          const r = formatSource(t);
          return r.ok ? r.text : t;
        });
        expect(after.loadedIdentity, e.path).toBe(e.artifact_hash);
        packages++;
      }
    }
    expect(packages).toBeGreaterThan(5);
  });
});
