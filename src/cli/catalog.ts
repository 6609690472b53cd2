/**
 * `yaoc catalog install|list|show|export|verify|gc`: the persistent package catalog (docs/catalog.md).
 * Exit 0 when everything succeeded, 1 on an invalid, conflicting, missing or corrupt package, 2 on
 * usage or I/O errors. Results go to stdout, diagnostics to stderr (JSON formats: one document on
 * stdout, diagnostics included).
 */
import { promises as fsp, constants } from "node:fs";
import { basename, dirname, join } from "node:path";
import { type Command, InvalidArgumentError, Option } from "commander";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { diagnostic } from "../catalog/codes.js";
import { renderHuman } from "../diagnostics/render.js";
import { jsonDiagnostic } from "../output/format-json.js";
import { NodeFs } from "../fs/node-fs.js";
import type { PackageFs } from "../fs/package-fs.js";
import type { Catalog, InstallOutcome } from "../catalog/catalog.js";
import { defaultCatalogDir, openCatalog } from "../catalog/node-store.js";
import { renderResults } from "../output/format.js";
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, useColor } from "./io.js";
import { addFormatOption, formatOptions, type OutputFormat } from "./output.js";
import { Progress } from "./progress.js";

export interface CatalogCommandDeps {
  readonly fs?: PackageFs;
}

type Format = "human" | "json";

interface CommonOptions {
  readonly catalog?: string;
  readonly format: Format;
}

