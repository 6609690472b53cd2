/**
 * The swap-loop attack (issue 14), with real processes: a child process keeps swapping a directory
 * inside a package with a symbolic link to an outside directory holding a private (0600) file
 * whose content is `OUTSIDE-PRIVATE-DESCRIPTION`, while the CLI runs `hash`, `catalog install` and
 * `harp install` in a loop. A run may succeed (with the inside content) or refuse; it must never
 * print, store or install anything built from the outside file.
 *
 * Used by test/fs/swap-loop.test.ts (a few dozen runs per command) and by `npm run stress`
 * (hundreds; `node dist/scripts/swap-loop.js RUNS`).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const OUTSIDE_TEXT = "OUTSIDE-PRIVATE-DESCRIPTION";

export type SwapCommand = "hash" | "catalog install" | "harp install";

export interface SwapLoopReport {
  readonly command: SwapCommand;
  readonly runs: number;
  /** Runs that succeeded (with the inside content, or they would be leaks). */
  readonly succeeded: number;
  /** Runs that refused (the package looked invalid or changed while being read). */
  readonly refused: number;
  /** Descriptions of runs that produced or stored outside content: must be empty. */
  readonly leaks: readonly string[];
  /** Swaps the child completed while the runs went on (so the race really ran). */
  readonly swaps: number;
}

const HERE = dirname(fileURLToPath(import.meta.url));
// scripts/ under vitest, dist/scripts/ when built.
const REPO = existsSync(join(HERE, "..", "package.json")) ? resolve(HERE, "..") : resolve(HERE, "..", "..");
const BIN = join(REPO, "bin", "yaoc.js");

/** A tight loop swapping `dir` with a link to `outside`, counting swaps in `counter` until killed. */
const SWAPPER = `
const fs = require("node:fs");
const [dir, outside, counter, real, link] = process.argv.slice(1);
try { fs.unlinkSync(link); } catch {}
fs.symlinkSync(outside, link);
const pause = new Int32Array(new SharedArrayBuffer(4));
let n = 0;
for (;;) {
  fs.renameSync(dir, real); fs.renameSync(link, dir);
  fs.renameSync(dir, link); fs.renameSync(real, dir);
  if (++n % 64 === 0) {
    // Published by rename, so a SIGKILL never leaves a torn count.
    fs.writeFileSync(counter + ".t", String(n)); fs.renameSync(counter + ".t", counter);
    // Leave the (shared, small) machine some CPU for the CLI runs being raced.
    Atomics.wait(pause, 0, 0, 1);
  }
}`;

function yaoc(args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    timeout: 60_000,
  });
  return { code: r.status ?? -1, out: r.stdout ?? "", err: r.stderr ?? "" };
}

/** Every file under `dir` (not following links) whose bytes contain the outside text. */
function filesWithOutsideText(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile() && readFileSync(p).includes(OUTSIDE_TEXT)) found.push(p);
    }
  };
  if (existsSync(dir)) walk(dir);
  return found;
}

interface Fixture {
  readonly work: string;
  readonly hnsPackage: string;
  readonly hnsSwapDir: string;
  readonly hnsOutside: string;
  readonly insideIdentity: string;
  readonly app: string;
  readonly appSwapDir: string;
  readonly appOutside: string;
  readonly insideDigest: string;
  /** The app's digest at the instant lib/ is parked away (a valid package, with no outside content). */
  readonly withoutLibDigest: string;
  /** The digest of the app with the outside file in lib/: the leak to detect. */
  readonly outsideDigest: string;
}

