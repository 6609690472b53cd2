/**
 * Tests that drop root to check permission handling run the CLI as uid/gid 65534 ("nobody"). That
 * user must be able to read the checkout: a clone under a 0700 temporary directory (as `mktemp -d`
 * makes) is not, and there those tests are skipped with the reason instead of failing for it.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { REPO_ROOT } from "./repo.js";

export const NOBODY = 65534;
export const AS_ROOT = process.getuid?.() === 0;

function probe(): string | null {
  if (!AS_ROOT) return null;
  const r = spawnSync(process.execPath, [join(REPO_ROOT, "bin/yaoc.js"), "--version"], {
    uid: NOBODY,
    gid: NOBODY,
    cwd: "/",
    encoding: "utf8",
    timeout: 60_000,
  });
  if (r.status === 0) return null;
  return `running as root, and uid ${NOBODY} cannot run bin/yaoc.js from ${REPO_ROOT} (a folder on the way is not readable by others, as a 0700 temporary directory is)`;
}

/** Why this root process cannot run the CLI as uid 65534, or null (also null when not root). */
export const NO_NOBODY_RUN: string | null = probe();

if (NO_NOBODY_RUN !== null)
  process.stderr.write(`tests that run the CLI as uid ${NOBODY} are skipped: ${NO_NOBODY_RUN}\n`);
