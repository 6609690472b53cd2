/**
 * One operation at a time per app (Node-only, Linux): an exclusive `flock(2)` on
 * `<home>/locks/<id>.lock`, held by a small `flock(1)` child for as long as the operation runs.
 *
 * Node has no flock binding; util-linux's `flock` takes the lock and then runs `cat`, which holds it
 * until its stdin (a pipe from this process) closes. The kernel drops the lock when the holder dies,
 * and the pipe closes when this process dies for any reason (SIGKILL included), so a killed
 * operation can never leave the lock held. Waiting callers block up to `waitMs`, then fail with
 * `harp.busy`.
 */
import { spawn } from "node:child_process";
import { accessSync, constants, mkdirSync } from "node:fs";
import { dirname } from "node:path";

function flockBinary(): string | null {
  for (const p of ["/usr/bin/flock", "/bin/flock"]) {
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // next
    }
  }
  return null;
}

export class LockBusyError extends Error {}
export class LockUnavailableError extends Error {}

export interface HeldLock {
  release(): Promise<void>;
}

export async function acquireLock(file: string, waitMs: number): Promise<HeldLock> {
  const bin = flockBinary();
  if (bin === null) throw new LockUnavailableError("util-linux flock(1) is not installed (looked in /usr/bin, /bin)");
  mkdirSync(dirname(file), { recursive: true });
  const secs = Math.max(1, Math.ceil(waitMs / 1000));
  const child = spawn(
    bin,
    [
      "--exclusive",
      "--conflict-exit-code",
      "75",
      "--wait",
      String(secs),
      file,
      "/bin/sh",
      "-c",
      "echo locked; exec cat >/dev/null",
    ],
    {
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => {
    child.on("error", (e) => {
      stderr += e.message;
      resolve(null);
    });
    child.on("close", (code) => resolve(code));
  });
  child.stdin.on("error", () => undefined);
  child.stdout.on("error", () => undefined);
  child.stderr.on("error", () => undefined);
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  const locked = new Promise<boolean>((resolve) => {
    let out = "";
    child.stdout.on("data", (b: Buffer) => {
      out += b.toString();
      if (out.includes("locked")) resolve(true);
    });
    void exited.then(() => resolve(false));
  });
  if (!(await locked)) {
    const code = await exited;
    if (code === 75) throw new LockBusyError(`another yaoc operation held ${file} for more than ${secs} s`);
    throw new LockUnavailableError(`could not lock ${file}: ${stderr.trim() || `flock exited ${code}`}`);
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      child.stdin.end();
      await exited;
    },
  };
}
