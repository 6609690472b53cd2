/**
 * Every folder of golden/ other than golden/evidence, as a suite that recomputes its records: for
 * each file the folder should hold, the exact text it should hold. `yaoc golden verify` runs each
 * suite in a fresh process (`--golden-suite NAME`) and compares the texts with the files (issue 20:
 * one verifier for every golden value). The vitest suites that write these files with
 * UPDATE_GOLDEN=1 (named in `writtenBy`) import the listings and record functions below (golden/hns:
 * ./hns.ts), so each folder's view exists once.
 *
 * Frontends are imported inside `records`, so the process that only compares never loads them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { CheckResult } from "../../diagnostics/result.js";
import type { AnalysisResult } from "../../yao/index.js";
import { NodeFs } from "../../fs/node-fs.js";
import { check } from "../../check/check.js";

export interface GoldenSuite {
  readonly name: string;
  /** The folder under golden/ this suite accounts for, every file in it. */
  readonly folder: string;
  /** What the records are. */
  readonly what: string;
  /** The command that writes them after a deliberate change (review, then commit with [golden]). */
  readonly writtenBy: string;
  /** Every record, relative to `folder`, with its expected text; `root` is the repository root. */
  readonly records: (root: string) => Promise<Map<string, string>>;
}

/**
 * One record: its file (relative to the suite's folder), its expected text, and the result it was
 * rendered from. The vitest suites compare these same records (and assert more on `result`), so the
 * view of each golden folder is written once, here.
 */
export interface GoldenRecord<R = unknown> {
  readonly file: string;
  readonly text: string;
  readonly result: R;
}

/** The text of a JSON record: two-space indentation and a final newline. */
export const goldenJson = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;
/** The names in `dir`, sorted; none when it does not exist. */
export const goldenEntries = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).sort() : []);

async function collect<R>(names: readonly string[], record: (name: string) => Promise<GoldenRecord<R>>) {
  const out = new Map<string, string>();
  for (const name of names) {
    const r = await record(name);
    out.set(r.file, r.text);
  }
  return out;
}

async function hnsRecords(root: string): Promise<Map<string, string>> {
  const { discoverHnsFixtures, hnsGoldenView, KNOWN_LOADER_BUGS, loadFixture, renderGolden } = await import("./hns.js");
  const out = new Map<string, string>();
  if (!existsSync(join(root, "fixtures/hns"))) return out;
  for (const f of discoverHnsFixtures(root)) {
    const rel = `${f.rel}.json`;
    // A known loader bug: the golden holds the spec's value, not ours; it is kept as committed.
    if (KNOWN_LOADER_BUGS.has(f.rel) && existsSync(join(root, "golden/hns", rel)))
      out.set(rel, readFileSync(join(root, "golden/hns", rel), "utf8"));
    else out.set(rel, renderGolden(hnsGoldenView(await loadFixture(f), root)));
  }
  return out;
}

/** golden/yao: the NAME of every fixtures/yao/golden/NAME.yao. */
export const yaoGoldenCases = (root: string): string[] =>
  goldenEntries(join(root, "fixtures/yao/golden"))
    .filter((f) => f.endsWith(".yao"))
    .map((f) => f.slice(0, -4));

/**
 * golden/yao/NAME.program.json: NAME.yao (with NAME.functions/*.yao as its module) analysed under
 * the Morphz profile with tools `read{path:String}` and dynamic `search`.
 */
export async function yaoGoldenRecord(root: string, name: string): Promise<GoldenRecord<AnalysisResult>> {
  const { analyzeProgram, morphzProfile, programJson, toolsFromManifest } = await import("../../yao/index.js");
  const { readOne } = await import("../../syntax/reader.js");
  const parse = (path: string) => {
    const r = readOne(readFileSync(path, "utf8"), { file: path });
    if (!r.ok) throw new Error(`${relative(root, path)} does not parse: ${r.diagnostic.message}`);
    return r.form;
  };
  const { tools } = toolsFromManifest(["read", "search"], {
    read: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  });
  const profile = morphzProfile(tools);
  const dir = join(root, "fixtures/yao/golden");
  const fnDir = join(dir, `${name}.functions`);
  const functions = goldenEntries(fnDir).map((f) => parse(join(fnDir, f)));
  const result = analyzeProgram(parse(join(dir, `${name}.yao`)), { profile, functions, allowInternal: true });
  return {
    file: `${name}.program.json`,
    text: result.program
      ? `${programJson(result.program)}\n`
      : goldenJson({ diagnostics: result.diagnostics.map((d) => d.code) }),
    result,
  };
}

