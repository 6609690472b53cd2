/**
 * The `yaoc` command line. Usage errors exit 2, like I/O errors; see check-command.ts.
 *
 * Start-up cost matters (`yaoc check` runs in editors and CI): subcommand modules are imported
 * only when their command runs, and the command groups of other frontends are registered only when
 * the command line names them (or asks for help), so `yaoc check x.hns` does not load the HARP
 * installer, the catalog or the A3S resolver. A new command group goes into GROUPS.
 */
import { availableParallelism } from "node:os";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { NodeFs } from "../fs/node-fs.js";
import { OUTPUT_FORMATS, type OutputFormat } from "../output/format.js";
import type { PackageFs } from "../fs/package-fs.js";
import { toolsFromManifest } from "../yao/profile.js";
import { addHelpFooters, helpArgv, unknownHelpTopic } from "./help.js";
import { COLOR_MODES, endQuietlyOnClosedPipe, EXIT_USAGE, setColorMode, type ColorMode } from "./io.js";
import { VERSION } from "../version.js";
import { addCacheOptions, cacheSettingsOf, type CacheCliOptions } from "./cache-options.js";

type Register = (program: Command) => void;

/** Command groups by top-level command name; each module is imported only when needed. */
const GROUPS: Record<string, () => Promise<Register>> = {
  catalog: async () => (await import("./catalog.js")).registerCatalogCommands,
  ir: async () => (await import("./yao.js")).registerYaoCommands,
  profile: async () => (await import("./yao.js")).registerYaoCommands,
  admit: async () => (await import("./yao.js")).registerYaoCommands,
  run: async () => (await import("./run-command.js")).registerRunCommand,
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
  if (["check", "hash", "explain", "fmt", "lsp", "new", "init"].includes(first ?? "")) return [];
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

/** Where the process entry found things the program needs but cannot locate itself. */
export interface ProgramPaths {
  /** The worker script of `yaoc check --jobs N` (absent: check stays in-process). */
  readonly checkWorker?: URL;
}

export function buildProgram(groups: readonly Register[], paths: ProgramPaths = {}): Command {
  const fs = new NodeFs();
  const program = new Command("yaoc")
    .description("Compiler and analyzer for agent harness packages (HNS/Yao, HARP, A3S, HCP)")
    .version(VERSION)
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(text) })
    .addOption(
      new Option(
        "--color <when>",
        "colour human output: always, never or auto (a terminal; FORCE_COLOR and NO_COLOR apply)",
      )
        .choices([...COLOR_MODES])
        .default("auto"),
    )
    .hook("preAction", (cmd) => setColorMode((cmd.opts() as { color: ColorMode }).color));

  const check = program
    .command("check")
    .description("check packages and report every problem found")
    .addOption(new Option("--format <format>", "output format").choices([...OUTPUT_FORMATS]).default("human"))
    .option("--no-analyze", "HNS: structural load only (skip type and effect analysis)")
    .option("--strict", "treat warnings as errors (e.g. manifest fields HNS v0.1 does not define)")
    .option("-q, --quiet", "report errors only (warnings still count towards --max-warnings)")
    .addOption(new Option("--max-warnings <n>", "exit 1 when more than n warnings are found").argParser(parseCount))
    .option("--tools <file>", "HNS: JSON object mapping tool names to input JSON Schemas (others stay dynamic)")
    .option("--stdin-filename <name>", "the name of the package read from - (default stdin.hns)")
    .addOption(
      new Option(
        "-j, --jobs <n>",
        "check n packages at a time (n - 1 worker threads and this one); output is the same for every n, and 1 checks in-process",
      )
        .argParser(parseJobs)
        // Default 1: measured on 2 cores the pool is no faster than one thread (bench figure i 0.90 on
        // 200 packages of 64 KiB), and two independent processes on half the packages each are not
        // either (figure i-split 0.98): a second thread's start-up, compiler warm-up and its own
        // garbage collector cost what it saves there. Opt-in until a measured machine shows a win.
        .default(1, `1; this machine has ${availableParallelism()} cores`),
    );
  addCacheOptions(check, "packages")
    .option("-w, --watch", "check, then re-check the packages whose files change, until Ctrl-C (implies --cache)")
    .argument(
      "[inputs...]",
      "package files or directories (walked for packages), quoted globs, or - for stdin; default .",
    )
    .action(async (inputs: string[], opts: CheckCliOptions) => {
      // --watch runs its own loop over the check command's reporting (check-watch.ts imports check-command.ts).
      const runCheck =
        opts.watch === true
          ? (await import("./check-watch.js")).runWatch
          : (await import("./check-command.js")).runCheck;
      const toolSchemas = opts.tools === undefined ? undefined : await readToolSchemas(fs, opts.tools);
      if (toolSchemas === null) {
        process.exitCode = EXIT_USAGE;
        return;
      }
      process.exitCode = await runCheck(fs, inputs, {
        format: opts.format,
        analyze: opts.analyze,
        ...(opts.strict !== undefined ? { strict: opts.strict } : {}),
        ...(opts.quiet !== undefined ? { quiet: opts.quiet } : {}),
        ...(opts.maxWarnings !== undefined ? { maxWarnings: opts.maxWarnings } : {}),
        ...(toolSchemas !== undefined ? { toolSchemas } : {}),
        ...(opts.stdinFilename !== undefined ? { stdinFilename: opts.stdinFilename } : {}),
        jobs: opts.jobs,
        ...(paths.checkWorker !== undefined ? { workerUrl: paths.checkWorker } : {}),
        ...cacheSettingsOf(opts, opts.watch === true),
        ...(opts.watch === true ? { watch: true } : {}),
      });
    });

  program
    .command("explain")
    .description(
      "explain a form or type of Yao (signature, meaning, example) or a diagnostic code (meaning, spec clause, an example of the error and its fix); alone, list them",
    )
    .argument("[topic]", "a form (get), a type (Option) or a diagnostic code (yao.unclosed_list)")
    .action(async (code: string | undefined) => {
      const { runExplain } = await import("./explain.js");
      process.exitCode = runExplain(
        code,
        (t) => process.stdout.write(t),
        (t) => process.stderr.write(t),
      );
    });

  addCacheOptions(
    program
      .command("hash")
      .description("print the sha256 content identity of a package (HNS identity; HARP/HCP/A3S digest)"),
    "a package",
  )
    .argument("<path>", "a .hns file or directory, or a HARP, HCP or A3S package directory")
    .action(async (path: string, opts: CacheCliOptions) => {
      const { runHash } = await import("./hash-command.js");
      process.exitCode = await runHash(fs, path, cacheSettingsOf(opts));
    });

  program
    .command("fmt")
    .description(
      "format Yao sources exactly like the reference formatter (.yao/.hns files, directories, or - for stdin)",
    )
    .option("--check", "list the files that would change; exit 1 if any")
    .option("--diff", "like --check, and print a unified diff of each change")
    .option("--write", "rewrite the files that change (atomically, keeping their mode)")
    .argument("<paths...>", "files, directories, or - for stdin")
    .action(async (paths: string[], opts: { check?: boolean; diff?: boolean; write?: boolean }) => {
      const { runFmt } = await import("./fmt-command.js");
      process.exitCode = await runFmt(paths, opts);
    });

  program
    .command("new")
    .description("make a new HNS package NAME.hns that passes yaoc check (a single file; --dir for the directory form)")
    .option("--dir", "the directory form: NAME.hns/ with manifest.yao, contract.yao, functions/ and programs/main.yao")
    .argument("<name>", "the package name (its id): letters, digits, - and _, starting with a letter")
    .action(async (name: string, opts: { dir?: boolean }) => {
      const { runNew } = await import("./new-command.js");
      process.exitCode = runNew(
        name,
        opts,
        (t) => process.stdout.write(t),
        (t) => process.stderr.write(t),
      );
    });

  program
    .command("init")
    .description(
      "make an HNS package in the current directory: its files when the directory is named NAME.hns, otherwise <directory>.hns",
    )
    .action(async () => {
      const { runInit } = await import("./new-command.js");
      process.exitCode = runInit(
        (t) => process.stdout.write(t),
        (t) => process.stderr.write(t),
      );
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
  addHelpFooters(program);
  return program;
}

/** Usage errors must exit 2, so every (sub)command throws instead of exiting with commander's 1. */
function overrideExits(command: Command): void {
  command.exitOverride();
  for (const sub of command.commands) overrideExits(sub);
}

interface CheckCliOptions {
  format: OutputFormat;
  analyze: boolean;
  strict?: boolean;
  quiet?: boolean;
  maxWarnings?: number;
  tools?: string;
  stdinFilename?: string;
  jobs: number;
  cache?: boolean;
  cacheDir?: string;
  cacheMaxMib: number;
  watch?: boolean;
}

function parseJobs(value: string): number {
  const n = parseCount(value);
  if (n < 1) throw new InvalidArgumentError("expected a whole number >= 1");
  return n;
}

function parseCount(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n))
    throw new InvalidArgumentError("expected a whole number >= 0");
  return n;
}