function makeFixture(): Fixture {
  const work = mkdtempSync(join(tmpdir(), "yaoc-swap-"));
  // HNS: the entry lives in programs/, which the attacker swaps for a link to outside/programs.
  const hnsPackage = join(work, "review.hns");
  cpSync(join(REPO, "examples", "review-dir.hns"), hnsPackage, { recursive: true });
  const hnsOutside = join(work, "outside-hns", "programs");
  mkdirSync(hnsOutside, { recursive: true });
  const main = readFileSync(join(hnsPackage, "programs", "main.yao"), "utf8").replace("CHANGELOG.md", OUTSIDE_TEXT);
  writeFileSync(join(hnsOutside, "main.yao"), main, { mode: 0o600 });
  chmodSync(join(hnsOutside, "main.yao"), 0o600);
  // HARP: the app's lib/ is swapped for a link to outside/lib.
  const app = join(work, "app");
  cpSync(join(REPO, "fixtures", "harp", "valid-full"), app, { recursive: true });
  mkdirSync(join(app, "lib"));
  writeFileSync(join(app, "lib", "data.txt"), "inside data\n");
  const appOutside = join(work, "outside-app", "lib");
  mkdirSync(appOutside, { recursive: true });
  writeFileSync(join(appOutside, "data.txt"), `${OUTSIDE_TEXT}\n`, { mode: 0o600 });

  const h = yaoc(["hash", hnsPackage]);
  const d = yaoc(["hash", app]);
  if (h.code !== 0 || d.code !== 0) throw new Error(`fixture does not hash: ${h.err}${d.err}`);
  const variant = (edit: (copy: string) => void): string => {
    const copy = join(work, "variant");
    cpSync(app, copy, { recursive: true });
    edit(copy);
    const v = yaoc(["hash", copy]).out.trim();
    rmSync(copy, { recursive: true, force: true });
    return v;
  };
  const withoutLibDigest = variant((c) => rmSync(join(c, "lib"), { recursive: true }));
  const outsideDigest = variant((c) => writeFileSync(join(c, "lib", "data.txt"), `${OUTSIDE_TEXT}\n`));
  return {
    work,
    hnsPackage,
    hnsSwapDir: join(hnsPackage, "programs"),
    hnsOutside,
    insideIdentity: h.out.trim(),
    app,
    appSwapDir: join(app, "lib"),
    appOutside,
    insideDigest: d.out.trim(),
    withoutLibDigest,
    outsideDigest,
  };
}

/** The swapper's parking names live outside the package, so the package never holds them. */
function parking(dir: string, work: string): { real: string; link: string } {
  const tag = dir.slice(work.length + 1).replace(/\W/g, "_");
  return { real: join(work, `parked-real-${tag}`), link: join(work, `parked-link-${tag}`) };
}

function startSwapper(dir: string, outside: string, counter: string, work: string): ChildProcess {
  const { real, link } = parking(dir, work);
  return spawn(process.execPath, ["-e", SWAPPER, dir, outside, counter, real, link], {
    stdio: ["ignore", "ignore", "inherit"],
  });
}

async function stopSwapper(child: ChildProcess, dir: string, work: string): Promise<void> {
  const exited = new Promise<void>((r) => (child.exitCode !== null ? r() : child.once("exit", () => r())));
  child.kill("SIGKILL");
  await exited;
  // Put the real directory back whatever state the kill left.
  const { real, link } = parking(dir, work);
  if (existsSync(real)) {
    if (lstatSync(dir, { throwIfNoEntry: false })) rmSync(dir, { force: true });
    renameSync(real, dir);
  }
  rmSync(link, { force: true });
}

function swapsDone(counter: string): number {
  try {
    return Number(readFileSync(counter, "utf8")) || 0;
  } catch {
    return 0;
  }
}

