/**
 * `yaoc ir`, `yaoc profile` and `yaoc admit`: the Yao analyzer on the command line.
 *
 * Packages are read with a small stand-in (single `.hns` file or `.hns` directory with
 * `manifest.yao`, `functions/*.yao` and the manifest's entry) until the HNS loader is wired in.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { readAll, readOne } from "../syntax/reader.js";
import type { SNode } from "../syntax/tree.js";
import {
  analyzeModule,
  analyzeProgram,
  evaluationProfile,
  morphzProfile,
  programJson,
  toolsFromManifest,
  type AnalysisProfile,
} from "../yao/index.js";

class UsageError extends Error {}

interface PackageSources {
  entry: SNode;
  functions: { name: string; form: SNode; file: string }[];
  tools: string[];
}

function head(n: SNode): string | undefined {
  return n.kind === "list" && n.items[0]?.kind === "symbol" ? n.items[0].name : undefined;
}

function readForms(file: string): SNode[] {
  const r = readAll(readFileSync(file), { file });
  if (!r.ok) throw new DiagnosticsError([r.diagnostic]);
  return r.forms;
}

function readForm(file: string): SNode {
  const r = readOne(readFileSync(file), { file });
  if (!r.ok) throw new DiagnosticsError([r.diagnostic]);
  return r.form;
}

class DiagnosticsError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super("invalid");
  }
}

function manifestTools(manifest: SNode | undefined): string[] {
  if (manifest === undefined || manifest.kind !== "list") return [];
  const caps = manifest.items.find((i) => head(i) === "capabilities");
  const tools = caps?.kind === "list" ? caps.items.find((i) => head(i) === "tools") : undefined;
  if (tools === undefined || tools.kind !== "list") return [];
  return tools.items.slice(1).flatMap((t) => (t.kind === "list" ? [] : [t.kind === "symbol" ? t.name : t.value]));
}

function fnName(form: SNode): string {
  return form.kind === "list" && form.items[1]?.kind === "symbol" ? form.items[1].name : "";
}

function loadPackage(path: string): PackageSources {
  if (!existsSync(path)) throw new UsageError(`no such package: ${path}`);
  if (statSync(path).isDirectory()) {
    const manifest = readForm(join(path, "manifest.yao"));
    const entryClause = manifest.kind === "list" ? manifest.items.find((i) => head(i) === "entry") : undefined;
    const entryValue = entryClause?.kind === "list" ? entryClause.items[1] : undefined;
    const entryPath = entryValue === undefined || entryValue.kind === "list" ? "programs/main.yao" : entryValue.kind === "symbol" ? entryValue.name : entryValue.value;
    const fnDir = join(path, "functions");
    const fnFiles = existsSync(fnDir) ? readdirSync(fnDir).filter((f) => f.endsWith(".yao")).sort() : [];
    return {
      entry: readForm(join(path, entryPath)),
      functions: fnFiles.map((f) => {
        const file = join(fnDir, f);
        const form = readForm(file);
        return { name: fnName(form), form, file };
      }),
      tools: manifestTools(manifest),
    };
  }
  const forms = readForms(path);
  const entry = forms.find((f) => head(f) === "eval" || head(f) === "infer");
  if (entry === undefined) throw new UsageError(`${path} has no (eval ...) or (infer ...) entry`);
  return {
    entry,
    functions: forms.filter((f) => head(f) === "fn").map((form) => ({ name: fnName(form), form, file: path })),
    tools: manifestTools(forms.find((f) => head(f) === "manifest")),
  };
}

function profileFor(tools: string[], toolsFile: string | undefined): AnalysisProfile {
  let schemas: Record<string, unknown> = {};
  if (toolsFile !== undefined) {
    try {
      schemas = JSON.parse(readFileSync(toolsFile, "utf8")) as Record<string, unknown>;
    } catch (e) {
      throw new UsageError(`cannot read tool schemas ${toolsFile}: ${(e as Error).message}`);
    }
  }
  const names = tools.length > 0 ? tools : Object.keys(schemas);
  const built = toolsFromManifest(names, schemas);
  if (built.errors.length > 0) throw new UsageError(built.errors.join("\n"));
  return morphzProfile(built.tools);
}

function render(d: Diagnostic): string {
  const where = d.span === undefined ? d.file ?? "" : `${d.file ?? ""}:${d.span.start.line}:${d.span.start.column}`;
  return `${where}: ${d.severity} ${d.code}: ${d.message}${d.hint === undefined ? "" : `\n  hint: ${d.hint}`}\n`;
}

function guarded(action: () => void): void {
  try {
    action();
  } catch (e) {
    if (e instanceof DiagnosticsError) {
      for (const d of e.diagnostics) process.stderr.write(render(d));
      process.exitCode = 1;
    } else if (e instanceof UsageError || (e as NodeJS.ErrnoException).code !== undefined) {
      process.stderr.write(`yaoc: ${(e as Error).message}\n`);
      process.exitCode = 2;
    } else throw e;
  }
}

function isPackage(path: string): boolean {
  return path.endsWith(".hns") || path.endsWith(".hns/");
}

export function registerYaoCommands(program: Command): void {
  program
    .command("ir")
    .description("print the statically linked typed IR of a Yao program or HNS package entry, with its program_hash")
    .argument("<path>", "a .yao program or an .hns package")
    .option("--tools <file>", "JSON object mapping tool names to input JSON Schemas")
    .option("--hash-only", "print only the program_hash")
    .action((path: string, opts: { tools?: string; hashOnly?: boolean }) =>
      guarded(() => {
        const r = isPackage(path)
          ? (() => {
              const pkg = loadPackage(path);
              return analyzeModule({ entry: pkg.entry, functions: pkg.functions, allowInternal: true, profile: profileFor(pkg.tools, opts.tools) });
            })()
          : analyzeProgram(readForm(path), { profile: profileFor([], opts.tools) });
        if (r.diagnostics.length > 0) throw new DiagnosticsError(r.diagnostics);
        process.stdout.write(opts.hashOnly ? `${r.programHash}\n` : `${programJson(r.program!)}\n`);
      }),
    );

  program
    .command("profile")
    .description("print the model-visible evaluation-profile of a package: shared types and exported interfaces")
    .argument("<package>", "an .hns package")
    .action((path: string) =>
      guarded(() => {
        const pkg = loadPackage(path);
        const r = analyzeModule({ entry: pkg.entry, functions: pkg.functions, allowInternal: true, profile: profileFor(pkg.tools, undefined) });
        if (r.diagnostics.length > 0) throw new DiagnosticsError(r.diagnostics);
        const types = pkg.entry.kind === "list" ? pkg.entry.items.find((i) => head(i) === "types") : undefined;
        process.stdout.write(`${evaluationProfile(types, pkg.functions.map((f) => f.form))}\n`);
      }),
    );

  program
    .command("admit")
    .description("admit a model-written program against a package binding (exported functions, shared types, tool bound)")
    .requiredOption("--package <pkg>", "the bound .hns package")
    .option("--tools <file>", "JSON object mapping tool names to input JSON Schemas")
    .argument("<program>", "the model-written .yao program")
    .action((programPath: string, opts: { package: string; tools?: string }) =>
      guarded(() => {
        const pkg = loadPackage(opts.package);
        const types = pkg.entry.kind === "list" ? pkg.entry.items.filter((i) => head(i) === "types") : [];
        const r = analyzeProgram(readForm(programPath), {
          profile: profileFor(pkg.tools, opts.tools),
          typeSources: types,
          functions: pkg.functions.map((f) => f.form),
          allowInternal: false,
        });
        if (r.diagnostics.length > 0) throw new DiagnosticsError(r.diagnostics);
        process.stdout.write(`${JSON.stringify({ admitted: true, program_hash: r.programHash })}\n`);
      }),
    );
}
