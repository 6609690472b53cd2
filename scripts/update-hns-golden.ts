/**
 * Regenerates golden/hns/ from fixtures/hns/ by running the HNS loader on every fixture.
 *
 *   npx tsc -p tsconfig.build.json && node dist/scripts/update-hns-golden.js          # write
 *   npx tsc -p tsconfig.build.json && node dist/scripts/update-hns-golden.js --check  # compare only
 *
 * This is the explicit update mode: tests only ever read golden files. After writing, review every
 * changed file (`git diff golden/hns`) against the HNS spec and the loader reference before
 * committing; a value the spec disagrees with is a loader bug, not a new golden.
 *
 * The discovery and the golden view are exported so test/hns/golden.test.ts uses exactly the same
 * rules as this script.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  discoverHnsFixtures as discoverIn,
  goldenPathFor as goldenPathIn,
  hnsGoldenView as viewIn,
  staleGoldens as staleIn,
  type HnsFixture,
  type HnsGolden,
} from "../src/cli/golden/hns.js";

// The rules live in src/cli/golden/hns.ts (`yaoc golden verify` uses them too); re-exported here
// with this repository as the default root.
export {
  KNOWN_LOADER_BUGS,
  loadFixture,
  renderGolden,
  type GoldenDiagnostic,
  type HnsFixture,
  type HnsGolden,
} from "../src/cli/golden/hns.js";
import { KNOWN_LOADER_BUGS, loadFixture, renderGolden } from "../src/cli/golden/hns.js";

/** The repository root: the nearest ancestor of this file holding package.json. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const up = dirname(dir);
    if (up === dir) throw new Error("package.json not found above the golden script");
    dir = up;
  }
  return dir;
}

export const discoverHnsFixtures = (repo: string = repoRoot()): HnsFixture[] => discoverIn(repo);
export const goldenPathFor = (rel: string, repo: string = repoRoot()): string => goldenPathIn(rel, repo);
export const hnsGoldenView = (result: Parameters<typeof viewIn>[0], repo: string = repoRoot()): HnsGolden =>
  viewIn(result, repo);
export const staleGoldens = (fixtures: readonly HnsFixture[], repo: string = repoRoot()): string[] =>
  staleIn(fixtures, repo);

async function main(args: readonly string[]): Promise<number> {
  const check = args.includes("--check");
  const unknown = args.filter((a) => a !== "--check");
  if (unknown.length > 0) {
    process.stderr.write(`usage: node dist/scripts/update-hns-golden.js [--check]\nunknown argument: ${unknown[0]}\n`);
    return 2;
  }
  if (!check && process.env["CI"] !== undefined && !["", "0", "false"].includes(process.env["CI"])) {
    // The same rule as UPDATE_GOLDEN=1 (test/support/update-golden.ts): CI compares, never rewrites.
    process.stderr.write("update-hns-golden: writing golden files is refused when CI is set; use --check\n");
    return 2;
  }
  const repo = repoRoot();
  const fixtures = discoverHnsFixtures(repo);
  let changed = 0;
  for (const fixture of fixtures) {
    const text = renderGolden(hnsGoldenView(await loadFixture(fixture), repo));
    const file = goldenPathFor(fixture.rel, repo);
    const old = existsSync(file) ? readFileSync(file, "utf8") : undefined;
    if (old === text) continue;
    const bug = KNOWN_LOADER_BUGS.get(fixture.rel);
    if (bug !== undefined && old !== undefined) {
      process.stdout.write(
        `kept (known loader bug, golden holds the expected value): golden/hns/${fixture.rel}.json\n`,
      );
      continue;
    }
    changed++;
    process.stdout.write(`${old === undefined ? "new" : "changed"}: golden/hns/${fixture.rel}.json\n`);
    if (!check) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
  }
  const stale = staleGoldens(fixtures, repo);
  for (const s of stale) {
    process.stdout.write(`stale: golden/hns/${s}\n`);
    if (!check) rmSync(join(repo, "golden/hns", s), { recursive: true, force: true });
  }
  process.stdout.write(
    `${fixtures.length} fixtures; ${changed} golden file(s) ${check ? "differ" : "written"}; ${stale.length} stale\n`,
  );
  return check && changed + stale.length > 0 ? 1 : 0;
}

const invoked =
  process.argv[1] !== undefined && existsSync(process.argv[1])
    ? pathToFileURL(realpathSync(resolve(process.argv[1]))).href
    : "";
if (invoked === import.meta.url) {
  process.exitCode = await main(process.argv.slice(2));
}
