import { spawn } from "node:child_process";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const YAOC = join(REPO, "bin/yaoc.js");

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Run the real CLI (optionally wrapped, e.g. in setpriv) and collect its output. */
export function yaoc(args: readonly string[], opts: { wrap?: readonly string[]; env?: NodeJS.ProcessEnv; killAfterMs?: number; timeoutMs?: number } = {}): Promise<Run> {
  const argv = [...(opts.wrap ?? []), process.execPath, YAOC, ...args];
  return new Promise((done) => {
    const c = spawn(argv[0]!, argv.slice(1), { env: { ...process.env, ...opts.env }, stdio: ["ignore", "pipe", "pipe"] });
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
