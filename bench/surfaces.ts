/**
 * Issue 35's figures for the surfaces other than `yaoc check` (`npm run bench -- --surfaces` prints
 * them without writing results.json; the full run includes them). Each is a growth exponent per
 * doubling — log(time at the larger size / time at the smaller) / log(size ratio), per alternating
 * round — with the target ≤ 1.15 (linear, with room for noise), and the absolute times in the
 * detail. Figures come from here, never from timed unit tests.
 *
 * - s-refs, s-rename: `textDocument/references` and `textDocument/rename` of a function through the
 *   real `yaoc lsp` process, at 4,000 and 64,000 uses (servers for both sizes alive, rounds
 *   alternating between them). After the warm-up the server answers references from the locations
 *   it keeps for the symbol, so s-refs is what a repeated request costs: the filter, the answer's
 *   JSON, the pipe and this client's parse of it;
 * - s-depth, s-width: the browser core's MemoryFs read-once snapshot of 8 chains of folders 16
 *   and 128 deep (the Node snapshot's depth limit is 128), and of a folder of 2,500 and 20,000
 *   sibling folders;
 * - s-entries: the Node snapshot reader refusing a tree at its entry limit, at limits of 12,500 and
 *   50,000 (the tree holds 50,001 entries), and the wall time of `yaoc check` refusing it;
 * - s-params: `checkSource` (what the language server runs on every keystroke) of a package whose
 *   function has 2,500 and 20,000 parameters and then repeats one (bench/params.ts, the generator
 *   of test/hostile/surfaces/linear.test.ts), so the duplicate-parameter check goes over them all;
 * - s-rss: the language server's resident set after hovers over 1,000 and 5,000 distinct
 *   packages (its per-package state is bounded): a ratio of memory, not time, target ≤ 1.15.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { MemoryFs } from "../src/fs/memory-fs.js";
import { readPackageSnapshot } from "../src/fs/node-snapshot.js";
import { checkSource } from "../src/check/check.js";
import { LspConnection } from "./lsp-connection.js";
import { G_SOURCE, usesPackage } from "./lsp-uses.js";
import { alternateRounds, median, type Row, spreadOf, timeRound } from "./measure.js";
import { manyParamsPackage } from "./params.js";

const TARGET = 1.15;
/** s-depth's chains of folders, side by side (see memoryFsFigures). */
const CHAINS = 8;

const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

/** Per-round growth exponents of `large` over `small` for a size ratio `by`, as a row. */
function growthRow(
  figure: string,
  subject: string,
  small: readonly number[],
  large: readonly number[],
  by: number,
  sizes: string,
): Row {
  const exps = large.map((t, r) => Math.log(t / small[r]!) / Math.log(by));
  const spread = spreadOf(exps);
  return {
    figure,
    subject: `${subject}, as a growth exponent per doubling`,
    yardstick: `the same at ${by}× less (${sizes})`,
    ratio: spread.median,
    spread,
    target: `≤ ${TARGET}`,
    met: spread.median <= TARGET,
    straddles: spread.min <= TARGET !== spread.max <= TARGET,
    detail: `${median(small).toFixed(2)} ms vs ${median(large).toFixed(2)} ms over ${small.length} alternating rounds; load average ${load()}`,
  };
}

interface Server {
  readonly c: LspConnection;
  readonly kill: () => void;
  readonly pid: number;
}

async function server(bin: string, workspace: string, nodeFlags: readonly string[] = []): Promise<Server> {
  const child = spawn(process.execPath, [...nodeFlags, bin, "lsp", "--stdio"]);
  const c = new LspConnection(child, () => {});
  await c.initialize(workspace, {});
  return { c, kill: () => child.kill(), pid: child.pid! };
}

