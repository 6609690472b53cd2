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
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Diagnostic } from "../src/diagnostics/diagnostic.js";
import { NodeFs } from "../src/fs/node-fs.js";
import { loadPackage, type LoadResult } from "../src/hns/load.js";

export interface HnsFixture {
  /** Path relative to fixtures/hns, with `/` separators: `success/coding.hns`, `failure/hns.bad_suffix/x.txt`. */
  readonly rel: string;
  readonly abs: string;
  /** `success/…` fixtures must load; `failure/<code>/…` fixtures must fail with `<code>`. */
  readonly expect: { readonly valid: true } | { readonly valid: false; readonly code: string };
}

export interface GoldenDiagnostic {
  readonly code: string;
  readonly severity: string;
  readonly message: string;
  readonly file: string | null;
  readonly line: number | null;
  readonly column: number | null;
}

export type HnsGolden =
  | {
      readonly valid: true;
      readonly identity: string;
      readonly id: string;
      readonly version: string;
      readonly owner: string;
      readonly entryId: string;
      readonly form: string;
      readonly functions: readonly string[];
      readonly warnings: readonly GoldenDiagnostic[];
    }
  | { readonly valid: false; readonly diagnostics: readonly GoldenDiagnostic[] };

/**
 * Fixtures whose golden file holds the value the spec / loader reference require, while the loader
 * currently produces something else. The update script never overwrites these goldens, and
 * test/hns/golden.test.ts expects them to fail (`it.fails`) until src/ is fixed; then delete the
 * entry here. Each reason states the clause.
 */
export const KNOWN_LOADER_BUGS: ReadonlyMap<string, string> = new Map([
]);

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

/** Every fixture: each entry of fixtures/hns/success/ and of each fixtures/hns/failure/<code>/. */
export function discoverHnsFixtures(repo: string = repoRoot()): HnsFixture[] {
  const root = join(repo, "fixtures/hns");
  const out: HnsFixture[] = [];
  for (const name of readdirSync(join(root, "success")).sort()) {
    out.push({ rel: `success/${name}`, abs: join(root, "success", name), expect: { valid: true } });
  }
  for (const code of readdirSync(join(root, "failure")).sort()) {
    const dir = join(root, "failure", code);
    if (!statSync(dir).isDirectory()) throw new Error(`fixtures/hns/failure/${code} must be a directory named after a diagnostic code`);
    for (const name of readdirSync(dir).sort()) {
      out.push({ rel: `failure/${code}/${name}`, abs: join(dir, name), expect: { valid: false, code } });
    }
  }
  return out;
}

/** golden/hns/<rel>.json */
export function goldenPathFor(rel: string, repo: string = repoRoot()): string {
  return join(repo, "golden/hns", `${rel}.json`);
}

/** Load a fixture exactly as the golden records it: the structural load (`yaoc hash`), Node file system. */
export async function loadFixture(fixture: HnsFixture): Promise<LoadResult> {
  return loadPackage(new NodeFs(), fixture.abs);
}

/** The machine-independent view of a load result: absolute paths become repository-relative. */
export function hnsGoldenView(result: LoadResult, repo: string = repoRoot()): HnsGolden {
  const prefix = repo.endsWith(sep) ? repo : `${repo}${sep}`;
  const rel = (s: string): string => s.split(prefix).join("");
  const diag = (d: Diagnostic): GoldenDiagnostic => ({
    code: d.code,
    severity: d.severity,
    message: rel(d.message),
    file: d.file === undefined ? null : rel(d.file),
    line: d.span?.start.line ?? null,
    column: d.span?.start.column ?? null,
  });
  if (!result.ok) return { valid: false, diagnostics: result.diagnostics.map(diag) };
  const p = result.package;
  return {
    valid: true,
    identity: p.identity,
    id: p.manifest.id,
    version: p.manifest.version,
    owner: p.entry.owner,
    entryId: p.entry.id,
    form: p.form,
    functions: p.functions.map((f) => f.name),
    warnings: result.warnings.map(diag),
  };
}

export function renderGolden(view: HnsGolden): string {
  return `${JSON.stringify(view, null, 2)}\n`;
}

/** Golden files with no fixture (to delete), relative to golden/hns. */
export function staleGoldens(fixtures: readonly HnsFixture[], repo: string = repoRoot()): string[] {
  const goldenRoot = join(repo, "golden/hns");
  if (!existsSync(goldenRoot)) return [];
  const wanted = new Set(fixtures.map((f) => `${f.rel}.json`));
  const stale: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const abs = join(dir, name);
      const r = relative(goldenRoot, abs).split(sep).join("/");
      if (wanted.has(r)) continue;
      if (statSync(abs).isDirectory() && [...wanted].some((w) => w.startsWith(`${r}/`))) walk(abs);
      else stale.push(r);
    }
  };
  walk(goldenRoot);
  return stale.sort();
}

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
      process.stdout.write(`kept (known loader bug, golden holds the expected value): golden/hns/${fixture.rel}.json\n`);
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
  process.stdout.write(`${fixtures.length} fixtures; ${changed} golden file(s) ${check ? "differ" : "written"}; ${stale.length} stale\n`);
  return check && changed + stale.length > 0 ? 1 : 0;
}

const invoked = process.argv[1] !== undefined && existsSync(process.argv[1]) ? pathToFileURL(realpathSync(resolve(process.argv[1]))).href : "";
if (invoked === import.meta.url) {
  process.exitCode = await main(process.argv.slice(2));
}