function oneRun(f: Fixture, command: SwapCommand, i: number): { ok: boolean; leak: string | null } {
  if (command === "hash") {
    const r = yaoc(["hash", f.hnsPackage]);
    if (r.code !== 0)
      return { ok: false, leak: r.out.includes("sha256:") ? `run ${i}: failed but printed ${r.out.trim()}` : null };
    const id = r.out.trim();
    return {
      ok: true,
      leak:
        id === f.insideIdentity ? null : `run ${i}: hash printed ${id}, not the inside identity ${f.insideIdentity}`,
    };
  }
  if (command === "catalog install") {
    const cat = join(f.work, `catalog-${i}`);
    const r = yaoc(["catalog", "install", "--catalog", cat, f.hnsPackage]);
    const stored = filesWithOutsideText(cat);
    if (stored.length > 0)
      return { ok: r.code === 0, leak: `run ${i}: the catalog stored outside content in ${stored.join(", ")}` };
    if (r.code !== 0) return { ok: false, leak: null };
    const bound = r.out.includes(f.insideIdentity);
    rmSync(cat, { recursive: true, force: true });
    return {
      ok: true,
      leak: bound ? null : `run ${i}: installed something other than ${f.insideIdentity}: ${r.out.trim()}`,
    };
  }
  const home = join(f.work, `harp-${i}`);
  const r = yaoc(["harp", "install", "--home", home, f.app]);
  const stored = filesWithOutsideText(home);
  let leak: string | null =
    stored.length > 0 ? `run ${i}: the installed app holds outside content in ${stored.join(", ")}` : null;
  if (leak === null && r.code === 0) {
    const records = findFiles(home, "install.json");
    for (const rec of records) {
      const digest = (JSON.parse(readFileSync(rec, "utf8")) as { digest?: string }).digest;
      // The app as it was at some instant (lib/ present, or parked away by the swapper) — never with outside content.
      if (digest !== f.insideDigest && digest !== f.withoutLibDigest)
        leak = `run ${i}: recorded digest ${digest}${digest === f.outsideDigest ? " (the outside variant)" : ""}, not a digest of the app's own content`;
    }
  }
  chmodTree(home);
  rmSync(home, { recursive: true, force: true });
  return { ok: r.code === 0, leak };
}

function findFiles(dir: string, name: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p);
      else if (n === name) out.push(p);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** Installed bundles are read-only; make them removable. */
function chmodTree(dir: string): void {
  if (!existsSync(dir)) return;
  const st = lstatSync(dir);
  if (!st.isDirectory()) return;
  chmodSync(dir, 0o755);
  for (const n of readdirSync(dir)) chmodTree(join(dir, n));
}

/** Run `runs` attempts of each command while the swapper races them. */
export async function swapLoop(
  runs: number,
  commands: readonly SwapCommand[] = ["hash", "catalog install", "harp install"],
): Promise<SwapLoopReport[]> {
  const f = makeFixture();
  const reports: SwapLoopReport[] = [];
  try {
    for (const command of commands) {
      const harp = command === "harp install";
      const dir = harp ? f.appSwapDir : f.hnsSwapDir;
      const counter = join(f.work, `swaps-${reports.length}`);
      const child = startSwapper(dir, harp ? f.appOutside : f.hnsOutside, counter, f.work);
      let succeeded = 0;
      const leaks: string[] = [];
      try {
        for (let i = 0; i < runs; i++) {
          const r = oneRun(f, command, i);
          if (r.ok) succeeded++;
          if (r.leak !== null) leaks.push(r.leak);
        }
      } finally {
        await stopSwapper(child, dir, f.work);
      }
      reports.push({ command, runs, succeeded, refused: runs - succeeded, leaks, swaps: swapsDone(counter) });
    }
  } finally {
    chmodTree(f.work);
    rmSync(f.work, { recursive: true, force: true });
  }
  return reports;
}

// `node dist/scripts/swap-loop.js [RUNS]`: the long version (npm run stress).
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv[2] ?? "300");
  const t0 = Date.now();
  const reports = await swapLoop(runs);
  for (const r of reports) {
    process.stdout.write(
      `${r.command}: ${r.runs} runs, ${r.succeeded} succeeded, ${r.refused} refused, ${r.leaks.length} leaks, ${r.swaps}+ swaps\n`,
    );
    for (const l of r.leaks) process.stdout.write(`  LEAK ${l}\n`);
  }
  process.stdout.write(`${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  process.exitCode = reports.some((r) => r.leaks.length > 0) ? 1 : 0;
}
