/** Shared helpers: a bundled CLI worker for real processes, temp directories and package variants. */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll } from "vitest";

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const examples = join(repo, "examples");

let worker: Promise<string> | undefined;

/** Bundle cli-worker.ts (and the sources it imports) into one plain .mjs file, once per test file. */
export function workerScript(): Promise<string> {
  worker ??= (async () => {
    const outDir = tempDir("yaoc-catalog-worker-");
    // esbuild, the one bundler (scripts/esbuild-options.mjs has the options the Node bundles share).
    await build({
      absWorkingDir: repo,
      entryPoints: [join(repo, "test/catalog/cli-worker.ts")],
      outfile: join(outDir, "cli-worker.mjs"),
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      logLevel: "silent",
      // commander is CommonJS and require()s Node built-ins; an ES module gets require from createRequire.
      banner: { js: 'import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);' },
    });
    return join(outDir, "cli-worker.mjs");
  })();
  return worker;
}

export interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly env?: Record<string, string>;
  /** Send SIGKILL after this many milliseconds. */
  readonly killAfterMs?: number;
}

/** Run `yaoc catalog ARGS…` in a new Node process. */
export async function runCatalog(args: readonly string[], options: RunOptions = {}): Promise<Run> {
  const script = await workerScript();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [script, "catalog", ...args], {
      env: { ...process.env, NO_COLOR: "1", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const timer =
      options.killAfterMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), options.killAfterMs);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (timer !== undefined) clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
  });
}

const created: string[] = [];
// Registered while the importing test file is collected, so it runs after that file's tests.
afterAll(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A temporary directory removed after the test file has run. */
export function tempDir(prefix = "yaoc-catalog-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

export const reviewSource = readFileSync(join(examples, "review.hns"), "utf8");

/** A small valid single-file package; `body` changes its content (and identity) but not (id, version). */
export function smallPackage(id: string, version: string, body = "42"): string {
  return [
    `(manifest (id ${JSON.stringify(id)}) (version ${JSON.stringify(version)}) (title "Test package"))`,
    `(contract (purpose "catalog tests"))`,
    `(eval ${body})`,
  ].join("\n");
}

export function writePackage(dir: string, name: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