export function registerCatalogCommands(program: Command, deps: CatalogCommandDeps = {}): void {
  const fs = deps.fs ?? new NodeFs();
  const open = (opts: CommonOptions): Catalog => openCatalog(opts.catalog ?? defaultCatalogDir());

  const catalog = program
    .command("catalog")
    .description("install, list, show, export, verify and garbage-collect packages in the persistent catalog")
    .addHelpText(
      "after",
      "\nThe catalog directory is --catalog DIR, else $YAOC_CATALOG, else $XDG_DATA_HOME/yaoc/catalog, else ~/.local/share/yaoc/catalog.",
    );
  const common = (cmd: Command): Command =>
    cmd
      .option("--catalog <dir>", "catalog directory")
      .addOption(new Option("--format <format>", "output format").choices(["human", "json"]).default("human"));

  common(catalog.command("install"))
    .description("check packages and install them; an installed (id, version) never changes content")
    .argument("<paths...>", ".hns files or directories")
    .action(async (paths: string[], opts: CommonOptions) => {
      const cat = open(opts);
      const outcomes: InstallOutcome[] = [];
      // A path that does not exist is an I/O error (exit 2); the others are still installed.
      let missing = false;
      for (const path of paths) {
        if ((await fs.stat(path)) === null) {
          missing = true;
          process.stderr.write(`yaoc catalog install: ${path}: no such file or directory\n`);
          continue;
        }
        outcomes.push(await cat.install(fs, path));
      }
      if (opts.format === "json") {
        writeJson({
          catalog: cat.store.location,
          results: outcomes.map((o) => ({
            path: o.path,
            status: o.status,
            id: o.id,
            version: o.version,
            identity: o.identity,
            diagnostics: o.diagnostics.map(jsonDiagnostic),
          })),
        });
      } else {
        for (const o of outcomes) {
          if (
            o.check !== undefined &&
            (o.status === "rejected" || o.status === "error") &&
            o.check.diagnostics.length > 0
          ) {
            process.stderr.write(renderHuman([o.check], { color: useColor(process.stderr) }));
            writeDiagnostics(o.diagnostics.filter((d) => d.code.startsWith("catalog.")));
          } else {
            writeDiagnostics(o.diagnostics);
          }
          const who = o.id !== null ? `${o.id}@${o.version ?? ""}` : (o.path ?? "");
          if (o.status === "installed") process.stdout.write(`installed ${who} ${o.identity} from ${o.path}\n`);
          else if (o.status === "unchanged")
            process.stdout.write(`unchanged ${who} ${o.identity} (already installed)\n`);
          else process.stderr.write(`${o.path}: not installed (${o.status})\n`);
        }
      }
      process.exitCode =
        missing || outcomes.some((o) => o.ioError)
          ? EXIT_USAGE
          : outcomes.every((o) => o.status === "installed" || o.status === "unchanged")
            ? EXIT_OK
            : EXIT_INVALID;
    });

  common(catalog.command("list"))
    .description("list installed packages, sorted by id and version")
    .action(async (opts: CommonOptions) => {
      const cat = open(opts);
      const r = await cat.list();
      if (opts.format === "json") {
        writeJson({ catalog: cat.store.location, packages: r.entries, diagnostics: r.diagnostics.map(jsonDiagnostic) });
      } else {
        writeDiagnostics(r.diagnostics);
        for (const e of r.entries) process.stdout.write(`${e.id}@${e.version} ${e.identity} ${e.installedAt}\n`);
        if (r.entries.length === 0 && r.diagnostics.length === 0)
          process.stderr.write(`no packages installed in ${cat.store.location}\n`);
      }
      process.exitCode = exitFor(r.ioError, r.diagnostics);
    });

  common(catalog.command("show"))
    .description("show an installed package: identity, owner, tools and canonical source")
    .argument("<ref>", "ID@VERSION")
    .action(async (ref: string, opts: CommonOptions) => {
      const cat = open(opts);
      const r = await cat.resolve(ref);
      if (!r.ok) return fail(opts.format, r.diagnostics, r.ioError);
      const p = r.package;
      const info = {
        id: p.manifest.id,
        version: p.manifest.version,
        identity: p.identity,
        installedAt: r.binding.installedAt,
        title: p.manifest.title,
        owner: p.entry.owner,
        entry: p.entry.id,
        tools: p.manifest.tools,
        skills: p.manifest.skills,
        entryTools: p.entry.declaredTools ?? null,
        functions: p.functions.map((f) => ({ name: f.name, visibility: f.visibility })),
        canonicalText: p.canonicalText,
        loadableSource: r.source,
      };
      if (opts.format === "json") {
        writeJson(info);
      } else {
        const lines = [
          `${info.id}@${info.version}`,
          `identity:  ${info.identity}`,
          `title:     ${info.title}`,
          `owner:     ${info.owner}`,
          `entry:     ${info.entry}`,
          `tools:     ${list(info.tools)}`,
          `skills:    ${list(info.skills)}`,
          `entry requires tools: ${info.entryTools === null ? "(no upper bound)" : list(info.entryTools)}`,
          `functions: ${info.functions.length === 0 ? "(none)" : info.functions.map((f) => `${f.name} (${f.visibility})`).join(", ")}`,
          `installed: ${info.installedAt}`,
          "",
          "canonical source (sha256 of these bytes is the identity):",
          info.canonicalText,
        ];
        process.stdout.write(`${lines.join("\n")}\n`);
      }
      process.exitCode = EXIT_OK;
    });

  catalog
    .command("export")
    .description("write an installed package as a single .hns file that hashes to the same identity")
    .option("--catalog <dir>", "catalog directory")
    .argument("<ref>", "ID@VERSION")
    .argument("<out>", "output .hns file, or - for stdout")
    .action(async (ref: string, out: string, opts: { catalog?: string }) => {
      const cat = open({ ...opts, format: "human" });
      if (out !== "-" && !basename(out).endsWith(".hns")) {
        return fail(
          "human",
          [
            diagnostic("catalog.bad_output", `cannot export to ${out}: a single-file package must be named NAME.hns`, {
              hint: `for example ${out}.hns, or - for stdout`,
            }),
          ],
          true,
        );
      }
      const r = await cat.resolve(ref);
      if (!r.ok) return fail("human", r.diagnostics, r.ioError);
      const text = `${r.source}\n`;
      if (out === "-") {
        process.stdout.write(text);
      } else {
        try {
          await writeFileAtomic(out, text);
        } catch (e) {
          return fail(
            "human",
            [
              diagnostic("catalog.io", `cannot write ${out}: ${e instanceof Error ? e.message : String(e)}`, {
                file: out,
              }),
            ],
            true,
          );
        }
        process.stdout.write(`exported ${r.binding.id}@${r.binding.version} ${r.binding.identity} to ${out}\n`);
      }
      process.exitCode = EXIT_OK;
    });

  addFormatOption(catalog.command("verify").option("--catalog <dir>", "catalog directory"))
    .description("reload every stored package, recompute its identity and check every binding")
    .action(async (opts: { catalog?: string; format: OutputFormat }) => {
      const cat = open({ ...opts, format: "human" });
      const human = opts.format === "human";
      // Human output streams one line per binding as it is verified; a terminal also gets progress.
      let progress: Progress | undefined;
      const streamed = new Set<Diagnostic>();
      const r = await cat.verify({
        onStart: (b, _index, total) => {
          progress ??= new Progress(process.stderr, total, "verifying");
          progress.update(`${b.id}@${b.version}`);
        },
        onEntry: (e, problem) => {
          progress?.done();
          if (!human) return;
          progress?.clear();
          if (problem !== undefined) {
            streamed.add(problem);
            writeDiagnostics([problem]);
          }
          process.stdout.write(`${e.status} ${e.id}@${e.version} ${e.identity}\n`);
        },
      });
      progress?.clear();
      if (opts.format === "json") {
        writeJson({
          catalog: cat.store.location,
          ok: r.ok,
          packages: r.entries,
          objects: r.objects,
          unreferenced: r.unreferenced,
          diagnostics: r.diagnostics.map(jsonDiagnostic),
        });
      } else if (!human) {
        process.stdout.write(
          renderResults(
            [{ path: cat.store.location, kind: "unknown", valid: r.ok, identity: null, diagnostics: r.diagnostics }],
            opts.format,
            formatOptions(process.stdout),
          ),
        );
      } else {
        writeDiagnostics(r.diagnostics.filter((d) => !streamed.has(d)));
        const count = (s: string) => r.entries.filter((e) => e.status === s).length;
        process.stdout.write(
          `${r.entries.length} package${r.entries.length === 1 ? "" : "s"} verified: ${count("ok")} ok, ${count("corrupt")} corrupt, ${count("dangling")} dangling; ${r.objects} object${r.objects === 1 ? "" : "s"}, ${r.unreferenced} unreferenced\n`,
        );
      }
      process.exitCode = r.ioError ? EXIT_USAGE : r.ok ? EXIT_OK : EXIT_INVALID;
    });

  common(catalog.command("gc"))
    .description("remove objects no binding references and stale temp files")
    .addOption(
      new Option("--grace <seconds>", "leave temp files and trash younger than this alone")
        .default(3600)
        .argParser(parseSeconds),
    )
    .action(async (opts: CommonOptions & { grace: number }) => {
      const cat = open(opts);
      const r = await cat.gc({ graceMs: opts.grace * 1000 });
      if (opts.format === "json") {
        writeJson({
          catalog: cat.store.location,
          ok: r.ok,
          removedObjects: r.removedObjects,
          restoredObjects: r.restoredObjects,
          removedTemp: r.removedTemp,
          diagnostics: r.diagnostics.map(jsonDiagnostic),
        });
      } else {
        writeDiagnostics(r.diagnostics);
        process.stdout.write(
          `gc: removed ${r.removedObjects} unreferenced object${r.removedObjects === 1 ? "" : "s"} and ${r.removedTemp} temp file${r.removedTemp === 1 ? "" : "s"}; restored ${r.restoredObjects}\n`,
        );
      }
      process.exitCode = r.ioError ? EXIT_USAGE : r.ok ? EXIT_OK : EXIT_INVALID;
    });
}

