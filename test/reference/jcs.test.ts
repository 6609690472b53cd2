/** The RFC 8785 test vectors kept in the reference, through the same checks as our own (test/evidence/jcs-vectors.ts). */
import { jcsVectorsOn } from "../evidence/jcs-vectors.js";
import { describeReference, referencePath } from "./reference.js";

describeReference("RFC 8785 vectors (jcs-vectors)", () => {
  jcsVectorsOn(referencePath("reference", "jcs-vectors"), [
    "arrays.json",
    "french.json",
    "structures.json",
    "unicode.json",
    "values.json",
    "weird.json",
  ]);
});
