/** The `yaoc` command line. Usage errors exit 2, like I/O errors; see check-command.ts. */
import { Command, CommanderError, Option } from "commander";
import { NodeFs } from "../fs/node-fs.js";
import { runCheck } from "./check-command.js";
import { runHash } from "./hash-command.js";
import { EXIT_USAGE } from "./io.js";
import { VERSION } from "../version.js";
import { registerA3sCommands } from "./a3s.js";
import { registerCatalogCommands } from "./catalog.js";
import { registerHarpCommands } from "./harp.js";
import { registerHcpCommands } from "./hcp.js";
import { registerYaoCommands } from "./yao.js";

export function buildProgram(): Command {
  const fs = new NodeFs();
  const program = new Command("yaoc")
    .description("Compiler and analyzer for agent harness packages (HNS/Yao, HARP, A3S, HCP)")
    .version(VERSION)
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text) });

  program
    .command("check")
    .description("check packages and report every problem found")
    .addOption(new Option("--format <format>", "output format").choices(["human", "json"]).default("human"))
    .option("--no-analyze", "HNS: structural load only (skip type and effect analysis)")
    .argument("<paths...>", "package files or directories")
    .action(async (paths: string[], opts: { format: "human" | "json"; analyze: boolean }) => {
      process.exitCode = await runCheck(fs, paths, opts);
    });

  program
    .command("hash")
    .description("print the sha256 content identity of an HNS package")
    .argument("<path>", "a .hns file or directory")
    .action(async (path: string) => {
      process.exitCode = await runHash(fs, path);
    });

  registerCatalogCommands(program);
  registerYaoCommands(program);
  registerHarpCommands(program);
  registerA3sCommands(program);
  registerHcpCommands(program);
  return program;
}

/** Usage errors must exit 2, so every (sub)command throws instead of exiting with commander's 1. */
function overrideExits(command: Command): void {
  command.exitOverride();
  for (const sub of command.commands) overrideExits(sub);
}

export async function main(argv: readonly string[]): Promise<void> {
  const program = buildProgram();
  overrideExits(program);
  try {
    await program.parseAsync(argv as string[]);
  } catch (e) {
    if (e instanceof CommanderError) {
      process.exitCode = e.exitCode === 0 ? 0 : EXIT_USAGE;
      return;
    }
    process.stderr.write(`yaoc: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 70;
  }
}

await main(process.argv);
