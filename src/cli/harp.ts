/**
 * `yaoc harp …`: validate, hash and the host commands (install, start, stop, status, logs, upgrade,
 * uninstall, run, capabilities, conformance). Exit codes: 0 ok, 1 invalid package or failed
 * operation, 2 usage or I/O problem.
 */
import { statSync } from "node:fs";
import { type Command, Option } from "commander";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { NodeFs } from "../fs/node-fs.js";
import { check } from "../check/check.js";
import { platformTriple, PLATFORMS, type Platform } from "../harp/manifest.js";
import { ALL_CASES, runConformance, type ConformanceResult } from "../harp/host/conformance.js";
import { HarpHost, HostError } from "../harp/host/host.js";
import type { Limits } from "../harp/host/sandbox.js";
import { OUTPUT_FORMATS, renderResults, type OutputFormat } from "../output/format.js";
import { formatOptions } from "./output.js";

const EXIT_OK = 0;
const EXIT_INVALID = 1;
const EXIT_USAGE = 2;
/** Diagnostics that mean "the host could not do its own I/O", which is exit 2 like any I/O error. */
const IO_CODES = new Set(["harp.io_error"]);

function out(s: string): void {
  process.stdout.write(s.endsWith("\n") ? s : `${s}\n`);
}
function err(s: string): void {
  process.stderr.write(s.endsWith("\n") ? s : `${s}\n`);
}

/** Host diagnostics in the one human form (docs/output.md). */
export function renderDiagnostic(d: Diagnostic): string {
  const result = { path: "", kind: "harp" as const, valid: false, identity: null, diagnostics: [d] };
  return renderResults([result], "human", formatOptions(process.stderr, { diagnosticsOnly: true })).trimEnd();
}

interface GlobalOpts {
  home?: string;
}

function host(cmd: Command, extra: { graceMs?: number } = {}): HarpHost {
  const g = cmd.optsWithGlobals() as GlobalOpts;
  return new HarpHost({ ...(g.home !== undefined ? { home: g.home } : {}), ...extra });
}

/**
 * A package path that does not exist (or cannot be reached) is a usage/I-O error, exit 2, in every
 * command; the message says which case it is.
 */
function checkPackagePath(dir: string): boolean {
  try {
    statSync(dir);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "does not exist (or is a dangling symbolic link)"
        : code === "ELOOP"
          ? "is a symbolic link loop"
          : code === "EACCES"
            ? "cannot be accessed (permission denied)"
            : code === "ENOTDIR"
              ? "has a path component that is not a directory"
              : `cannot be read (${code ?? String(e)})`;
    err(
      renderDiagnostic({
        code: "harp.not_a_directory",
        severity: "error",
        message: `${dir} ${why}`,
        file: dir,
        hint: "Give the path of a HARP package directory (the one holding harp.json).",
      }),
    );
    process.exitCode = EXIT_USAGE;
    return false;
  }
}

/**
 * Run a host action: HostErrors become diagnostics and exit 1 (2 for the host's own I/O errors),
 * anything else exit 2. A ref'd timer is held for the whole action, so Node can never end the
 * process with exit 13 ("unsettled top-level await") while a promise waits on an unref'd handle.
 * With `interruptible`, SIGINT/SIGTERM abort the action (which stops what it started) and the
 * command exits 128+signal.
 */
async function guarded(
  action: (signal: AbortSignal) => Promise<void> | void,
  opts: { interruptible?: boolean } = {},
): Promise<void> {
  const keepAlive = setInterval(() => undefined, 60_000);
  const abort = new AbortController();
  let caught: NodeJS.Signals | null = null;
  const onSignal = (sig: NodeJS.Signals) => {
    if (caught !== null) return;
    caught = sig;
    err(`yaoc harp: ${sig}, stopping what this command started…`);
    abort.abort();
  };
  if (opts.interruptible) {
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  }
  try {
    await action(abort.signal);
  } catch (e) {
    if (e instanceof HostError) {
      for (const d of e.diagnostics) err(renderDiagnostic(d));
      process.exitCode = e.diagnostics.some((d) => IO_CODES.has(d.code)) ? EXIT_USAGE : EXIT_INVALID;
    } else {
      err(`yaoc harp: ${e instanceof Error ? e.message : String(e)}`);
      process.exitCode = EXIT_USAGE;
    }
  } finally {
    clearInterval(keepAlive);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    if (caught !== null) process.exitCode = caught === "SIGINT" ? 130 : 143;
  }
}

function limitsFrom(o: { memoryMib?: number; maxPids?: number; cpus?: number }): Partial<Limits> {
  return {
    ...(o.memoryMib !== undefined ? { memoryMiB: o.memoryMib } : {}),
    ...(o.maxPids !== undefined ? { pids: o.maxPids } : {}),
    ...(o.cpus !== undefined ? { cpus: o.cpus } : {}),
  };
}

function positive(name: string, integer: boolean): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
      throw new Error(`${name} must be a positive ${integer ? "integer" : "number"}`);
    return n;
  };
}

