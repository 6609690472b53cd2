/** Package state on the reference's plugin-v3, through the same table as our own manifest (test/a3s/state-cases.ts). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { stateCasesOn } from "../a3s/state-cases.js";
import { A3S as SHARED_A3S, describeReference } from "./reference.js";

describeReference("package state (reference §4.2 expected results for plugin-v3)", () =>
  stateCasesOn(
    "plugin-v3",
    readFileSync(join(SHARED_A3S, "Use", "crates", "extension", "fixtures", "manifests", "plugin-v3.acl"), "utf8"),
    { library: "mcp:local-library", tool: "tool:convert", skill: "skill:review", ui: "ui:review" },
  ),
);
