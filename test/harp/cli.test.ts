import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { afterAll, describe, expect, it, vi } from "vitest";
import { registerHarpCommands } from "../../src/cli/harp.js";
import { FIXTURE_APP, FIXTURES } from "./helpers.js";
import { announceSandboxSkip, NO_SANDBOX, SKIP_WITHOUT_SANDBOX } from "../support/system-tools.js";

announceSandboxSkip("test/harp/cli.test.ts");

async function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const program = new Command("yaoc").exitOverride();
  registerHarpCommands(program);
  let stdout = "";
  let stderr = "";
  const o = vi.spyOn(process.stdout, "write").mockImplementation((s) => ((stdout += String(s)), true));
  const e = vi.spyOn(process.stderr, "write").mockImplementation((s) => ((stderr += String(s)), true));
  process.exitCode = 0;
  try {
    await program.parseAsync(["node", "yaoc", "harp", ...args]);
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = 0;
  return { code, stdout, stderr };
}

const home = mkdtempSync(join(tmpdir(), "yaoc-harp-cli-"));
afterAll(async () => {
  await run("--home", home, "stop", "harp-fixture").catch(() => undefined);
  rmSync(home, { recursive: true, force: true });
});

describe("yaoc harp CLI", () => {
  it("validate: exit 0 for a valid package, 1 with positioned diagnostics otherwise", async () => {
    const ok = await run("validate", join(FIXTURES, "valid-full"));
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/valid-full: ok \(harp\) sha256:[0-9a-f]{64}\n/);
    const bad = await run("validate", join(FIXTURES, "invalid-reserved-kind"));
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("harp.json:8:5: error[harp.unsupported_kind]: /runtime/kind");
    const json = JSON.parse((await run("validate", "--format", "json", join(FIXTURES, "invalid-unknown-kind"))).stdout)
      .results[0];
    expect(json.kind).toBe("harp");
    expect(json.diagnostics[0].pointer).toBe("/runtime/kind");
  });

  it("hash prints the digest", async () => {
    const r = await run("hash", join(FIXTURES, "valid-minimal"));
    expect(r.stdout.trim()).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("capabilities prints the §12 capability set", async () => {
    const caps = JSON.parse((await run("--home", home, "capabilities")).stdout);
    expect(caps.protocol).toBe("harp");
    expect(caps.runtimeKinds).toEqual(["http"]);
    expect(caps.executables).toContain("node");
  });

  it.skipIf(SKIP_WITHOUT_SANDBOX)("install, start, status, logs, stop, uninstall (skipped without bwrap)", async () => {
    expect((await run("--home", home, "status")).stdout).toContain("no apps installed");
    expect((await run("--home", home, "install", FIXTURE_APP)).stdout).toMatch(/^installed harp-fixture 1\.0\.0/);
    const started = await run("--home", home, "start", "harp-fixture");
    expect(started.code).toBe(0);
    const url = /ready at (\S+)/.exec(started.stdout)![1]!;
    expect((await fetch(`${url}health`)).status).toBe(200);
    expect((await run("--home", home, "start", "harp-fixture")).stderr).toContain("harp.already_running");
    const status = JSON.parse((await run("--home", home, "status", "--format", "json")).stdout);
    expect(status[0]).toMatchObject({ id: "harp-fixture", running: true });
    expect((await run("--home", home, "logs", "harp-fixture")).stdout).toContain("fixture listening");
    expect((await run("--home", home, "stop", "harp-fixture")).stdout).toContain("harp-fixture stopped");
    expect((await run("--home", home, "uninstall", "harp-fixture")).stdout).toContain("data kept");
    const missing = await run("--home", home, "start", "harp-fixture");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("harp.not_installed");
  });

  // README: "Without it the host refuses to start any app and says why". Runs where the sandbox is
  // missing (a fresh machine without bubblewrap); where it is present the test above runs instead.
  it.runIf(NO_SANDBOX !== null)(
    "without a sandbox: install works, start refuses with exit 1 and says how to install bubblewrap (skipped with one)",
    async () => {
      const refusing = mkdtempSync(join(tmpdir(), "yaoc-harp-nosandbox-"));
      try {
        expect((await run("--home", refusing, "install", FIXTURE_APP)).code).toBe(0);
        const started = await run("--home", refusing, "start", "harp-fixture");
        expect(started.code).toBe(1);
        expect(started.stderr).toContain("harp.permission_unenforceable");
        expect(started.stderr).toMatch(/apt-get install bubblewrap/);
        expect(JSON.parse((await run("--home", refusing, "status", "--format", "json")).stdout)[0]).toMatchObject({
          id: "harp-fixture",
          running: false,
        });
      } finally {
        rmSync(refusing, { recursive: true, force: true });
      }
    },
  );
});
