/**
 * golden/hns: the golden view of every HNS fixture (fixtures/hns/success/*, failure/<code>/*),
 * shared by `yaoc golden verify` (src/cli/golden/suites.ts), the explicit update script
 * (scripts/update-hns-golden.ts) and test/hns/golden.test.ts, so all three use the same rules.
 */
import { readdirSync, statSync, existsSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { NodeFs } from "../../fs/node-fs.js";
import { check, type LoadResult } from "../../check/check.js";

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
export const KNOWN_LOADER_BUGS: ReadonlyMap<string, string> = new Map([]);

/** Every fixture: each entry of fixtures/hns/success/ and of each fixtures/hns/failure/<code>/. */
export function discoverHnsFixtures(repo: string): HnsFixture[] {
  const root = join(repo, "fixtures/hns");
  const out: HnsFixture[] = [];
  for (const name of readdirSync(join(root, "success")).sort()) {
    out.push({ rel: `success/${name}`, abs: join(root, "success", name), expect: { valid: true } });
  }
  for (const code of readdirSync(join(root, "failure")).sort()) {
    const dir = join(root, "failure", code);
    if (!statSync(dir).isDirectory())
      throw new Error(`fixtures/hns/failure/${code} must be a directory named after a diagnostic code`);
    for (const name of readdirSync(dir).sort()) {
      out.push({ rel: `failure/${code}/${name}`, abs: join(dir, name), expect: { valid: false, code } });
    }
  }
  return out;
}

/** golden/hns/<rel>.json */
export function goldenPathFor(rel: string, repo: string): string {
  return join(repo, "golden/hns", `${rel}.json`);
}

/**
 * Load a fixture exactly as the golden records it: `check`'s structural load as HNS (no detection,
 * no analysis), Node file system, and the loader's own result (its warnings in its order, and on a
 * failure the reference's first error, which the graded diagnostics do not keep).
 */
export async function loadFixture(fixture: HnsFixture): Promise<LoadResult> {
  const checked = await check(new NodeFs(), fixture.abs, { kind: "hns", analyze: false, keepAnalysis: true });
  if (checked.loaded === undefined) throw new Error(`${fixture.rel}: check kept no load result`);
  return checked.loaded;
}

/** The machine-independent view of a load result: absolute paths become repository-relative. */
export function hnsGoldenView(result: LoadResult, repo: string): HnsGolden {
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
export function staleGoldens(fixtures: readonly HnsFixture[], repo: string): string[] {
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
