/**
 * `yaoc ir`, `yaoc profile` and `yaoc admit`: the Yao analyzer on the command line. Packages are
 * loaded and their entry analysed through `check` with purpose "program" (every containment and
 * structure rule of the HNS loader applies; the commands print the loader's and the analyzer's own
 * findings); standalone programs are read with the reader. Problems are reported like `yaoc check`
 * (exit 1), usage and I/O errors exit 2.
 */
import type { Command } from "commander";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { orderDiagnostics } from "../diagnostics/order.js";
import { renderHuman } from "../diagnostics/render.js";
import { jsonDiagnostics } from "../output/format-json.js";
import { NodeFs } from "../fs/node-fs.js";
import { FsError } from "../fs/package-fs.js";
import { check } from "../check/check.js";
import type { HnsPackage } from "../hns/model.js";
import { DEFAULT_MAX_SOURCE_BYTES, readOne } from "../syntax/reader.js";
import type { SNode } from "../syntax/tree.js";
import { admitProgram, sharedTypes } from "../yao/package-analysis.js";
import {
  analyzeProgram,
  evaluationProfile,
  programJson,
  type AnalysisProfile,
  type AnalysisResult,
} from "../yao/index.js";
import { programProfile } from "../yao/profile.js";
import { EXIT_INVALID, EXIT_USAGE, unusablePath, useColor } from "./io.js";

const fs = new NodeFs();

export class UsageError extends Error {}

/** Diagnostics to report as `yaoc check` does, with the sources for code frames. */
export class Rejected extends Error {
  /** In position order, as every output shows diagnostics (diagnostics/order.ts). */
  readonly diagnostics: readonly Diagnostic[];

  constructor(
    readonly path: string,
    diagnostics: readonly Diagnostic[],
    readonly sources: ReadonlyMap<string, string>,
    /** A closing line after the diagnostics (admit names the package it refused the program for). */
    readonly summary?: string,
  ) {
    super("rejected");
    this.diagnostics = orderDiagnostics(diagnostics);
  }
}

/** A loaded package with its entry analysed; the entry's analysis errors are rejected like `yaoc check`'s. */
export interface AnalysedHns {
  readonly pkg: HnsPackage;
  readonly sources: ReadonlyMap<string, string>;
  readonly profile: AnalysisProfile;
  readonly analysis: AnalysisResult;
}

/**
 * Load the package at `path` and analyse its entry under the manifest's tools (with `--tools`
 * schemas when given), through src/check. A package that fails its own analysis binds nothing:
 * it is reported (exit 1), never run or admitted against.
 */
export async function analyzeHns(
  path: string,
  toolsFile: string | undefined,
  /** `run`: a tool argument that violates its schema is refused, as `yaoc check` refuses it. */
  toolContracts = false,
): Promise<AnalysedHns> {
  // A path that is not there is an I/O error (exit 2) before it is a badly named package.
  const problem = await unusablePath(path);
  if (problem !== null) throw new UsageError(`${path}: ${problem}`);
  // Read before the check, reported after it: a package that does not load is reported as such
  // even when the schemas cannot be read either.
  const schemas = await readToolSchemas(toolsFile).catch((e: unknown) => {
    if (e instanceof UsageError) return e;
    throw e;
  });
  const unread = schemas instanceof UsageError ? schemas : undefined;
  const checked = await check(fs, path, {
    kind: "hns",
    purpose: "program",
    keepAnalysis: true,
    analyze: unread === undefined,
    toolContracts,
    ...(schemas === undefined || schemas instanceof UsageError ? {} : { toolSchemas: schemas }),
  });
  const r = checked.loaded;
  if (r === undefined) throw new Error(`${path}: check kept no load result`);
  if (!r.ok) {
    if (r.ioError) throw new UsageError(r.diagnostics.map((d) => d.message).join("\n"));
    throw new Rejected(path, r.diagnostics, r.sources);
  }
  if (unread !== undefined) throw unread;
  if (checked.profileErrors !== undefined) throw new UsageError(checked.profileErrors.join("\n"));
  const { profile, analysis } = checked;
  if (profile === undefined || analysis === undefined) throw new Error(`${path}: check kept no analysis`);
  if (analysis.diagnostics.length > 0) throw new Rejected(path, analysis.diagnostics, r.sources);
  return { pkg: r.package, sources: r.sources, profile, analysis };
}

