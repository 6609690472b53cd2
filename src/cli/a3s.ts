/**
 * `yaoc a3s …` subcommands (model, readiness, check, resolve, lock verify) and `yaoc okf check`.
 * Signature and TUF verification are out of scope and every command that could imply them says so.
 */
import type { Command } from "commander";
import { checkManifestText, decodeManifest } from "../a3s/manifest/check.js";
import { MANIFEST_FILE } from "../a3s/manifest/schema.js";
import { readinessLevels, surfaceGraph } from "../a3s/surfaces/readiness.js";
import { olpcCanonical } from "../a3s/package/cjson.js";
import { resolveFromRegistry, verifyLockFile } from "../a3s/resolve/registry.js";
import { checkOkfBundle, okfErrorDiagnostic, parseOkfContractJson } from "../a3s/okf/bundle.js";
import { DEFAULT_OKF_LIMITS, type OkfBundleContract } from "../a3s/okf/contract.js";
import {
  packageState,
  StateError,
  unavailableObservations,
  type DesiredPackage,
  type PackageStateReport,
} from "../a3s/surfaces/state.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { renderResults } from "../output/format.js";
import { jsonDiagnostics } from "../output/format-json.js";
import type { CheckResult } from "../diagnostics/result.js";
import { check as checkPackage } from "../check/check.js";
import { NodeFs } from "../fs/node-fs.js";
import { joinPath } from "../fs/paths.js";
import { EXIT_USAGE, reportUnusablePaths } from "./io.js";
import { addFormatOption, formatOf, formatOptions, type OutputFormat } from "./output.js";

/** The manifest of `dir` (a package directory or the manifest file), its diagnostics named by the path as given. */
async function loadManifest(dir: string) {
  const fs = new NodeFs();
  const st = await fs.stat(dir);
  const file = st?.kind === "directory" ? joinPath(dir, MANIFEST_FILE) : dir;
  const bytes = await fs.readFile(file, 1024 * 1024 + 4);
  const decoded = decodeManifest(bytes, file);
  if ("diagnostic" in decoded)
    return { manifest: null, diagnostics: [decoded.diagnostic], file, sources: new Map<string, string>() };
  return { ...checkManifestText(decoded.text, file), file, sources: new Map([[file, decoded.text]]) };
}

/** Diagnostics of a command that is not a package check, as one result for the output family. */
function subject(path: string, diagnostics: readonly Diagnostic[], sources?: ReadonlyMap<string, string>): CheckResult {
  return {
    path,
    kind: "a3s",
    valid: !diagnostics.some((d) => d.severity === "error"),
    identity: null,
    diagnostics,
    ...(sources !== undefined ? { sources } : {}),
  };
}

/** Human: diagnostics on stderr (stdout keeps the command's own output); other formats: nothing here. */
function reportHuman(format: OutputFormat, results: readonly CheckResult[]): void {
  if (format === "human")
    process.stderr.write(renderResults(results, "human", formatOptions(process.stderr, { diagnosticsOnly: true })));
}

/** SARIF and GitHub: the diagnostics are the whole output. */
function machineDiagnostics(format: OutputFormat, results: readonly CheckResult[]): boolean {
  if (format !== "sarif" && format !== "github") return false;
  process.stdout.write(renderResults(results, format, formatOptions(process.stdout)));
  return true;
}

/**
 * An action whose unexpected failures (an unreadable file, malformed input it cannot report as a
 * diagnostic) end as a usage/I/O error: a one-line message and exit 2.
 */