/** golden/harp/NAME.json: the check result of fixtures/harp/NAME (as on linux-x64). */
export async function harpGoldenRecord(root: string, name: string): Promise<GoldenRecord<CheckResult>> {
  const result = await check(new NodeFs(), join(root, "fixtures/harp", name), { kind: "harp", platform: "linux-x64" });
  const text = goldenJson({
    valid: result.valid,
    identity: result.identity,
    extra: result.extra ?? {},
    diagnostics: result.diagnostics.map((d) => ({
      code: d.code,
      severity: d.severity,
      pointer: d.pointer ?? null,
      at: d.span ? `${d.span.start.line}:${d.span.start.column}` : null,
      message: d.message,
      hint: d.hint ?? null,
    })),
  });
  return { file: `${name}.json`, text, result };
}

/** The reviewed, machine-independent view of an HCP result (absolute pack path → repository-relative). */
export function hcpGoldenView(result: CheckResult, absPack: string, shownPack: string): unknown {
  const rel = (s: string) => s.split(absPack).join(shownPack);
  return JSON.parse(
    JSON.stringify({
      valid: result.valid,
      identity: result.identity,
      extra: result.extra,
      diagnostics: result.diagnostics.map((d) => ({
        code: d.code,
        severity: d.severity,
        file: d.file === undefined ? undefined : rel(d.file),
        pointer: d.pointer,
        at:
          d.span === undefined
            ? undefined
            : `${d.span.start.line}:${d.span.start.column}-${d.span.end.line}:${d.span.end.column}`,
        message: rel(d.message),
        hint: d.hint === undefined ? undefined : rel(d.hint),
      })),
    }),
  ) as unknown;
}

/** golden/hcp/NAME.json: the check result of the pack fixtures/hcp/NAME. */
export async function hcpGoldenRecord(root: string, name: string): Promise<GoldenRecord<CheckResult>> {
  const abs = join(root, "fixtures/hcp", name);
  const result = await check(new NodeFs(), abs, { kind: "hcp" });
  return { file: `${name}.json`, text: goldenJson(hcpGoldenView(result, abs, `fixtures/hcp/${name}`)), result };
}

type RegistryModule = typeof import("../../a3s/resolve/registry.js");

/** The fixtures of each golden/a3s folder, under fixtures/a3s/<folder>. */
export function a3sGoldenNames(root: string): {
  packages: string[];
  okf: string[];
  registry: string[];
  locks: string[];
} {
  const fix = join(root, "fixtures/a3s");
  return {
    packages: goldenEntries(join(fix, "packages")),
    okf: goldenEntries(join(fix, "okf")).filter((f) => !f.endsWith(".json")),
    registry: goldenEntries(join(fix, "registry")),
    locks: goldenEntries(join(fix, "locks")),
  };
}

/** golden/a3s/packages/NAME.json: the A3S check of the package, without its sources. */
export async function a3sPackageRecord(_root: string, name: string): Promise<GoldenRecord<CheckResult>> {
  // Relative, as `yaoc check` is given it: the worker (and vitest) runs in the repository root.
  const {
    sources: _sources,
    ioError: _ioError,
    ...result
  } = await check(new NodeFs(), `fixtures/a3s/packages/${name}`, { kind: "a3s" });
  return { file: `packages/${name}.json`, text: goldenJson(result), result };
}

