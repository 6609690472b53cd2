/** The reader on the Morphz reference's syntax cases, through the same table as ours (test/syntax/reader-cases.ts). */
import { readerCasesOn } from "../syntax/reader-cases.js";
import { describeReference, referenceText } from "./reference.js";

const SYNTAX = "inline/yao/src/syntax.rs@fda7137/";

describeReference("reader: Morphz syntax cases", () => {
  readerCasesOn("reference", (file) => referenceText("reference", "morphz-fixtures", `${SYNTAX}${file}`));
});
