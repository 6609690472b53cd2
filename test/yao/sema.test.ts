/**
 * The analyzer's rules on our own sema cases (fixtures/yao/sema) under the sema test profile: one
 * case per rule of the reference's sema unit tests. The table is test/yao/sema-cases.ts, run over
 * the reference's cases too by test/reference/yao-sema.test.ts.
 */
import { join } from "node:path";
import { REPO } from "./helpers.js";
import { semaCasesOn } from "./sema-cases.js";

semaCasesOn("own", join(REPO, "fixtures/yao/sema"));
