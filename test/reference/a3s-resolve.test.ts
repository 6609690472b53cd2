/** The A3S Use core catalog-v3 record is read as valid by our catalog reader (our own record: test/a3s/resolve.test.ts). */
import { expect, test } from "vitest";
import { readVerifiedRecord } from "../../src/a3s/resolve/verified-record.js";
import { canonicalDigest, parseStrictJson, type CJson } from "../../src/a3s/package/cjson.js";
import { describeReference, referenceText } from "./reference.js";

describeReference("catalog-record-okf-v3.json", () => {
  test("is a valid catalog-v3 record, with or without a rewritten id and version", () => {
    const record = parseStrictJson(
      referenceText("reference", "a3s", "Use", "crates", "core", "fixtures", "plugins", "catalog-record-okf-v3.json"),
    ) as Record<string, CJson>;
    for (const r of [record, { ...record, packageId: "acme/other", version: "2.0.0" }]) {
      const provenance = {
        registryName: "official",
        registryUrl: "https://official.example",
        rootSha256: canonicalDigest("official"),
        rootVersion: 1,
        timestampVersion: 1,
        snapshotVersion: 1,
        targetsVersion: 1,
        catalogRecordDigest: canonicalDigest(r),
      };
      expect(readVerifiedRecord({ record: r, provenance })).toMatchObject({ ok: true });
    }
  });
});
