/**
 * `yaoc hcp lint DIR…` and `yaoc hcp digest DIR`: HCP-only entry points next to `yaoc check`, which
 * detects packs of every kind. The lint output uses the common result shape so scripts can switch
 * between the two commands.
 */
import type { Command } from "commander";
import type { CheckResult } from "../diagnostics/result.js";
import { NodeFs } from "../fs/node-fs.js";
import { checkHcp } from "../hcp/index.js";

type Write = (text: string) => void;

export function registerHcpCommands(program: Command): void {
  const hcp = program.command("hcp").description("HCP/1.x Harness Packs (surface.json, policy.json, HARNESS.md)");
  hcp
    .command("lint")
    .description("check Harness Pack directories against the HCP/1.x pack model (§2)")
    .argument("<dirs...>", "pack root directories")
    .option("--json", "print one JSON result per line instead of text")
    .action(async (dirs: string[], opts: { json?: boolean }) => {
      process.exitCode = await runHcpLint(dirs, { json: opts.json === true }, (t) => process.stdout.write(t));
    });
  hcp
    .command("digest")
    .description("print the pack digest (sha256 over the three protocol files, see docs/hcp.md)")
    .argument("<dir>", "pack root directory")
    .action(async (dir: string) => {
      process.exitCode = await runHcpDigest(dir, (t) => process.stdout.write(t), (t) => process.stderr.write(t));
    });
}

/** Exit status 0 when every pack is valid (warnings allowed), 1 otherwise. */
export async function runHcpLint(dirs: readonly string[], opts: { json: boolean }, write: Write): Promise<number> {
  const fs = new NodeFs();
  let status = 0;
  for (const dir of dirs) {
    const result = await checkHcp(fs, dir);
    if (!result.valid) status = 1;
    write(opts.json ? `${JSON.stringify(toJson(result))}\n` : renderText(result));
  }
  return status;
}

export async function runHcpDigest(dir: string, write: Write, writeErr: Write): Promise<number> {
  const result = await checkHcp(new NodeFs(), dir);
  const digest = result.extra?.digest;
  if (typeof digest !== "string") {
    writeErr(renderText(result));
    return 1;
  }
  write(`${digest}\n`);
  writeErr(`${HCP_DIGEST_SCOPE}\n`);
  return 0;
}

/** Said wherever an HCP digest is printed, so no one mistakes it for an identity of the whole pack. */
export const HCP_DIGEST_SCOPE = "note: the HCP pack digest covers only surface.json, policy.json and HARNESS.md (by design, docs/hcp.md); other files in the pack are not part of it";

/** Common fields first, then the HCP fields; `sources` is for renderers and never serialised. */
export function toJson(result: CheckResult): Record<string, unknown> {
  const { path, kind, valid, identity, diagnostics } = result;
  return { path, kind, valid, identity, diagnostics, ...(result.extra ?? {}) };
}

export function renderText(result: CheckResult): string {
  const lines: string[] = [];
  for (const d of result.diagnostics) {
    const where = d.file === undefined ? result.path : d.span === undefined ? d.file : `${d.file}:${d.span.start.line}:${d.span.start.column}`;
    lines.push(`${where}: ${d.severity}[${d.code}]: ${d.message}`);
    if (d.hint !== undefined) lines.push(`  hint: ${d.hint}`);
    for (const r of d.related ?? []) {
      const at = r.file === undefined ? "" : r.span === undefined ? `${r.file}: ` : `${r.file}:${r.span.start.line}:${r.span.start.column}: `;
      lines.push(`  note: ${at}${r.message}`);
    }
  }
  const errors = result.diagnostics.filter((d) => d.severity === "error").length;
  const warnings = result.diagnostics.filter((d) => d.severity === "warning").length;
  const verdict = result.valid ? `valid HCP pack, ${result.identity}` : "invalid HCP pack";
  lines.push(`${result.path}: ${verdict} (${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"})`);
  return `${lines.join("\n")}\n`;
}