/** `--tools FILE` for check: a JSON object of tool input schemas; null (after a message) when unusable. */
async function readToolSchemas(fs: PackageFs, file: string): Promise<Record<string, unknown> | null> {
  try {
    const value = JSON.parse(
      new TextDecoder("utf-8", { fatal: true }).decode(await fs.readFile(file, 16 * 1024 * 1024)),
    ) as unknown;
    if (value === null || typeof value !== "object" || Array.isArray(value))
      throw new Error("expected a JSON object mapping tool names to input JSON Schemas");
    const schemas = value as Record<string, unknown>;
    const built = toolsFromManifest(Object.keys(schemas), schemas);
    if (built.errors.length > 0) throw new Error(built.errors.join("; "));
    return schemas;
  } catch (e) {
    process.stderr.write(
      `yaoc check: cannot use tool schemas ${file}: ${e instanceof Error ? e.message : String(e)}\n`,
    );
    return null;
  }
}

export async function main(rawArgv: readonly string[], paths: ProgramPaths = {}): Promise<void> {
  const argv = helpArgv(rawArgv);
  endQuietlyOnClosedPipe();
  const program = buildProgram(await loadGroups(groupsFor(argv)), paths);
  const unknown = unknownHelpTopic(program, rawArgv);
  if (unknown !== undefined) {
    process.stderr.write(`yaoc help: unknown command '${unknown}' (yaoc help lists the commands)\n`);
    process.exitCode = EXIT_USAGE;
    return;
  }
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
