/**
 * `yaoc a3s …` subcommands. Resolution, lock verification and OKF bundle inspection are not
 * implemented yet (docs/a3s.md); they are not registered rather than pretending.
 */
import type { Command } from "commander";
import { checkA3s } from "../a3s/index.js";
import { checkManifestText, decodeManifest } from "../a3s/manifest-check.js";
import { MANIFEST_FILE } from "../a3s/manifest.js";
import { readinessLevels, surfaceGraph } from "../a3s/readiness.js";
import { NodeFs } from "../fs/node-fs.js";
import { joinPath } from "../fs/paths.js";

async function loadManifest(dir: string) {
  const fs = new NodeFs();
  const st = await fs.stat(dir);
  const file = st?.kind === "directory" ? joinPath(dir, MANIFEST_FILE) : dir;
  const bytes = await fs.readFile(file, 1024 * 1024 + 4);
  const decoded = decodeManifest(bytes, MANIFEST_FILE);
  if ("diagnostic" in decoded) return { manifest: null, diagnostics: [decoded.diagnostic] };
  return checkManifestText(decoded.text, MANIFEST_FILE);
}

function report(diags: readonly { code: string; message: string; span?: { start: { line: number; column: number } } }[]): void {
  for (const d of diags) {
    const at = d.span ? `${MANIFEST_FILE}:${d.span.start.line}:${d.span.start.column}: ` : "";
    process.stderr.write(`${at}${d.code}: ${d.message}\n`);
  }
}

export function registerA3sCommands(program: Command): void {
  const a3s = program.command("a3s").description("A3S Use cognitive packages");

  a3s
    .command("model")
    .argument("<dir>", "package directory or a3s-use-extension.acl")
    .description("print the typed schema-v3 model as JSON")
    .action(async (dir: string) => {
      try {
        const r = await loadManifest(dir);
        report(r.diagnostics);
        if (r.manifest === null) {
          process.exitCode = 1;
          return;
        }
        process.stdout.write(`${JSON.stringify(r.manifest, null, 2)}\n`);
      } catch (e) {
        process.stderr.write(`yaoc a3s model: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exitCode = 2;
      }
    });

  a3s
    .command("readiness")
    .argument("<dir>", "package directory or a3s-use-extension.acl")
    .description("print the surface graph's readiness levels and required closure")
    .action(async (dir: string) => {
      try {
        const r = await loadManifest(dir);
        report(r.diagnostics);
        if (r.manifest === null) {
          process.exitCode = 1;
          return;
        }
        const levels = readinessLevels(surfaceGraph(r.manifest));
        if (levels === null) {
          process.stderr.write("[use.plugin.reconcile_invalid] The named surface dependency graph contains a cycle.\n");
          process.exitCode = 1;
          return;
        }
        for (const l of levels) process.stdout.write(`${l.level}\t${l.surface}${l.required ? "" : "\t(optional)"}\n`);
      } catch (e) {
        process.stderr.write(`yaoc a3s readiness: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exitCode = 2;
      }
    });

  a3s
    .command("check")
    .argument("<dir>", "package directory or a3s-use-extension.acl")
    .description("check a package (manifest, files, fingerprint) and print the result as JSON")
    .action(async (dir: string) => {
      try {
        const { sources: _sources, ...r } = await checkA3s(new NodeFs(), dir);
        process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
        process.exitCode = r.valid ? 0 : 1;
      } catch (e) {
        process.stderr.write(`yaoc a3s check: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exitCode = 2;
      }
    });
}
