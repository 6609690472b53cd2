/**
 * The single CI entry of seed 002 §5.3 until `yaoc` itself registers the evidence commands:
 *
 *   node dist/scripts/attest.js [--out reports]          → same as `yaoc attest`
 *   node dist/scripts/attest.js golden verify --git      → same as `yaoc golden verify --git`
 *
 * Exit 0 green, 1 red, 2 yellow (or a usage error).
 */
import { Command, CommanderError } from "commander";
import { registerEvidenceCommands } from "../src/cli/evidence.js";
import { VERSION } from "../src/version.js";

const program = new Command("yaoc-evidence").version(VERSION).exitOverride();
registerEvidenceCommands(program);
for (const cmd of program.commands) {
  cmd.exitOverride();
  for (const sub of cmd.commands) sub.exitOverride();
}
const args = process.argv.slice(2);
const first = args[0];
const known = new Set(program.commands.map((c) => c.name()));
const argv = first !== undefined && known.has(first) ? args : ["attest", ...args];
try {
  await program.parseAsync(argv, { from: "user" });
} catch (e) {
  if (e instanceof CommanderError) process.exitCode = e.exitCode === 0 ? 0 : 2;
  else {
    process.stderr.write(`attest: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 70;
  }
}
