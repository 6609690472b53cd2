/**
 * A stand-alone `yaoc catalog …` process for the multi-process tests (bundled by helpers.ts).
 * YAOC_TEST_START_AT (epoch ms) makes racing processes start their command at the same moment.
 */
import { Command, CommanderError } from "commander";
import { registerCatalogCommands } from "../../src/cli/catalog.js";

const startAt = Number(process.env.YAOC_TEST_START_AT ?? "0");
while (Date.now() < startAt) await new Promise((r) => setTimeout(r, 1));

const program = new Command("yaoc").exitOverride().configureOutput({ outputError: (text, write) => write(text) });
registerCatalogCommands(program);
try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (!(e instanceof CommanderError)) throw e;
  process.exitCode = e.exitCode === 0 ? 0 : 2;
}
