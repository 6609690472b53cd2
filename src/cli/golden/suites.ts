/**
 * Every folder of golden/ other than golden/evidence, as a suite that recomputes its records: for
 * each file the folder should hold, the exact text it should hold. `yaoc golden verify` runs each
 * suite in a fresh process (`--golden-suite NAME`) and compares the texts with the files (issue 20:
 * one verifier for every golden value). The views are the ones the vitest suites that write these
 * files with UPDATE_GOLDEN=1 use (named in `writtenBy`); a drift between the two shows up here as a
 * mismatch on the committed files.
 *
 * Frontends are imported inside `records`, so the process that only compares never loads them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { CheckResult } from "../../diagnostics/result.js";
import { NodeFs } from "../../fs/node-fs.js";

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

const pretty = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;
const entries = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).sort() : []);

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

async function yaoRecords(root: string): Promise<Map<string, string>> {
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
  const out = new Map<string, string>();
  for (const name of entries(dir)
    .filter((f) => f.endsWith(".yao"))
    .map((f) => f.slice(0, -4))) {
    const fnDir = join(dir, `${name}.functions`);
    const functions = entries(fnDir).map((f) => parse(join(fnDir, f)));
    const r = analyzeProgram(parse(join(dir, `${name}.yao`)), { profile, functions, allowInternal: true });
    out.set(
      `${name}.program.json`,
      r.program ? `${programJson(r.program)}\n` : pretty({ diagnostics: r.diagnostics.map((d) => d.code) }),
    );
  }
  return out;
}

async function harpRecords(root: string): Promise<Map<string, string>> {
  const { checkHarp } = await import("../../harp/index.js");
  const fs = new NodeFs();
  const out = new Map<string, string>();
  for (const name of entries(join(root, "fixtures/harp"))) {
    const r = await checkHarp(fs, join(root, "fixtures/harp", name), { platform: "linux-x64" });
    out.set(
      `${name}.json`,
      pretty({
        valid: r.valid,
        identity: r.identity,
        extra: r.extra ?? {},
        diagnostics: r.diagnostics.map((d) => ({
          code: d.code,
          severity: d.severity,
          pointer: d.pointer ?? null,
          at: d.span ? `${d.span.start.line}:${d.span.start.column}` : null,
          message: d.message,
          hint: d.hint ?? null,
        })),
      }),
    );
  }
  return out;
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

async function hcpRecords(root: string): Promise<Map<string, string>> {
  const { checkHcp } = await import("../../hcp/index.js");
  const out = new Map<string, string>();
  for (const name of entries(join(root, "fixtures/hcp"))) {
    const abs = join(root, "fixtures/hcp", name);
    out.set(`${name}.json`, pretty(hcpGoldenView(await checkHcp(new NodeFs(), abs), abs, `fixtures/hcp/${name}`)));
  }
  return out;
}

async function a3sRecords(root: string): Promise<Map<string, string>> {
  const { checkA3s } = await import("../../a3s/index.js");
  const { checkOkfBundle, parseOkfContractJson } = await import("../../a3s/okf/bundle.js");
  const { DEFAULT_OKF_LIMITS } = await import("../../a3s/okf/contract.js");
  const { resolveFromRegistry, verifyLockFile } = await import("../../a3s/resolve/registry.js");
  const fs = new NodeFs();
  const fix = join(root, "fixtures/a3s");
  const out = new Map<string, string>();
  for (const n of entries(join(fix, "packages"))) {
    // Relative, as `yaoc check` is given it: the worker runs in the repository root.
    const { sources: _sources, ...r } = await checkA3s(fs, `fixtures/a3s/packages/${n}`);
    out.set(`packages/${n}.json`, pretty(r));
  }
  for (const n of entries(join(fix, "okf")).filter((f) => !f.endsWith(".json"))) {
    const contractFile = join(fix, "okf", `${n}.contract.json`);
    const c = existsSync(contractFile) ? parseOkfContractJson(readFileSync(contractFile)) : null;
    if (c !== null && !c.ok) throw new Error(`${relative(root, contractFile)}: ${c.error.message}`);
    const contract = c?.ok ? c.contract : null;
    out.set(
      `okf/${n}.json`,
      pretty(await checkOkfBundle(fs, join(fix, "okf", n), contract?.limits ?? DEFAULT_OKF_LIMITS, contract)),
    );
  }
  for (const n of entries(join(fix, "registry"))) {
    const args = JSON.parse(readFileSync(join(fix, "registry", n, "resolve.json"), "utf8")) as {
      root: string;
      target: string;
      useVersion: string;
    };
    const r = await resolveFromRegistry(fs, join(fix, "registry", n, "records"), args.root, {
      target: args.target,
      useVersion: args.useVersion,
    });
    const selected =
      r.lock?.packages.map(
        (p) =>
          `${(p.catalog.record as Record<string, string>)["packageId"]}@${(p.catalog.record as Record<string, string>)["version"]}`,
      ) ?? null;
    out.set(
      `registry/${n}.json`,
      pretty({
        diagnostics: r.diagnostics,
        selected,
        digest: r.digest,
        installOrder: r.verification?.installOrder ?? null,
        removalOrder: r.verification?.removalOrder ?? null,
      }),
    );
  }
  for (const n of entries(join(fix, "locks"))) {
    const r = await verifyLockFile(fs, `fixtures/a3s/locks/${n}`);
    out.set(
      `locks/${n.replace(/\.json$/, "")}.json`,
      pretty({
        diagnostics: r.diagnostics,
        digest: r.verification?.digest ?? null,
        installOrder: r.verification?.installOrder ?? null,
        removalOrder: r.verification?.removalOrder ?? null,
      }),
    );
  }
  return out;
}

async function fmtRecords(root: string): Promise<Map<string, string>> {
  const { formatSource } = await import("../../fmt/format.js");
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of entries(dir)) {
      const p = join(dir, name);
      const st = statSync(p, { throwIfNoEntry: false });
      if (st?.isDirectory()) walk(p);
      else if (st?.isFile() && /\.(yao|hns)$/.test(name)) files.push(p);
    }
  };
  for (const t of ["examples", "fixtures/hns", "fixtures/yao", "fixtures/fmt"]) walk(join(root, t));
  const out = new Map<string, string>();
  for (const file of files) {
    const rel = relative(root, file).split("\\").join("/");
    const r = formatSource(readFileSync(file), { file: rel });
    if (r.ok) out.set(`${rel}.formatted`, r.text);
    else
      out.set(
        `${rel}.refused`,
        `${r.diagnostic.code} ${r.diagnostic.span?.start.line}:${r.diagnostic.span?.start.column} ${r.diagnostic.message}\n`,
      );
  }
  return out;
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
    records: yaoRecords,
  },
  {
    name: "harp",
    folder: "golden/harp",
    what: "the check result of every fixtures/harp package",
    writtenBy: "UPDATE_GOLDEN=1 npx vitest run test/harp/fixtures.test.ts",
    records: harpRecords,
  },
  {
    name: "hcp",
    folder: "golden/hcp",
    what: "the check result of every fixtures/hcp pack",
    writtenBy: "YAOC_UPDATE_GOLDEN=1 npx vitest run test/hcp/golden.test.ts",
    records: hcpRecords,
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
    records: fmtRecords,
  },
];

/** Files directly in golden/ that are not records: this index and the [golden] rule's start commit. */
export const GOLDEN_ROOT_FILES: readonly string[] = ["README.md", "EVIDENCE_RULE_SINCE"];

/** Every file under `dir`, relative to it with `/`, sorted. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of entries(d)) {
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
