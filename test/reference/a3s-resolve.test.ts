/** The A3S Use core catalog-v3 record through the same cases as our own record (test/a3s/catalog-record-cases.ts). */
import type { CJson } from "../../src/a3s/package/cjson.js";
import { parseStrictJson } from "../../src/a3s/package/cjson.js";
import { catalogRecordCasesOn } from "../a3s/catalog-record-cases.js";
import { describeReference, referenceText } from "./reference.js";

describeReference("catalog-record-okf-v3.json", () => {
  catalogRecordCasesOn(
    "the reference's record",
    parseStrictJson(
      referenceText("reference", "a3s", "Use", "crates", "core", "fixtures", "plugins", "catalog-record-okf-v3.json"),
    ) as Record<string, CJson>,
  );
});