async function referenceFigures(bin: string, tmp: string, rounds: number): Promise<Row[]> {
  const sizes = [4000, 64_000] as const;
  const sides = await Promise.all(
    sizes.map(async (uses) => {
      const { root, declaring } = usesPackage(join(tmp, `uses-${uses}.hns`), uses);
      const s = await server(bin, root);
      const at = { textDocument: { uri: pathToFileURL(declaring).href }, position: { line: 0, character: 4 } };
      s.c.notify("textDocument/didOpen", {
        textDocument: { uri: at.textDocument.uri, languageId: "yao", version: 1, text: G_SOURCE },
      });
      const refs = async (): Promise<number> => {
        const t = performance.now();
        const r = (await s.c.request("textDocument/references", {
          ...at,
          context: { includeDeclaration: true },
        })) as unknown[];
        if (r.length !== uses + 2) throw new Error(`references found ${r.length} of ${uses + 2}`);
        return performance.now() - t;
      };
      let name = 0;
      const rename = async (): Promise<number> => {
        const t = performance.now();
        const r = (await s.c.request("textDocument/rename", { ...at, newName: `h${name++}` })) as {
          changes?: Record<string, unknown[]>;
          documentChanges?: unknown[];
        } | null;
        if (r === null) throw new Error("rename gave no edit");
        return performance.now() - t;
      };
      // Warm-up: the first request builds the symbol index of the package.
      for (let i = 0; i < 2; i++) {
        await refs();
        await rename();
      }
      return { s, refs, rename };
    }),
  );
  try {
    const [r4, r64, n4, n64] = await alternateRounds(
      [sides[0]!.refs, sides[1]!.refs, sides[0]!.rename, sides[1]!.rename],
      rounds,
    );
    return [
      growthRow("s-refs", "LSP references of a function, real server", r4!, r64!, 16, "4,000 vs 64,000 uses"),
      growthRow("s-rename", "LSP rename of a function, real server", n4!, n64!, 16, "4,000 vs 64,000 uses"),
    ];
  } finally {
    for (const side of sides) side.s.kill();
  }
}

export async function memoryFsFigures(rounds: number): Promise<Row[]> {
  // 8 chains side by side, depth within the Node snapshot's limit (128). With 64 the 128-deep tree
  // (8,192 folders, a Map each) outgrew the CPU caches that the 16-deep one fits in, and the figure
  // measured the memory hierarchy: per entry, 64 chains 128 deep cost 277 ns and 512 chains 16 deep
  // 243 ns, while 8 chains 128 deep cost 136 ns and 64 chains 16 deep 193 ns (same tree sizes, the
  // cost follows the size, not the depth). A walk quadratic in depth still shows at 8 chains.
  const chain = (depth: number): MemoryFs => {
    const fs = new MemoryFs();
    for (let c = 0; c < CHAINS; c++) fs.writeFile(`/p/c${c}${"/d".repeat(depth - 1)}/x.yao`, "(eval 1)");
    return fs;
  };
  const wide = (n: number): MemoryFs => {
    const fs = new MemoryFs();
    for (let i = 0; i < n; i++) fs.mkdir(`/p/d${i}`);
    return fs;
  };
  const [shallow, deep] = [chain(16), chain(128)];
  // Both sizes as issue 35 measured them. The walk once looked each name up in the folder's map, in
  // sorted order, and past about 10,000 names those lookups missed the cache (docs/performance.md).
  const [narrow, broad] = [wide(2500), wide(20_000)];
  const snap = (fs: MemoryFs, maxDepth: number) => async () => {
    const s = await fs.snapshotPackage("/p", { maxDepth });
    if (s.failure !== null) throw new Error(s.failure.message);
  };
  // Each sample is 300 ms of calls after 60 ms of warm-up: a snapshot of the larger trees takes a
  // few ms, so a 30 ms sample held two or three calls, the first after the full collection each
  // round starts with, and its spread was the collector's (2 to 18 ms for the same 128-deep walk).
  const sample = (f: () => Promise<void>) => () => timeRound(f, 300, 60);
  const [d1, d8, w1, w8] = await alternateRounds(
    [sample(snap(shallow, 130)), sample(snap(deep, 130)), sample(snap(narrow, 128)), sample(snap(broad, 128))],
    rounds,
  );
  return [
    growthRow("s-depth", "MemoryFs snapshot of a chain of folders", d1!, d8!, 8, `${CHAINS} chains 16 vs 128 deep`),
    growthRow("s-width", "MemoryFs snapshot of sibling folders", w1!, w8!, 8, "2,500 vs 20,000 folders"),
  ];
}

/** s-params: the duplicate-parameter check over 2,500 vs 20,000 parameters, through checkSource. */
export async function paramsFigure(rounds: number): Promise<Row> {
  const analyse = (count: number) => {
    const { source } = manyParamsPackage(count);
    return async () => {
      const r = await checkSource("d.hns", source);
      // The repeat is found, so the check did go over every parameter.
      if (r.diagnostics.filter((d) => d.code === "yao.duplicate_name").length !== 1)
        throw new Error(`${count} parameters with a repeat did not give one yao.duplicate_name`);
    };
  };
  const [few, many] = [analyse(2500), analyse(20_000)];
  // Untimed warm-up, so neither side pays the compilation of the analyzer.
  await few();
  await many();
  const [small, large] = await alternateRounds([() => timeRound(few), () => timeRound(many)], rounds);
  return growthRow(
    "s-params",
    "checkSource of a function with a repeated parameter (the duplicate-parameter check)",
    small!,
    large!,
    8,
    "2,500 vs 20,000 parameters",
  );
}