/** golden/a3s/okf/NAME.json: the bundle check, under NAME.contract.json when there is one. */
export async function a3sOkfRecord(
  root: string,
  name: string,
): Promise<GoldenRecord<Awaited<ReturnType<typeof import("../../a3s/okf/bundle.js")["checkOkfBundle"]>>>> {
  const { checkOkfBundle, parseOkfContractJson } = await import("../../a3s/okf/bundle.js");
  const { DEFAULT_OKF_LIMITS } = await import("../../a3s/okf/contract.js");
  const dir = join(root, "fixtures/a3s/okf");
  const contractFile = join(dir, `${name}.contract.json`);
  const c = existsSync(contractFile) ? parseOkfContractJson(readFileSync(contractFile)) : null;
  if (c !== null && !c.ok) throw new Error(`${relative(root, contractFile)}: ${c.error.message}`);
  const contract = c?.ok ? c.contract : null;
  const result = await checkOkfBundle(new NodeFs(), join(dir, name), contract?.limits ?? DEFAULT_OKF_LIMITS, contract);
  return { file: `okf/${name}.json`, text: goldenJson(result), result };
}

/** golden/a3s/registry/NAME.json: resolving the records as resolve.json asks. */
export async function a3sRegistryRecord(
  root: string,
  name: string,
): Promise<GoldenRecord<Awaited<ReturnType<RegistryModule["resolveFromRegistry"]>>>> {
  const { resolveFromRegistry } = await import("../../a3s/resolve/registry.js");
  const dir = join(root, "fixtures/a3s/registry", name);
  const args = JSON.parse(readFileSync(join(dir, "resolve.json"), "utf8")) as {
    root: string;
    target: string;
    useVersion: string;
  };
  const result = await resolveFromRegistry(new NodeFs(), join(dir, "records"), args.root, {
    target: args.target,
    useVersion: args.useVersion,
  });
  const selected =
    result.lock?.packages.map(
      (p) =>
        `${(p.catalog.record as Record<string, string>)["packageId"]}@${(p.catalog.record as Record<string, string>)["version"]}`,
    ) ?? null;
  const text = goldenJson({
    diagnostics: result.diagnostics,
    selected,
    digest: result.digest,
    installOrder: result.verification?.installOrder ?? null,
    removalOrder: result.verification?.removalOrder ?? null,
  });
  return { file: `registry/${name}.json`, text, result };
}

/** golden/a3s/locks/NAME.json: verifying the lock file fixtures/a3s/locks/NAME.json. */
export async function a3sLockRecord(
  _root: string,
  name: string,
): Promise<GoldenRecord<Awaited<ReturnType<RegistryModule["verifyLockFile"]>>>> {
  const { verifyLockFile } = await import("../../a3s/resolve/registry.js");
  // Relative, as the CLI is given it: the worker (and vitest) runs in the repository root.
  const result = await verifyLockFile(new NodeFs(), `fixtures/a3s/locks/${name}`);
  const text = goldenJson({
    diagnostics: result.diagnostics,
    digest: result.verification?.digest ?? null,
    installOrder: result.verification?.installOrder ?? null,
    removalOrder: result.verification?.removalOrder ?? null,
  });
  return { file: `locks/${name.replace(/\.json$/, "")}.json`, text, result };
}

async function a3sRecords(root: string): Promise<Map<string, string>> {
  const names = a3sGoldenNames(root);
  const out = new Map<string, string>();
  for (const part of [
    await collect(names.packages, (n) => a3sPackageRecord(root, n)),
    await collect(names.okf, (n) => a3sOkfRecord(root, n)),
    await collect(names.registry, (n) => a3sRegistryRecord(root, n)),
    await collect(names.locks, (n) => a3sLockRecord(root, n)),
  ])
    for (const [file, text] of part) out.set(file, text);
  return out;
}

/** golden/fmt: every .yao/.hns file under examples/ and fixtures/{hns,yao,fmt}, repository-relative with `/`. */
export function fmtGoldenFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of goldenEntries(dir)) {
      const p = join(dir, name);
      const st = statSync(p, { throwIfNoEntry: false });
      if (st?.isDirectory()) walk(p);
      else if (st?.isFile() && /\.(yao|hns)$/.test(name)) files.push(relative(root, p).split("\\").join("/"));
    }
  };
  for (const t of ["examples", "fixtures/hns", "fixtures/yao", "fixtures/fmt"]) walk(join(root, t));
  return files;
}