export async function readProgram(path: string): Promise<{ form: SNode; sources: Map<string, string> }> {
  let bytes: Uint8Array;
  try {
    bytes = await fs.readFile(path, DEFAULT_MAX_SOURCE_BYTES);
  } catch (e) {
    if (e instanceof FsError && e.code === "too_large") bytes = new Uint8Array(DEFAULT_MAX_SOURCE_BYTES + 1);
    else throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  const r = readOne(bytes, { file: path });
  const sources = new Map(r.text === undefined ? [] : [[path, r.text]]);
  if (!r.ok) throw new Rejected(path, [r.diagnostic], sources);
  return { form: r.form, sources };
}

/** A lone program's profile: every tool of the `--tools` file, typed by its schema. */
export async function profileFor(tools: readonly string[], toolsFile: string | undefined): Promise<AnalysisProfile> {
  const built = programProfile(tools, (await readToolSchemas(toolsFile)) ?? {});
  if (built.errors.length > 0) throw new UsageError(built.errors.join("\n"));
  return built.profile;
}

/** The `--tools` file of ir, admit and run: a JSON object of tool input schemas, or a usage error. */
async function readToolSchemas(toolsFile: string | undefined): Promise<Record<string, unknown> | undefined> {
  if (toolsFile === undefined) return undefined;
  try {
    const text = new TextDecoder().decode(await fs.readFile(toolsFile, 16 * 1024 * 1024));
    const value = JSON.parse(text) as unknown;
    // As `yaoc run --tools` refuses it: `null` reached the profile and crashed with a TypeError.
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("expected a JSON object");
    return value as Record<string, unknown>;
  } catch (e) {
    throw new UsageError(`cannot read tool schemas ${toolsFile}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * Run a command's action, reporting a refused program or package (exit 1) and a usage error (exit 2).
 * With `format` answering "json" (`yaoc run --format json`), the refusal is one JSON object on
 * stdout, `{"outcome":"rejected","path","diagnostics"}` with the diagnostics as `check --format json`
 * writes them, so a caller reading stdout always gets an object.
 */
export function guarded(action: () => Promise<void>, format?: () => "human" | "json"): () => Promise<void> {
  return async () => {
    try {
      await action();
    } catch (e) {
      if (e instanceof Rejected) {
        const result = {
          path: e.path,
          kind: "hns" as const,
          valid: false,
          identity: null,
          diagnostics: e.diagnostics,
          sources: e.sources,
        };
        if (format?.() === "json") {
          const diagnostics = jsonDiagnostics(result.diagnostics, result.sources);
          process.stdout.write(`${JSON.stringify({ outcome: "rejected", path: e.path, diagnostics })}\n`);
          process.exitCode = EXIT_INVALID;
          return;
        }
        process.stderr.write(renderHuman([result], { color: useColor(process.stderr) }));
        if (e.summary !== undefined) process.stderr.write(`${e.summary}\n`);
        process.exitCode = EXIT_INVALID;
      } else if (e instanceof UsageError) {
        process.stderr.write(`yaoc: ${e.message}\n`);
        process.exitCode = EXIT_USAGE;
      } else throw e;
    }
  };
}

export function isPackage(path: string): boolean {
  return /\.hns\/*$/.test(path);
}

export function registerYaoCommands(program: Command): void {
  program
    .command("ir")
    .description("print the statically linked typed IR of a Yao program or HNS package entry, with its program_hash")
    .argument("<path>", "a .yao program or an .hns package")
    .option("--tools <file>", "JSON object mapping tool names to input JSON Schemas")
    .option("--hash-only", "print only the program_hash")
    .action((path: string, opts: { tools?: string; hashOnly?: boolean }) =>
      guarded(async () => {
        let result;
        let sources: ReadonlyMap<string, string>;
        if (isPackage(path)) {
          const analysed = await analyzeHns(path, opts.tools);
          sources = analysed.sources;
          result = analysed.analysis;
        } else {
          const read = await readProgram(path);
          sources = read.sources;
          result = analyzeProgram(read.form, { profile: await profileFor([], opts.tools) });
        }
        if (result.diagnostics.length > 0) throw new Rejected(path, result.diagnostics, sources);
        process.stdout.write(opts.hashOnly ? `${result.programHash}\n` : `${programJson(result.program!)}\n`);
      })(),
    );

  program
    .command("profile")
    .description("print the model-visible evaluation-profile of a package: shared types and exported interfaces")
    .argument("<package>", "an .hns package")
    .action((path: string) =>
      guarded(async () => {
        const { pkg } = await analyzeHns(path, undefined);
        process.stdout.write(
          `${evaluationProfile(
            sharedTypes(pkg)[0],
            pkg.functions.map((f) => f.form),
          )}\n`,
        );
      })(),
    );

  program
    .command("admit")
    .description(
      "admit a model-written program against a package binding (exported functions, shared types, the entry's tool bound)",
    )
    .requiredOption("--package <pkg>", "the bound .hns package")
    .option("--tools <file>", "JSON object mapping tool names to input JSON Schemas")
    .argument("<program>", "the model-written .yao program")
    .action((programPath: string, opts: { package: string; tools?: string }) =>
      guarded(async () => {
        // A package that fails its own analysis binds nothing: it is reported, never admitted against.
        const { pkg, profile } = await analyzeHns(opts.package, opts.tools);
        const bound = { id: pkg.manifest.id, version: pkg.manifest.version, identity: pkg.identity };
        const read = await readProgram(programPath);
        const r = admitProgram(pkg, read.form, { profile });
        if (r.diagnostics.length > 0) {
          throw new Rejected(
            programPath,
            r.diagnostics,
            read.sources,
            `${programPath}: not admitted against ${bound.id} ${bound.version} ${bound.identity}`,
          );
        }
        process.stdout.write(`${JSON.stringify({ admitted: true, program_hash: r.programHash, package: bound })}\n`);
      })(),
    );
}
