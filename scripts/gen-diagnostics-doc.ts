/** Regenerates docs/diagnostics.md from the code registry. */
import { writeFileSync } from "node:fs";
import { renderCodesDoc } from "../src/diagnostics/codes-doc.js";
import { CODE_SECTIONS } from "../src/codes/registry.js";

const target = new URL("../../docs/diagnostics.md", import.meta.url);
writeFileSync(target, renderCodesDoc(CODE_SECTIONS));
process.stdout.write(`wrote ${target.pathname}\n`);
