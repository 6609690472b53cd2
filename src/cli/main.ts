/**
 * The `yaoc` command line. Usage errors exit 2, like I/O errors; see check-command.ts.
 *
 * Start-up cost matters (`yaoc check` runs in editors and CI): subcommand modules are imported
 * only when their command runs, and the command groups of other frontends are registered only when
 * the command line names them (or asks for help), so `yaoc check x.hns` does not load the HARP
 * installer, the catalog or the A3S resolver. A new command group goes into GROUPS.
 */
import { Command, CommanderError, Option } from "commander";
import { NodeFs } from "../fs/node-fs.js";
import { EXIT_USAGE } from "./io.js";
import { VERSION } from "../version.js";

type Register = (program: Command) => void;

/** Command groups by top-level command name; each module is imported only when needed. */
const GROUPS: Record<string, () => Promise<Register>> = {
  catalog: async () => (await import("./catalog.js")).registerCatalogCommands,
  ir: async () => (await import("./yao.js")).registerYaoCommands,
  profile: async () => (await import("./yao.js")).registerYaoCommands,
  admit: async () => (await import("./yao.js")).registerYaoCommands,
  harp: async () => (await import("./harp.js")).registerHarpCommands,
  a3s: async () => (await import("./a3s.js")).registerA3sCommands,
  hcp: async () => (await import("./hcp.js")).registerHcpCommands,
  okf: async () => (await import("./a3s.js")).registerA3sCommands,
  golden: async () => (await import("./evidence.js")).registerEvidenceCommands,
  attest: async () => (await import("./evidence.js")).registerEvidenceCommands,
  evidence: async () => (await import("./evidence.js")).registerEvidenceCommands,
};

/** The groups a command line needs: none for check/hash, the named one, or all (help, unknown). */
export function groupsFor(argv: readonly string[]): string[] {
  const first = argv.slice(2).find((a) => !a.startsWith("-"));
  if (first === "check" || first === "hash" || first === "fmt" || first === "lsp") return [];
  if (first !== undefined && first !== "help" && Object.hasOwn(GROUPS, first)) return [first];
  return Object.keys(GROUPS);
}

/** Registration functions of the named groups, in GROUPS order, each once. */
export async function loadGroups(names: readonly string[]): Promise<Register[]> {
  const out: Register[] = [];
  for (const n of Object.keys(GROUPS)) {
    if (!names.includes(n)) continue;
    const register = await GROUPS[n]!();
    if (!out.includes(register)) out.push(register);
  }
  return out;
}

export function buildProgram(groups: readonly Register[]): Command {
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
    .option("--strict", "treat warnings as errors (e.g. manifest fields HNS v0.1 does not define)")
    .argument("<paths...>", "package files or directories")
    .action(async (paths: string[], opts: { format: "human" | "json"; analyze: boolean; strict?: boolean }) => {
      const { runCheck } = await import("./check-command.js");
      process.exitCode = await runCheck(fs, paths, opts);
    });

  program
    .command("hash")
    .description("print the sha256 content identity of a package (HNS identity; HARP/HCP/A3S digest)")
    .argument("<path>", "a .hns file or directory, or a HARP, HCP or A3S package directory")
    .action(async (path: string) => {
      const { runHash } = await import("./hash-command.js");
      process.exitCode = await runHash(fs, path);
    });

  program
    .command("fmt")
    .description("format Yao sources exactly like the reference formatter (.yao/.hns files, directories, or - for stdin)")
    .option("--check", "list the files that would change; exit 1 if any")
    .option("--diff", "like --check, and print a unified diff of each change")
    .option("--write", "rewrite the files that change (atomically, keeping their mode)")
    .argument("<paths...>", "files, directories, or - for stdin")
    .action(async (paths: string[], opts: { check?: boolean; diff?: boolean; write?: boolean }) => {
      const { runFmt } = await import("./fmt-command.js");
      process.exitCode = runFmt(paths, opts);
    });

  program
    .command("lsp")
    .description("run the Yao language server over stdio (for editors)")
    .option("--stdio", "use stdio (the default and only transport; accepted for editor clients)")
    .action(async () => {
      const { runLanguageServer } = await import("../lsp/node-server.js");
      runLanguageServer();
    });

  for (const register of groups) register(program);
  return program;
}

/** Usage errors must exit 2, so every (sub)command throws instead of exiting with commander's 1. */
function overrideExits(command: Command): void {
  command.exitOverride();
  for (const sub of command.commands) overrideExits(sub);
}

export async function main(argv: readonly string[]): Promise<void> {
  const program = buildProgram(await loadGroups(groupsFor(argv)));
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
