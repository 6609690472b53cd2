/**
 * `yaoc hash PATH`: only the identity on stdout. For HNS it is the structural load (HNS §11 steps
 * 1–7, 9–10), so packages whose bodies an analyzer would reject still hash like the reference; the
 * other kinds print their package digest (HARP file tree, HCP pack, A3S fingerprint).
 *
 * `--cache` (`--cache-dir`, `--cache-max-mib`) uses the result cache of `yaoc check --cache`
 * (check-cached.ts) with the structural load as its option (a `--no-analyze` key), so its entries
 * are those `yaoc check --no-analyze --cache` writes and reads; output and exit code are the same.
 */
import { renderHuman } from "../diagnostics/render.js";
import type { PackageFs } from "../fs/package-fs.js";
import { checkPaths, closeCache, openCache, type CacheSettings } from "./check-command.js";
import { checkCachedPath } from "./check-cached.js";
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE, useColor } from "./io.js";

export async function runHash(fs: PackageFs, path: string, options: { cache?: CacheSettings } = {}): Promise<number> {
  let checked: { result: import("../diagnostics/result.js").CheckResult; ioError: boolean };
  if (options.cache === undefined) {
    const { results, ioError } = await checkPaths(fs, [path], { analyze: false });
    checked = { result: results[0]!, ioError };
  } else {
    const cache = openCache(options.cache, { analyze: false });
    checked = await checkCachedPath(fs, path, { analyze: false }, cache);
    await closeCache(cache.store, "hash");
  }
  const { result, ioError } = checked;
  if (result.valid && result.identity !== null) {
    process.stdout.write(`${result.identity}\n`);
    if (result.kind === "hcp") process.stderr.write(`${(await import("./hcp.js")).HCP_DIGEST_SCOPE}\n`);
    return EXIT_OK;
  }
  process.stderr.write(renderHuman([result], { color: useColor(process.stderr) }));
  return ioError ? EXIT_USAGE : EXIT_INVALID;
}