export function registerHarpCommands(program: Command): void {
  const harp = program
    .command("harp")
    .description("HARP v1 apps: validate packages and run them on a local host")
    .option("--home <dir>", "host state directory (default $YAOC_HARP_HOME or $XDG_DATA_HOME/yaoc/harp)");

  harp
    .command("validate")
    .description("validate a HARP package directory (schema and beyond-schema checks)")
    .argument("<dir>", "package directory containing harp.json")
    .addOption(new Option("--format <format>", "output format").choices([...OUTPUT_FORMATS]).default("human"))
    .addOption(new Option("--platform <triple>", "platform to check start.platforms against").choices([...PLATFORMS]))
    .action(async (dir: string, opts: { format: OutputFormat; platform?: Platform }) => {
      if (!checkPackagePath(dir)) return;
      const platform = opts.platform ?? platformTriple(process.platform, process.arch);
      const r = await check(new NodeFs(), dir, { kind: "harp", platform });
      process.stdout.write(renderResults([r], opts.format, formatOptions(process.stdout)));
      process.exitCode = r.valid ? EXIT_OK : EXIT_INVALID;
    });

  harp
    .command("hash")
    .description("print the package digest (sorted file tree, see docs/harp.md)")
    .argument("<dir>")
    .action(async (dir: string) => {
      if (!checkPackagePath(dir)) return;
      const r = await check(new NodeFs(), dir, { kind: "harp" });
      if (!r.valid) {
        for (const d of r.diagnostics) err(renderDiagnostic(d));
        process.exitCode = EXIT_INVALID;
        return;
      }
      out(r.identity ?? "");
    });

  harp
    .command("install")
    .description("validate and copy a package into the host (an installed id is upgraded)")
    .argument("<dir>")
    .action((dir: string, _o: unknown, cmd: Command) =>
      guarded(async () => {
        if (!checkPackagePath(dir)) return;
        const r = await host(cmd).install(dir);
        out(
          r.upgraded
            ? `upgraded ${r.id} ${r.previousVersion} → ${r.version} (${r.digest})`
            : `installed ${r.id} ${r.version} (${r.digest})`,
        );
      }),
    );

  harp
    .command("upgrade")
    .description("replace an installed app's bundle, keeping APP_DATA_DIR")
    .argument("<dir>")
    .option("--id <id>", "the installed id the package must keep")
    .action((dir: string, o: { id?: string }, cmd: Command) =>
      guarded(
        async () => {
          if (!checkPackagePath(dir)) return;
          const r = await host(cmd).upgrade(dir, o.id);
          out(`upgraded ${r.id} ${r.previousVersion} → ${r.version} (${r.digest}); data kept, cache cleared`);
        },
        { interruptible: true },
      ),
    );

  harp
    .command("uninstall")
    .description("remove an app; its data stays unless --purge")
    .argument("<id>")
    .option("--purge", "also delete APP_DATA_DIR")
    .action((id: string, o: { purge?: boolean }, cmd: Command) =>
      guarded(async () => {
        const r = await host(cmd).uninstall(id, { purge: o.purge === true });
        out(r.dataKept ? `uninstalled ${id}; data kept (use --purge to delete it)` : `uninstalled ${id}; data deleted`);
      }),
    );

  const startOpts = (c: Command) =>
    c
      .option("--allow-network", 'consent to network: "allow" (unrestricted network access)')
      .option("--timeout <ms>", "readiness timeout override in ms", positive("--timeout", true))
      .option("--memory-mib <n>", "memory limit for the app in MiB (default 512)", positive("--memory-mib", true))
      .option("--max-pids <n>", "process/thread limit for the app (default 128)", positive("--max-pids", true))
      .option("--cpus <n>", "CPU limit in cores, e.g. 0.5 (default 1)", positive("--cpus", false));
  type StartFlags = { allowNetwork?: boolean; timeout?: number; memoryMib?: number; maxPids?: number; cpus?: number };

  startOpts(
    harp.command("start").description("start an installed app and wait until it is ready").argument("<id>"),
  ).action((id: string, o: StartFlags, cmd: Command) =>
    guarded(
      async (signal) => {
        const st = await host(cmd).start(id, {
          allowNetwork: o.allowNetwork === true,
          limits: limitsFrom(o),
          signal,
          ...(o.timeout !== undefined ? { timeoutMs: o.timeout } : {}),
        });
        out(`${id} is ready at ${st.uiUrl}`);
      },
      { interruptible: true },
    ),
  );

  harp
    .command("stop")
    .description("stop a running app (SIGTERM, 5 s grace, SIGKILL)")
    .argument("<id>")
    .action((id: string, _o: unknown, cmd: Command) =>
      guarded(async () => {
        const h = host(cmd);
        if (h.record(id) === null)
          throw new HostError([
            { code: "harp.not_installed", severity: "error", message: `no app with id "${id}" is installed` },
          ]);
        const r = await h.stop(id);
        out(
          !r.wasRunning
            ? `${id} was not running`
            : r.forced
              ? `${id} stopped (killed after the grace period)`
              : `${id} stopped`,
        );
      }),
    );

  harp
    .command("status")
    .description("list installed apps and whether they run")
    .argument("[id]")
    .addOption(new Option("--format <format>", "output format").choices(["human", "json"]).default("human"))
    .action((id: string | undefined, o: { format: string }, cmd: Command) =>
      guarded(() => {
        const list = host(cmd).status(id);
        if (o.format === "json") return out(JSON.stringify(list, null, 2));
        if (list.length === 0) return out("no apps installed");
        for (const a of list)
          out(`${a.id}\t${a.version}\t${a.running ? `running ${a.uiUrl} (pid ${a.pid})` : "stopped"}`);
      }),
    );

  harp
    .command("logs")
    .description("print an app's log (stdout/stderr and host events)")
    .argument("<id>")
    .option("-n, --lines <n>", "only the last n lines", (v) => Number(v))
    .action((id: string, o: { lines?: number }, cmd: Command) =>
      guarded(() => {
        const h = host(cmd);
        if (h.record(id) === null)
          throw new HostError([
            { code: "harp.not_installed", severity: "error", message: `no app with id "${id}" is installed` },
          ]);
        process.stdout.write(h.logs(id, o.lines));
      }),
    );

  startOpts(
    harp.command("run").description("install, start and print the UI URL; Ctrl-C stops the app").argument("<dir>"),
  ).action((dir: string, o: StartFlags, cmd: Command) =>
    guarded(
      async (signal) => {
        if (!checkPackagePath(dir)) return;
        const h = host(cmd);
        const inst = await h.install(dir);
        for (const d of inst.warnings) err(renderDiagnostic(d));
        const st = await h.start(inst.id, {
          allowNetwork: o.allowNetwork === true,
          limits: limitsFrom(o),
          signal,
          ...(o.timeout !== undefined ? { timeoutMs: o.timeout } : {}),
        });
        out(`${inst.id} ${inst.version} is ready: ${st.uiUrl}\n(Ctrl-C stops it; logs: yaoc harp logs ${inst.id})`);
        await new Promise<void>((resolve) => {
          let done = false;
          const finish = async (why: string) => {
            if (done) return;
            done = true;
            clearInterval(watch);
            err(why);
            const r = await h.stop(inst.id);
            if (r.wasRunning) out(`${inst.id} stopped`);
            resolve();
          };
          if (signal.aborted) void finish("stopping…");
          signal.addEventListener("abort", () => void finish("stopping…"), { once: true });
          const watch = setInterval(() => {
            if (!h.isRunning(inst.id)) {
              process.exitCode = EXIT_INVALID;
              void finish(`${inst.id} exited on its own. Last log lines:\n${h.logs(inst.id, 20)}`);
            }
          }, 500);
        });
      },
      { interruptible: true },
    ),
  );

  harp
    .command("capabilities")
    .description("print this host's capability set (HARP §12), measured on this machine")
    .action((_o: unknown, cmd: Command) =>
      guarded(() => {
        out(JSON.stringify(host(cmd).capabilities(), null, 2));
      }),
    );

  harp
    .command("conformance")
    .description(
      "run the HARP v1 host conformance suite (C01…C42, incl. the sandbox attack cases) against this host with real processes",
    )
    .addOption(new Option("--format <format>", "output format").choices(["human", "json"]).default("human"))
    .option("--only <ids>", "comma-separated case ids, e.g. C01,C15")
    .action((o: { format: string; only?: string }) =>
      guarded(
        async (signal) => {
          const only = o.only?.split(",").map((s) => s.trim().toUpperCase());
          const unknown = (only ?? []).filter((id) => !ALL_CASES.some((c) => c.id === id));
          if (unknown.length > 0) {
            err(
              `yaoc harp conformance: no case ${unknown.join(", ")} (cases are ${ALL_CASES[0]!.id}…${ALL_CASES[ALL_CASES.length - 1]!.id})`,
            );
            process.exitCode = EXIT_USAGE;
            return;
          }
          // Human output streams one line per case as it finishes, so a crash or Ctrl-C still
          // leaves what ran on the screen; JSON is one document at the end (also on interrupt).
          const line = (r: ConformanceResult) =>
            out(
              `${r.id}  ${r.passed ? "PASS" : "FAIL"}  ${r.title}  (${r.clause}, ${r.ms} ms)${r.passed ? "" : `\n      ${r.detail.replace(/\n/g, "\n      ")}`}`,
            );
          const results = await runConformance({
            ...(only !== undefined ? { only } : {}),
            signal,
            ...(o.format === "human" ? { onResult: line } : {}),
          });
          const failed = results.filter((r) => !r.passed).length;
          if (o.format === "json") out(JSON.stringify(results, null, 2));
          else
            out(
              `${results.length - failed} passed, ${failed} failed${signal.aborted ? " (interrupted; every process the suite started was stopped)" : ""}`,
            );
          process.exitCode = failed === 0 && results.length > 0 ? EXIT_OK : EXIT_INVALID;
        },
        { interruptible: true },
      ),
    );
}
