/** Run the built `yaoc` executable (tests need `npm run build` first, as `npm test` does). */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { REPO_ROOT } from "./shared.js";

export const BIN = join(REPO_ROOT, "bin/yaoc.js");

export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** Colour off unless `env` asks otherwise; FORCE_COLOR from the runner never leaks in. */
export function yaoc(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; input?: string } = {},
): CliRun {
  const env: Record<string, string | undefined> = {
    ...process.env,
    NO_COLOR: "1",
    FORCE_COLOR: undefined,
    ...options.env,
  };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    encoding: "utf8",
    env: env as NodeJS.ProcessEnv,
    input: options.input ?? "",
    timeout: 120_000,
  });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}
