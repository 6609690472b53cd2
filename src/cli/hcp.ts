/**
 * `yaoc hcp lint DIR…` and `yaoc hcp digest DIR`: HCP-only entry points next to `yaoc check`, which
 * detects packs of every kind. `hcp lint` reports through the one output family
 * (`--format human|json|sarif|github`, `--json` = `--format json`), so scripts can switch between
 * the two commands.
 */
import type { Command } from "commander";
import type { CheckResult } from "../diagnostics/result.js";
import { NodeFs } from "../fs/node-fs.js";
import { check } from "../check/check.js";
import { renderResults } from "../output/format.js";
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, unusablePath } from "./io.js";
import { addFormatOption, formatOf, formatOptions, type OutputFormat } from "./output.js";

type Write = (text: string) => void;

export function registerHcpCommands(program: Command): void {
  const hcp = program.command("hcp").description("HCP/1.x Harness Packs (surface.json, policy.json, HARNESS.md)");
  const lint = hcp
    .command("lint")
    .description("check Harness Pack directories against the HCP/1.x pack model (§2)")
    .argument("<dirs...>", "pack root directories");
  addFormatOption(lint, { jsonAlias: true }).action(
    async (dirs: string[], opts: { format?: string; json?: boolean }) => {
      process.exitCode = await runHcpLint(dirs, { format: formatOf(opts) }, (t) => process.stdout.write(t));
    },
  );
  hcp
    .command("digest")
    .description("print the pack digest (sha256 over the three protocol files, see docs/hcp.md)")
    .argument("<dir>", "pack root directory")
    .action(async (dir: string) => {
      process.exitCode = await runHcpDigest(
        dir,
        (t) => process.stdout.write(t),
        (t) => process.stderr.write(t),
      );
    });
}

/** Exit status 0 when every pack is valid (warnings allowed), 1 otherwise, 2 when a path cannot be used. */
export async function runHcpLint(
  dirs: readonly string[],
  opts: { format: OutputFormat },
  write: Write,
): Promise<number> {
  const fs = new NodeFs();
  const results: CheckResult[] = [];
  let missing = false;
  for (const dir of dirs) {
    // The pack check says what is wrong (hcp.pack.not_directory); a path that cannot be used at
    // all (missing, a dangling or looping link) is still an I/O error, not an invalid pack.
    if ((await unusablePath(dir)) !== null) missing = true;
    results.push(await check(fs, dir, { kind: "hcp" }));
  }
  write(renderResults(results, opts.format, formatOptions(process.stdout)));
  if (missing) return EXIT_USAGE;
  return results.every((r) => r.valid) ? EXIT_OK : EXIT_INVALID;
}

export async function runHcpDigest(dir: string, write: Write, writeErr: Write): Promise<number> {
  const ioError = (await unusablePath(dir)) !== null;
  const result = await check(new NodeFs(), dir, { kind: "hcp" });
  const digest = result.extra?.digest;
  if (typeof digest !== "string") {
    writeErr(renderResults([result], "human", formatOptions(process.stderr, { diagnosticsOnly: true })));
    return ioError ? EXIT_USAGE : EXIT_INVALID;
  }
  write(`${digest}\n`);
  writeErr(`${HCP_DIGEST_SCOPE}\n`);
  return 0;
}

/** Said wherever an HCP digest is printed, so no one mistakes it for an identity of the whole pack. */
export const HCP_DIGEST_SCOPE =
  "note: the HCP pack digest covers only surface.json, policy.json and HARNESS.md (by design, docs/hcp.md); other files in the pack are not part of it";