/** golden/fmt/<rel>.formatted: `yaoc fmt` of the file; <rel>.refused: the reader diagnostic that refuses it. */
export async function fmtGoldenRecord(
  root: string,
  rel: string,
): Promise<GoldenRecord<ReturnType<typeof import("../../fmt/format.js")["formatSource"]>>> {
  const { formatSource } = await import("../../fmt/format.js");
  const result = formatSource(readFileSync(join(root, rel)), { file: rel });
  return result.ok
    ? { file: `${rel}.formatted`, text: result.text, result }
    : {
        file: `${rel}.refused`,
        text: `${result.diagnostic.code} ${result.diagnostic.span?.start.line}:${result.diagnostic.span?.start.column} ${result.diagnostic.message}\n`,
        result,
      };
}

export const GOLDEN_SUITES: readonly GoldenSuite[] = [
  {
    name: "hns",
    folder: "golden/hns",
    what: "the structural load of every fixtures/hns package (identity, ids, diagnostics)",
    writtenBy: "node dist/scripts/update-hns-golden.js",
    records: hnsRecords,
  },
  {
    name: "yao",
    folder: "golden/yao",
    what: "the typed IR of every fixtures/yao/golden program",
    writtenBy: "UPDATE_GOLDEN=1 npx vitest run test/yao/golden.test.ts",
    records: async (root) => collect(yaoGoldenCases(root), (n) => yaoGoldenRecord(root, n)),
  },
  {
    name: "harp",
    folder: "golden/harp",
    what: "the check result of every fixtures/harp package",
    writtenBy: "UPDATE_GOLDEN=1 npx vitest run test/harp/fixtures.test.ts",
    records: async (root) => collect(goldenEntries(join(root, "fixtures/harp")), (n) => harpGoldenRecord(root, n)),
  },
  {
    name: "hcp",
    folder: "golden/hcp",
    what: "the check result of every fixtures/hcp pack",
    writtenBy: "UPDATE_GOLDEN=1 npx vitest run test/hcp/golden.test.ts",
    records: async (root) => collect(goldenEntries(join(root, "fixtures/hcp")), (n) => hcpGoldenRecord(root, n)),
  },
  {
    name: "a3s",
    folder: "golden/a3s",
    what: "A3S packages, OKF bundles, registry resolutions and lock files under fixtures/a3s",
    writtenBy: "UPDATE_GOLDEN=1 npx vitest run test/a3s/golden.test.ts",
    records: a3sRecords,
  },
  {
    name: "fmt",
    folder: "golden/fmt",
    what: "`yaoc fmt` of every .yao/.hns file under examples/ and fixtures/{hns,yao,fmt}",
    writtenBy: "UPDATE_GOLDEN=1 npx vitest run test/fmt/golden.test.ts",
    records: async (root) => collect(fmtGoldenFiles(root), (rel) => fmtGoldenRecord(root, rel)),
  },
];

/** Files directly in golden/ that are not records: this index and the [golden] rule's start commit. */
export const GOLDEN_ROOT_FILES: readonly string[] = ["README.md", "EVIDENCE_RULE_SINCE"];

/** Every file under `dir`, relative to it with `/`, sorted. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of goldenEntries(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else out.push(relative(dir, p).split("\\").join("/"));
    }
  };
  walk(dir);
  return out.sort();
}

/** The folder table of golden/README.md (a test keeps the file equal to it). */
export function renderGoldenIndex(): string {
  const rows = [
    "| folder | records | verified by | written by (after a reviewed change) |",
    "| --- | --- | --- | --- |",
    "| `golden/evidence` | receipts (ReproHash and ReproCore) of every case of docs/evidence.md | `yaoc golden verify` (≥ 2 fresh runs, sensitivity self-check) | `yaoc golden freeze` |",
    ...GOLDEN_SUITES.map(
      (s) => `| \`${s.folder}\` | ${s.what} | \`yaoc golden verify\` (one fresh process) | \`${s.writtenBy}\` |`,
    ),
  ];
  return rows.join("\n");
}
