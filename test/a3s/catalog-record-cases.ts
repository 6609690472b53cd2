/**
 * A catalog-v3 record is read as valid as it is and with its id and version rewritten (which is how
 * the resolver tests build their candidates from it): one routine run over our own record
 * (test/a3s/own-package.ts, in test/a3s/resolve.test.ts) and the reference's catalog-record-okf-v3.json
 * (test/reference/a3s-resolve.test.ts, skipped with a reason without the reference). Issue 33 item 5.
 */
import { expect, test } from "vitest";
import { canonicalDigest, type CJson } from "../../src/a3s/package/cjson.js";
import { readVerifiedRecord } from "../../src/a3s/resolve/verified-record.js";

/** The verified-record input for `record`: provenance from registry "official", digest over the record. */
export function verifiedInput(record: Record<string, CJson>, registry = "official") {
  return {
    record,
    provenance: {
      registryName: registry,
      registryUrl: `https://${registry}.example`,
      rootSha256: canonicalDigest(registry),
      rootVersion: 1,
      timestampVersion: 1,
      snapshotVersion: 1,
      targetsVersion: 1,
      catalogRecordDigest: canonicalDigest(record),
    },
  };
}

export function catalogRecordCasesOn(which: string, record: Record<string, CJson>): void {
  test(`${which} is a valid catalog-v3 record, with or without a rewritten id and version`, () => {
    for (const r of [record, { ...record, packageId: "acme/other", version: "2.0.0" }])
      expect(readVerifiedRecord(verifiedInput(r))).toMatchObject({ ok: true });
    // The digest in the provenance binds the record: a changed record under the old digest is refused.
    const input = verifiedInput(record);
    expect(readVerifiedRecord({ ...input, record: { ...record, version: "9.9.9" } })).toMatchObject({ ok: false });
  });
}