function parseSeconds(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0)
    throw new InvalidArgumentError("expected a number of seconds >= 0");
  return n;
}

function list(items: readonly string[]): string {
  return items.length === 0 ? "(none)" : items.join(", ");
}

function exitFor(ioError: boolean, diagnostics: readonly Diagnostic[]): number {
  if (ioError) return EXIT_USAGE;
  return diagnostics.some((d) => d.severity === "error") ? EXIT_INVALID : EXIT_OK;
}

function fail(format: Format, diagnostics: readonly Diagnostic[], ioError: boolean): void {
  if (format === "json") writeJson({ ok: false, diagnostics: diagnostics.map(jsonDiagnostic) });
  else writeDiagnostics(diagnostics);
  process.exitCode = ioError ? EXIT_USAGE : EXIT_INVALID;
}

function writeJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/** Diagnostics on stderr in the one human form (catalog diagnostics point at catalog files, not source spans). */
function writeDiagnostics(diagnostics: readonly Diagnostic[]): void {
  if (diagnostics.length === 0) return;
  process.stderr.write(
    renderResults(
      [{ path: "", kind: "unknown", valid: true, identity: null, diagnostics }],
      "human",
      formatOptions(process.stderr, { diagnosticsOnly: true }),
    ),
  );
}

/** Write a file whole: temp file next to it, fsync, rename. */
async function writeFileAtomic(path: string, text: string): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  const handle = await fsp.open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fsp.rename(tmp, path);
  } catch (e) {
    await fsp.unlink(tmp).catch(() => undefined);
    throw e;
  }
}
