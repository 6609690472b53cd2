/**
 * Package state on our workbench manifest, which has the surface structure of the reference's
 * plugin-v3; the cases are one table (test/a3s/state-cases.ts), run over plugin-v3 too by
 * test/reference/a3s-state.test.ts.
 */
import { stateCasesOn } from "./state-cases.js";
import { WORKBENCH_MANIFEST } from "./own-package.js";

stateCasesOn("our workbench manifest", WORKBENCH_MANIFEST, {
  library: "mcp:local-cache",
  tool: "tool:render",
  skill: "skill:audit",
  ui: "ui:audit",
});
