/**
 * `yaoc hash PATH`: only the identity on stdout. For HNS it is the structural load (HNS §11 steps
 * 1–7, 9–10), so packages whose bodies an analyzer would reject still hash like the reference; the
 * other kinds print their package digest (HARP file tree, HCP pack, A3S fingerprint).
 */
import { renderHuman } from "../diagnostics/render.js";
import type { PackageFs } from "../fs/package-fs.js";
import { checkPaths } from "./check-command.js";
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, useColor } from "./io.js";

export async function runHash(fs: PackageFs, path: string): Promise<number> {
  const { results, ioError } = await checkPaths(fs, [path], { analyze: false });
  const result = results[0]!;
  if (result.valid && result.identity !== null) {
    process.stdout.write(`${result.identity}\n`);
    if (result.kind === "hcp") process.stderr.write(`${(await import("./hcp.js")).HCP_DIGEST_SCOPE}\n`);
    return EXIT_OK;
  }
  process.stderr.write(renderHuman([result], { color: useColor(process.stderr) }));
  return ioError ? EXIT_USAGE : EXIT_INVALID;
}
