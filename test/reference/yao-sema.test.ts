/**
 * The reference's sema unit cases (morphz-fixtures inline/yao/src/sema.rs@70e0787) under the sema
 * test profile, through the same table as our own fixtures (test/yao/sema-cases.ts).
 */
import { join } from "node:path";
import { semaCasesOn } from "../yao/sema-cases.js";
import { describeReference, MORPHZ } from "./reference.js";

describeReference("Morphz sema cases", () => semaCasesOn("reference", join(MORPHZ, "inline/yao/src/sema.rs@70e0787")));