function exitOnFailure<A extends unknown[]>(
  name: string,
  body: (...args: A) => Promise<void>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await body(...args);
    } catch (e) {
      process.stderr.write(`yaoc ${name}: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 2;
    }
  };
}

const NOT_VERIFIED =
  "note: catalog signatures and TUF metadata are not verified (out of scope); provenance is trusted as written\n";

/** Diagnostics of resolve and lock verify, in the one human form on stderr. */
function report(diags: readonly Diagnostic[]): void {
  process.stderr.write(
    renderResults(
      [{ path: "", kind: "a3s", valid: true, identity: null, diagnostics: diags }],
      "human",
      formatOptions(process.stderr, { diagnosticsOnly: true }),
    ),
  );
}

export function registerA3sCommands(program: Command): void {
  const a3s = program.command("a3s").description("A3S Use cognitive packages");

  const model = a3s
    .command("model")
    .argument("<dir>", "package directory or a3s-use-extension.acl")
    .description("print the typed schema-v3 model as JSON (--format json: with the diagnostics in one document)");
  addFormatOption(model).action(
    exitOnFailure("a3s model", async (dir: string, opts: { format?: string }) => {
      const format = formatOf(opts);
      const r = await loadManifest(dir);
      const results = [subject(dir, r.diagnostics, r.sources)];
      process.exitCode = r.manifest === null ? 1 : 0;
      if (machineDiagnostics(format, results)) return;
      if (format === "json") {
        process.stdout.write(
          `${JSON.stringify({ path: dir, kind: "a3s", valid: r.manifest !== null, model: r.manifest, diagnostics: jsonDiagnostics(r.diagnostics, r.sources) }, null, 2)}\n`,
        );
        return;
      }
      reportHuman(format, results);
      if (r.manifest !== null) process.stdout.write(`${JSON.stringify(r.manifest, null, 2)}\n`);
    }),
  );

  const readiness = a3s
    .command("readiness")
    .argument("<dir>", "package directory or a3s-use-extension.acl")
    .option(
      "--unavailable <surfaces>",
      "comma-separated kind:id surfaces observed as failed; all others observed in their desired state (healthy or prepared when enabled, otherwise stopped)",
    )
    .option("--desired <state>", "desired package state: enabled, installed-disabled or absent", "enabled")
    .description(
      "print the surface graph's readiness levels, required closure and (with --unavailable or --desired) the package state: removed or draining when absent, installed, draining or reconciling when installed-disabled, ready, degraded, reconciling or broken when enabled",
    );
  addFormatOption(readiness, { jsonAlias: true }).action(
    exitOnFailure(
      "a3s readiness",
      async (dir: string, opts: { unavailable?: string; desired: string; json?: boolean; format?: string }) => {
        const format = formatOf(opts);
        const r = await loadManifest(dir);
        const results = [subject(dir, r.diagnostics, r.sources)];
        if (r.manifest === null) {
          process.exitCode = 1;
          if (format === "json")
            process.stdout.write(
              `${JSON.stringify({ path: dir, valid: false, levels: null, diagnostics: jsonDiagnostics(r.diagnostics, r.sources) }, null, 2)}\n`,
            );
          else if (!machineDiagnostics(format, results)) reportHuman(format, results);
          return;
        }
        if (machineDiagnostics(format, results)) return;
        reportHuman(format, results);
        const graph = surfaceGraph(r.manifest);
        const levels = readinessLevels(graph);
        if (levels === null) {
          process.stderr.write(
            "a3s.state.invalid: [use.plugin.reconcile_invalid] The named surface dependency graph contains a cycle.\n",
          );
          process.exitCode = 1;
          return;
        }
        if (!["enabled", "installed-disabled", "absent"].includes(opts.desired))
          throw new Error(`--desired must be enabled, installed-disabled or absent, not '${opts.desired}'`);
        let state: PackageStateReport | null = null;
        if (opts.unavailable !== undefined || opts.desired !== "enabled") {
          const unavailable = (opts.unavailable ?? "")
            .split(",")
            .map((x) => x.trim())
            .filter((x) => x !== "");
          try {
            state = packageState(graph, {
              desired: opts.desired as DesiredPackage,
              hostCompatible: true,
              observations: unavailableObservations(graph, unavailable, opts.desired as DesiredPackage),
            });
          } catch (e) {
            if (!(e instanceof StateError)) throw e;
            process.stderr.write(`a3s.state.invalid: [${e.referenceCode}] ${e.message}\n`);
            process.exitCode = 1;
            return;
          }
        }
        if (format === "json") {
          process.stdout.write(
            `${JSON.stringify({ path: dir, valid: true, levels, ...(state ? { state: state.state, capabilityReady: state.capabilityReady, surfaces: state.surfaces } : {}), diagnostics: jsonDiagnostics(r.diagnostics, r.sources) }, null, 2)}\n`,
          );
          return;
        }
        if (state === null) {
          for (const l of levels) process.stdout.write(`${l.level}\t${l.surface}${l.required ? "" : "\t(optional)"}\n`);
          return;
        }
        for (const s of state.surfaces) {
          process.stdout.write(
            `${s.level}\t${s.surface}${s.required ? "" : " (optional)"}\t${s.observed}${s.reason ? ` (${s.reason})` : ""}\t${s.published ? "published" : "not published"}\n`,
          );
        }
        process.stdout.write(`state: ${state.state}${state.capabilityReady ? " (capability ready)" : ""}\n`);
      },
    ),
  );

  const check = a3s
    .command("check")
    .argument("<dir>", "package directory or a3s-use-extension.acl")
    .description("check a package (manifest, files, fingerprint) and report the result");
  addFormatOption(check, { jsonAlias: true }).action(
    exitOnFailure("a3s check", async (dir: string, opts: { format?: string; json?: boolean }) => {
      const missing = await reportUnusablePaths("a3s check", [dir]);
      const fs = new NodeFs();
      const r = await checkPackage(fs, dir, { kind: "a3s" });
      process.stdout.write(renderResults([r], formatOf(opts), formatOptions(process.stdout)));
      process.exitCode = missing ? EXIT_USAGE : r.valid ? 0 : 1;
    }),
  );

  a3s
    .command("resolve")
    .argument("<root>", "root package: ID or ID@VERSION among the registry's records")
    .requiredOption("--registry <dir>", "directory of verified catalog records ({record, provenance} JSON files)")
    .requiredOption("--target <target>", "host target, e.g. linux-x86_64")
    .requiredOption("--use-version <version>", "host A3S Use version, e.g. 0.3.0")
    .option("-o, --out <file>", "write the lock here instead of stdout")
    .description("resolve the dependency closure and print the canonical a3s.use.plugin-package-lock.v1")
    .action(
      exitOnFailure(
        "a3s resolve",
        async (root: string, opts: { registry: string; target: string; useVersion: string; out?: string }) => {
          if (await reportUnusablePaths("a3s resolve", [opts.registry])) {
            process.exitCode = EXIT_USAGE;
            return;
          }
          const fs = new NodeFs();
          const r = await resolveFromRegistry(fs, opts.registry, root, {
            target: opts.target,
            useVersion: opts.useVersion,
          });
          report(r.diagnostics);
          process.stderr.write(NOT_VERIFIED);
          if (r.lock === null || r.verification === null || r.verification.installOrder === null) {
            process.exitCode = 1;
            return;
          }
          const text = `${olpcCanonical(r.lock)}\n`;
          if (opts.out !== undefined) {
            const { writeFile } = await import("node:fs/promises");
            await writeFile(opts.out, text);
          } else process.stdout.write(text);
          process.stderr.write(
            `lock digest: ${r.digest}\ninstall order: ${r.verification.installOrder.join(", ")}\nremoval order: ${r.verification.removalOrder!.join(", ")}\n`,
          );
        },
      ),
    );

  a3s
    .command("lock")
    .description("package locks")
    .command("verify")
    .argument("<lock>", "an a3s.use.plugin-package-lock.v1 JSON file")
    .option("--json", "print the verification as JSON")
    .description("apply the seven lock rules; print digest, install and removal order")
    .action(
      exitOnFailure("a3s lock verify", async (lock: string, opts: { json?: boolean }) => {
        if (await reportUnusablePaths("a3s lock verify", [lock])) {
          process.exitCode = EXIT_USAGE;
          return;
        }
        const r = await verifyLockFile(new NodeFs(), lock);
        const ok = r.diagnostics.length === 0 && r.verification?.installOrder != null;
        if (opts.json === true) {
          const v = r.verification;
          const out = {
            path: lock,
            valid: ok,
            digest: v?.digest ?? null,
            installOrder: v?.installOrder ?? null,
            removalOrder: v?.removalOrder ?? null,
            diagnostics: r.diagnostics,
            verification: NOT_VERIFIED.slice(6).trim(),
          };
          process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
        } else {
          report(r.diagnostics);
          process.stderr.write(NOT_VERIFIED);
          if (r.verification !== null) {
            process.stdout.write(`digest: ${r.verification.digest ?? "(not canonicalizable)"}\n`);
            if (r.verification.installOrder !== null) {
              process.stdout.write(
                `install order: ${r.verification.installOrder.join(", ")}\nremoval order: ${r.verification.removalOrder!.join(", ")}\n`,
              );
            }
          }
        }
        process.exitCode = ok ? 0 : 1;
      }),
    );

  const okfCheck = program
    .command("okf")
    .description("OKF v0.2 knowledge bundles")
    .command("check")
    .argument("<dir>", "bundle root directory")
    .option(
      "--contract <file>",
      "an a3s.use.okf-bundle.v1 contract JSON; its limits apply and the bundle must match it",
    )
    .description(
      "inspect an OKF v0.2 bundle (frontmatter, links, reserved files, limits); --format json prints the inspection",
    );
  addFormatOption(okfCheck, { jsonAlias: true }).action(
    exitOnFailure("okf check", async (dir: string, opts: { contract?: string; format?: string; json?: boolean }) => {
      const format = formatOf(opts);
      if (await reportUnusablePaths("okf check", [dir, opts.contract])) {
        process.exitCode = EXIT_USAGE;
        return;
      }
      const fs = new NodeFs();
      let contract: OkfBundleContract | null = null;
      let diagnostics: Diagnostic[] = [];
      let inspection: unknown = null;
      if (opts.contract !== undefined) {
        const c = parseOkfContractJson(await fs.readFile(opts.contract, 128 * 1024 + 1));
        if (c.ok) contract = c.contract;
        else diagnostics = [okfErrorDiagnostic(c.error, opts.contract)];
      }
      if (diagnostics.length === 0) {
        const r = await checkOkfBundle(fs, dir, contract?.limits ?? DEFAULT_OKF_LIMITS, contract);
        diagnostics = [...r.diagnostics].map((d) =>
          d.file === undefined || d.file.startsWith("/") ? d : { ...d, file: joinPath(dir, d.file) },
        );
        inspection = r.inspection;
      }
      const valid = !diagnostics.some((d) => d.severity === "error");
      const result: CheckResult = { path: dir, kind: "unknown", valid, identity: null, diagnostics };
      process.exitCode = valid ? 0 : 1;
      if (format === "json") {
        process.stdout.write(
          `${JSON.stringify({ path: dir, kind: "okf", valid, inspection, diagnostics: jsonDiagnostics(diagnostics) }, null, 2)}\n`,
        );
        return;
      }
      if (format !== "human") {
        process.stdout.write(renderResults([result], format, formatOptions(process.stdout)));
        return;
      }
      process.stdout.write(renderResults([result], "human", formatOptions(process.stdout, { diagnosticsOnly: true })));
      process.stdout.write(
        `${dir}: ${valid ? "valid" : "invalid"} OKF bundle${inspection !== null && typeof inspection === "object" && "contentDigest" in inspection ? ` ${String((inspection as { contentDigest: unknown }).contentDigest)}` : ""}\n`,
      );
    }),
  );
}
