import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";
import { FIXTURE_MANIFEST_JSON, FIXTURE_SERVER_MJS } from "../../src/harp/host/fixture-app.js";
import { HarpHost } from "../../src/harp/host/host.js";
import { removeTree } from "../../src/harp/host/remove-tree.js";
import { hostPidsWith, writeApp } from "../../src/harp/host/sandbox-cases.js";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const YAOC = join(REPO, "bin/yaoc.js");

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Run the real CLI (optionally wrapped, e.g. in setpriv) and collect its output. */
export function yaoc(
  args: readonly string[],
  opts: { wrap?: readonly string[]; env?: NodeJS.ProcessEnv; killAfterMs?: number; timeoutMs?: number } = {},
): Promise<Run> {
  const argv = [...(opts.wrap ?? []), process.execPath, YAOC, ...args];
  return new Promise((done) => {
    const c = spawn(argv[0]!, argv.slice(1), {
      env: { ...process.env, ...opts.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    c.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
    c.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    c.on("error", (e) => (stderr += e.message));
    const hang = setTimeout(() => c.kill("SIGKILL"), opts.timeoutMs ?? 60_000);
    if (opts.killAfterMs !== undefined) setTimeout(() => c.kill("SIGKILL"), opts.killAfterMs);
    c.on("close", (code, signal) => {
      clearTimeout(hang);
      done({ code, signal, stdout, stderr });
    });
  });
}

/** No stack frame and no internal error in a CLI's stderr. */
export function clean(stderr: string): boolean {
  return !/\n\s+at /.test(stderr) && !/internal error/i.test(stderr);
}

/**
 * A temporary folder for one test file's HARP homes and packages (0755, so an app's uid can reach
 * its bundle). After the file, every app of every home handed out is uninstalled with its data and
 * the folder removed (removeTree: never follows the links an app may have made).
 */
export function appWorkspace(prefix: string): {
  root: string;
  newHome(name: string): string;
  track(home: string): void;
} {
  const root = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(root, 0o755);
  const homes: string[] = [];
  afterAll(async () => {
    for (const home of homes) {
      const h = new HarpHost({ home });
      for (const id of h.installedIds()) await h.uninstall(id, { purge: true }).catch(() => undefined);
    }
    removeTree(root);
  }, 60_000);
  return {
    root,
    newHome: (name) => {
      const h = join(root, name);
      homes.push(h);
      return h;
    },
    track: (home) => void homes.push(home),
  };
}

/** The conformance fixture app written to `dir`, at `version`. */
export function fixtureApp(dir: string, version = "1.0.0"): string {
  return writeApp(dir, FIXTURE_MANIFEST_JSON.replace('"1.0.0"', `"${version}"`), FIXTURE_SERVER_MJS);
}

/** Pids of the supervisors of `home` still running on the host. */
export function supervisors(home: string): number[] {
  return hostPidsWith(join(home, "lib", "supervisor.mjs"));
}
