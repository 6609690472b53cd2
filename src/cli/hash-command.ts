/**
 * `yaoc hash PATH`: the structural load (HNS §11 steps 1–7, 9–10) and only the identity on stdout,
 * so a package whose bodies an analyzer would reject still hashes like the reference.
 */
import { renderHuman } from "../diagnostics/render.js";
import type { PackageFs } from "../fs/package-fs.js";
import { checkHns } from "../hns/check.js";
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, useColor } from "./io.js";

export async function runHash(fs: PackageFs, path: string): Promise<number> {
  const result = await checkHns(fs, path);
  if (result.valid && result.identity !== null) {
    process.stdout.write(`${result.identity}\n`);
    return EXIT_OK;
  }
  process.stderr.write(renderHuman([result], { color: useColor(process.stderr) }));
  return result.ioError ? EXIT_USAGE : EXIT_INVALID;
}