async function entryFigures(bin: string, tmp: string, rounds: number): Promise<Row[]> {
  const dir = join(tmp, "entries.hns");
  mkdirSync(dir);
  for (let i = 0; i <= 50_000; i++) writeFileSync(join(dir, `f${i}`), "");
  const refuse = (maxEntries: number) => async () => {
    const s = await readPackageSnapshot(dir, { maxEntries });
    if (s.failure === null) throw new Error(`a tree of 50,001 entries was not refused at ${maxEntries}`);
  };
  const wall = (): number => {
    const t = performance.now();
    const r = spawnSync(process.execPath, [bin, "check", dir], { encoding: "utf8" });
    if (r.status !== 1 && r.status !== 2) throw new Error(`yaoc check of 50,001 entries exited ${r.status}`);
    return performance.now() - t;
  };
  const [small, large, cli] = await alternateRounds(
    [() => timeRound(refuse(12_500), 1), () => timeRound(refuse(50_000), 1), wall],
    rounds,
  );
  const row = growthRow(
    "s-entries",
    "the Node snapshot reader refusing a 50,001-entry tree at its entry limit",
    small!,
    large!,
    4,
    "limit 12,500 vs 50,000",
  );
  return [
    {
      ...row,
      detail: `${row.detail}; \`yaoc check\` refuses it in ${median(cli!).toFixed(0)} ms (wall, fresh process)`,
    },
  ];
}

function rssKiB(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m === null ? Number.NaN : Number(m[1]);
}

async function rssFigure(bin: string, tmp: string): Promise<Row> {
  const ws = join(tmp, "many");
  mkdirSync(ws);
  const count = 5000;
  for (let i = 0; i < count; i++)
    writeFileSync(
      join(ws, `p${i}.hns`),
      `(manifest (id acme.p${i}) (version "1.0.0") (title "P") (capabilities))\n(contract (purpose "p"))\n(eval ${i})\n`,
    );
  // A 100 MiB heap, which unbounded per-package state ran out of after 1,587 packages: finishing
  // the run shows the state is bounded, and the collector works near the cap instead of lazily.
  const s = await server(bin, ws, ["--max-old-space-size=100"]);
  try {
    const samples = new Map<number, number>();
    for (let i = 0; i < count; i++) {
      const uri = pathToFileURL(join(ws, `p${i}.hns`)).href;
      await s.c.request("textDocument/hover", { textDocument: { uri }, position: { line: 2, character: 7 } });
      if (i + 1 === 1000 || i + 1 === count) samples.set(i + 1, rssKiB(s.pid));
    }
    const at1k = samples.get(1000)!;
    const at5k = samples.get(count)!;
    const ratio = at5k / at1k;
    return {
      figure: "s-rss",
      subject: `LSP resident set after hovers over ${count} distinct packages`,
      yardstick: "the same after 1,000",
      ratio,
      target: `≤ ${TARGET}`,
      met: ratio <= TARGET,
      detail: `${(at1k / 1024).toFixed(0)} MiB after 1,000, ${(at5k / 1024).toFixed(0)} MiB after ${count}, with a 100 MiB heap limit; load average ${load()}`,
    };
  } finally {
    s.kill();
  }
}

/** Every surface figure's name, in the order of the rows. */
export const SURFACE_FIGURES = ["s-params", "s-refs", "s-rename", "s-depth", "s-width", "s-entries", "s-rss"] as const;

/**
 * The s-* rows; `only` (figure names, e.g. ["s-params"]) measures just those, so one row can be
 * re-measured without the minutes the LSP, entry and RSS figures take on a shared machine.
 */
export async function surfaceFigures(
  repo: string,
  tmp: string,
  rounds: number,
  only: readonly string[] = SURFACE_FIGURES,
): Promise<Row[]> {
  const bin = join(repo, "bin", "yaoc.js");
  const wants = (...figures: string[]): boolean => figures.some((f) => only.includes(f));
  const rows: Row[] = [];
  // The in-process figures first: measured after the reference figures, whose 6 MB answers and
  // servers' connections the process still held, the same snapshots took about five times as long.
  const params = wants("s-params") ? [await paramsFigure(rounds)] : [];
  const fs = wants("s-depth", "s-width") ? await memoryFsFigures(rounds) : [];
  for (const r of params) rows.push(r);
  if (wants("s-refs", "s-rename")) for (const r of await referenceFigures(bin, tmp, rounds)) rows.push(r);
  for (const r of fs) rows.push(r);
  if (wants("s-entries")) for (const r of await entryFigures(bin, tmp, Math.min(rounds, 5))) rows.push(r);
  if (wants("s-rss")) rows.push(await rssFigure(bin, tmp));
  return rows.filter((r) => only.includes(r.figure));
}
