/**
 * The HARP v1 host (Node-only): install, upgrade, uninstall, start, stop, status, logs and the
 * capability set, implementing the Runtime ABI (§8) with permissions enforced by sandbox.ts.
 * Failures are `HostError`s carrying `harp.*` diagnostics, so the CLI and the conformance suite
 * report them the same way as validation errors.
 */
import { spawn } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, relative } from "node:path";
import { diagnostic, type Diagnostic } from "../../diagnostics/diagnostic.js";
import { NodeFs } from "../../fs/node-fs.js";
import { checkHarpPackage } from "../check.js";
import { writeBundleFromSnapshot } from "./bundle-from-snapshot.js";
import { harpSeverity, type HarpCode } from "../codes.js";
import {
  DEFAULT_HEALTH_PATH,
  DEFAULT_TIMEOUT_MS,
  effectivePermissions,
  isRuntimeName,
  platformTriple,
  selectArgv,
  type HarpManifest,
  type Platform,
} from "../manifest.js";
import { MAX_FILE_BYTES, treeDigest } from "../tree.js";
import { stripDotSlash } from "../validate.js";
import { defaultHarpHome, Layout } from "./layout.js";
import { loadRuntimeTable } from "./runtimes.js";
import { buildLaunch, probeSandbox, type SandboxCapabilities } from "./sandbox.js";
import { BRIDGE_IN_JS, SUPERVISOR_JS } from "./scripts.js";

export const DEFAULT_GRACE_MS = 5_000;
/** §8.4: the grace period must not exceed 30 s. */
export const MAX_GRACE_MS = 30_000;
export const LOG_TAIL_LINES = 20;

export class HostError extends Error {
  constructor(readonly diagnostics: readonly Diagnostic[]) {
    super(diagnostics.map((d) => d.message).join("; "));
    this.name = "HostError";
  }
}

function fail(code: HarpCode, message: string, hint?: string): never {
  throw new HostError([diagnostic(code, message, { severity: harpSeverity(code), hint })]);
}

export interface HostOptions {
  /** Host root; default `YAOC_HARP_HOME` or the XDG data dir. */
  readonly home?: string;
  readonly graceMs?: number;
  /** Platform triple for `start.platforms`; default this machine's. */
  readonly platform?: Platform | null;
  /** Replace the measured sandbox capabilities (tests of the refusal path). */
  readonly sandbox?: SandboxCapabilities;
}

export interface InstallRecord {
  readonly id: string;
  readonly version: string;
  readonly name: string;
  readonly digest: string;
  readonly source: string;
  readonly installedAt: string;
  readonly manifest: HarpManifest;
}

export interface InstallResult {
  readonly id: string;
  readonly version: string;
  readonly digest: string;
  readonly upgraded: boolean;
  readonly previousVersion: string | null;
  readonly warnings: readonly Diagnostic[];
}

export interface RunState {
  readonly supervisorPid: number;
  readonly supervisorStart: string | null;
  readonly port: number;
  readonly url: string;
  readonly uiUrl: string;
  readonly startedAt: string;
  readonly network: string;
  readonly filesystem: string;
}

export interface AppStatus {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly digest: string;
  readonly running: boolean;
  readonly url: string | null;
  readonly uiUrl: string | null;
  readonly pid: number | null;
}

export interface StartOptions {
  /** Consent for `network: "allow"` (§9.1, §13). */
  readonly allowNetwork?: boolean;
  /** Override of the manifest's health.timeoutMs. */
  readonly timeoutMs?: number;
}

export class HarpHost {
  readonly layout: Layout;
  readonly graceMs: number;
  readonly platform: Platform | null;
  private readonly sandboxOverride: SandboxCapabilities | undefined;

  constructor(opts: HostOptions = {}) {
    this.sandboxOverride = opts.sandbox;
    this.layout = new Layout(opts.home ?? defaultHarpHome());
    this.graceMs = Math.min(Math.max(opts.graceMs ?? DEFAULT_GRACE_MS, 0), MAX_GRACE_MS);
    this.platform = opts.platform !== undefined ? opts.platform : platformTriple(process.platform, process.arch);
  }

  // ---------- install / upgrade / uninstall ----------

  /** Install a package directory; an installed id is upgraded (§7.3: same id = upgrade). */
  async install(dir: string, opts: { expectId?: string; requireInstalled?: boolean } = {}): Promise<InstallResult> {
    const check = await checkHarpPackage(new NodeFs(), dir, { platform: this.platform });
    if (!check.result.valid || check.manifest === null || check.tree === null || check.realRoot === null) {
      throw new HostError(check.result.diagnostics.filter((d) => d.severity === "error"));
    }
    const m = check.manifest;
    const source = check.realRoot;
    const expected = opts.expectId ?? this.installedIdForSource(source);
    if (expected !== undefined && expected !== m.id) {
      fail("harp.id_changed", `the package now declares id "${m.id}" but it is installed as "${expected}"; an upgrade must keep the id`, `Keep "id": "${expected}" in harp.json, or install it as a new app.`);
    }
    const previous = this.record(m.id);
    if (opts.requireInstalled && previous === null) fail("harp.not_installed", `no app with id "${m.id}" is installed; use install first`);
    const wasRunning = this.isRunning(m.id);
    if (wasRunning) await this.stop(m.id);

    const appDir = this.layout.appDir(m.id);
    mkdirSync(appDir, { recursive: true });
    const staging = join(appDir, `bundle.new-${process.pid}-${Date.now()}`);
    try {
      await writeBundleFromSnapshot(check.snapshot, check.tree, staging);
    } catch (e) {
      makeWritable(staging);
      rmSync(staging, { recursive: true, force: true });
      if (e instanceof HostError) throw e;
      fail("harp.install_failed", `copying ${dir} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    const bundle = this.layout.bundle(m.id);
    if (existsSync(bundle)) {
      const old = `${bundle}.old-${Date.now()}`;
      renameSync(bundle, old);
      renameSync(staging, bundle);
      makeWritable(old);
      rmSync(old, { recursive: true, force: true });
    } else {
      renameSync(staging, bundle);
    }
    const digest = treeDigest(check.tree);
    const rec: InstallRecord = { id: m.id, version: m.version, name: m.name, digest, source, installedAt: new Date().toISOString(), manifest: m };
    writeFileSync(this.layout.installRecord(m.id), `${JSON.stringify(rec, null, 2)}\n`);
    for (const d of [this.layout.data(m.id), this.layout.cache(m.id), this.layout.tmp(m.id)]) mkdirSync(d, { recursive: true, mode: 0o700 });
    if (previous !== null) {
      // §8.5: the cache may be cleared on upgrade; data is kept.
      clearDir(this.layout.cache(m.id));
    }
    if (wasRunning) await this.start(m.id);
    return {
      id: m.id,
      version: m.version,
      digest,
      upgraded: previous !== null,
      previousVersion: previous?.version ?? null,
      warnings: check.result.diagnostics.filter((d) => d.severity !== "error"),
    };
  }

  /** Replace an installed app's bundle; refuses a package that changed its id. */
  async upgrade(dir: string, expectId?: string): Promise<InstallResult> {
    return this.install(dir, { requireInstalled: true, ...(expectId !== undefined ? { expectId } : {}) });
  }

  /** Remove the app; APP_DATA_DIR stays unless `purge` (§17: never without the user asking). */
  async uninstall(id: string, opts: { purge?: boolean } = {}): Promise<{ dataKept: boolean }> {
    if (this.record(id) === null) fail("harp.not_installed", `no app with id "${id}" is installed`);
    if (this.isRunning(id)) await this.stop(id);
    for (const d of [this.layout.appDir(id), this.layout.cache(id), this.layout.tmp(id), this.layout.run(id)]) {
      makeWritable(d);
      rmSync(d, { recursive: true, force: true });
    }
    rmSync(this.layout.log(id), { force: true });
    if (opts.purge) rmSync(this.layout.data(id), { recursive: true, force: true });
    return { dataKept: !opts.purge };
  }

  record(id: string): InstallRecord | null {
    if (!/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/.test(id)) return null;
    try {
      return JSON.parse(readFileSync(this.layout.installRecord(id), "utf8")) as InstallRecord;
    } catch {
      return null;
    }
  }

  installedIds(): string[] {
    try {
      return readdirSync(join(this.layout.root, "apps")).filter((id) => this.record(id) !== null).sort();
    } catch {
      return [];
    }
  }

  private installedIdForSource(source: string): string | undefined {
    for (const id of this.installedIds()) if (this.record(id)?.source === source) return id;
    return undefined;
  }

  // ---------- start / stop ----------

  async start(id: string, opts: StartOptions = {}): Promise<RunState> {
    const rec = this.record(id);
    if (rec === null) fail("harp.not_installed", `no app with id "${id}" is installed`);
    if (this.isRunning(id)) fail("harp.already_running", `"${id}" is already running at ${this.state(id)?.url ?? "?"}`);
    const m = rec.manifest;
    const bundle = this.layout.bundle(id);

    const sel = selectArgv(m.start, this.platform);
    if (!sel.ok) fail("harp.platform_refused", `/start/platforms: ${sel.reason}`, "The package does not ship a build for this platform.");
    const argv0 = sel.argv[0]!;
    let program: string;
    if (isRuntimeName(argv0)) {
      const table = loadRuntimeTable(this.layout.runtimes());
      const resolved = table.entries.get(argv0);
      if (resolved === undefined) {
        fail("harp.runtime_unavailable", `${sel.pointer}/0: this host provides no runtime named "${argv0}" (it has ${[...table.entries.keys()].join(", ")})`, `Add "${argv0}": "/absolute/path" to ${this.layout.runtimes()}, or bundle an executable and start it as "./bin/…".`);
      }
      program = resolved;
    } else {
      program = join(bundle, stripDotSlash(argv0));
      if (!existsSync(program)) fail("harp.executable_missing", `${sel.pointer}/0: ${argv0} is not in the installed bundle`);
    }

    const perms = effectivePermissions(m);
    const caps = this.sandboxOverride ?? probeSandbox();
    if (!caps.network.includes(perms.network)) {
      fail("harp.permission_unenforceable", `/permissions/network: "${perms.network}" cannot be enforced on this machine, so the app is not started (${caps.notes.join("; ") || "no sandbox"})`, "Run on Linux with util-linux (unshare, mount, setpriv) and iproute2, as root or with unprivileged user namespaces.");
    }
    if (!caps.filesystem.includes(perms.filesystem)) {
      fail("harp.permission_unenforceable", `/permissions/filesystem: "${perms.filesystem}" cannot be enforced on this machine, so the app is not started (${caps.notes.join("; ") || "no sandbox"})`, "Run on Linux with util-linux (unshare, mount, setpriv), as root or with unprivileged user namespaces.");
    }
    if (perms.network === "allow" && !opts.allowNetwork) {
      fail("harp.network_consent_required", `/permissions/network: the app asks for unrestricted network access ("allow"); start it only with the user's consent`, "Pass --allow-network to consent.");
    }

    const data = this.layout.data(id);
    const cache = this.layout.cache(id);
    const tmp = this.layout.tmp(id);
    const run = this.layout.run(id);
    for (const d of [data, cache, tmp]) mkdirSync(d, { recursive: true, mode: 0o700 });
    rmSync(run, { recursive: true, force: true });
    mkdirSync(run, { recursive: true, mode: 0o700 });
    mkdirSync(dirname(this.layout.log(id)), { recursive: true });
    const lib = this.layout.lib();
    mkdirSync(lib, { recursive: true });
    writeFileSync(join(lib, "supervisor.mjs"), SUPERVISOR_JS);
    writeFileSync(join(lib, "bridge-in.mjs"), BRIDGE_IN_JS);

    const port = await freePort();
    const host = "127.0.0.1";
    const env: Record<string, string> = {
      HOST: host,
      PORT: String(port),
      APP_DATA_DIR: data,
      APP_CACHE_DIR: cache,
      TMPDIR: tmp,
      APP_ID: m.id,
      APP_VERSION: m.version,
      // HOME points at the data dir so "~/.something" writes land in the app's own state (§13).
      HOME: data,
      PATH: "/usr/local/bin:/usr/bin:/bin",
      LANG: "C.UTF-8",
    };
    if (this.platform !== null) env["APP_PLATFORM"] = this.platform;

    const node = loadRuntimeTable(this.layout.runtimes()).entries.get("node")!;
    const socket = join(run, "bridge.sock");
    const plan = buildLaunch(caps.tools!, caps.userNamespace, {
      network: perms.network,
      filesystem: perms.filesystem,
      writable: [data, cache, tmp],
      appArgv: [program, ...sel.argv.slice(1)],
      scriptPath: join(run, "launch.sh"),
      bridge: { node, script: join(lib, "bridge-in.mjs"), socket, port },
    });
    const cfg = {
      argv: plan.argv,
      cwd: bundle,
      env,
      logFile: this.layout.log(id),
      pidFile: join(run, "app.json"),
      exitFile: join(run, "exit.json"),
      graceMs: this.graceMs,
      bridge: plan.bridged ? { host, port, socket } : null,
    };
    const cfgFile = join(run, "supervisor.json");
    writeFileSync(cfgFile, JSON.stringify(cfg));
    const sup = spawn(node, [join(lib, "supervisor.mjs"), cfgFile], { detached: true, stdio: "ignore", cwd: run });
    sup.unref();
    const path = m.health?.path ?? DEFAULT_HEALTH_PATH;
    const state: RunState = {
      supervisorPid: sup.pid!,
      supervisorStart: procStartTime(sup.pid!),
      port,
      url: `http://${host}:${port}`,
      uiUrl: `http://${host}:${port}${m.entrypoints?.ui?.path ?? "/"}`,
      startedAt: new Date().toISOString(),
      network: perms.network,
      filesystem: perms.filesystem,
    };
    writeFileSync(join(run, "state.json"), JSON.stringify(state));

    const timeoutMs = opts.timeoutMs ?? m.health?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = Date.now() + timeoutMs;
    const healthUrl = `${state.url}${path}`;
    for (;;) {
      const exit = readJson(cfg.exitFile);
      if (exit !== null) {
        this.clearState(id);
        fail("harp.start_failed", `"${id}" exited before it became ready (${describeExit(exit)}). Last log lines:\n${this.logs(id, LOG_TAIL_LINES)}`, `Read the full log with: yaoc harp logs ${id}`);
      }
      if (await healthy(healthUrl)) return state;
      if (Date.now() > deadline) {
        await this.stop(id);
        fail("harp.ready_timeout", `"${id}" did not answer GET ${path} with 2xx within ${timeoutMs} ms; the host stopped it. Last log lines:\n${this.logs(id, LOG_TAIL_LINES)}`, "The app must listen on $HOST:$PORT and answer the health path without authentication.");
      }
      await sleep(100);
    }
  }

  /** SIGTERM to the process group, grace period, SIGKILL (§8.4) — done by the supervisor. */
  async stop(id: string): Promise<{ wasRunning: boolean; forced: boolean }> {
    const st = this.state(id);
    const run = this.layout.run(id);
    const appPid = (readJson(join(run, "app.json")) as { appPid?: number } | null)?.appPid;
    if (st === null || !this.supervisorAlive(st)) {
      if (appPid !== undefined) killGroup(appPid, "SIGKILL");
      this.clearState(id);
      return { wasRunning: false, forced: false };
    }
    try {
      process.kill(st.supervisorPid, "SIGTERM");
    } catch {
      // Exited meanwhile.
    }
    const deadline = Date.now() + this.graceMs + 3_000;
    while (this.supervisorAlive(st) && Date.now() < deadline) await sleep(50);
    let forced = false;
    if (this.supervisorAlive(st)) {
      forced = true;
      try {
        process.kill(st.supervisorPid, "SIGKILL");
      } catch {
        // gone
      }
    }
    // Leftovers (exited-but-unreaped members) may linger briefly; kill whatever remains.
    if (appPid !== undefined && groupAlive(appPid)) killGroup(appPid, "SIGKILL");
    // Return only once the group is gone, so "stopped" means stopped (zombies take a moment to reap).
    const reapBy = Date.now() + 2_000;
    while (appPid !== undefined && groupAlive(appPid) && Date.now() < reapBy) await sleep(20);
    const exit = readJson(join(run, "exit.json")) as { signal?: string | null } | null;
    if (exit?.signal === "SIGKILL") forced = true;
    this.clearState(id);
    return { wasRunning: true, forced };
  }

  isRunning(id: string): boolean {
    const st = this.state(id);
    return st !== null && this.supervisorAlive(st);
  }

  state(id: string): RunState | null {
    return readJson(join(this.layout.run(id), "state.json")) as RunState | null;
  }

  private supervisorAlive(st: RunState): boolean {
    try {
      process.kill(st.supervisorPid, 0);
    } catch {
      return false;
    }
    // A recycled pid belongs to someone else: compare the start time recorded at spawn.
    const now = procStartTime(st.supervisorPid);
    return st.supervisorStart === null || now === st.supervisorStart;
  }

  private clearState(id: string): void {
    rmSync(join(this.layout.run(id), "state.json"), { force: true });
  }

  // ---------- status / logs / capabilities ----------

  status(id?: string): AppStatus[] {
    const ids = id === undefined ? this.installedIds() : [id];
    return ids.map((i) => {
      const rec = this.record(i);
      if (rec === null) fail("harp.not_installed", `no app with id "${i}" is installed`);
      const running = this.isRunning(i);
      const st = running ? this.state(i) : null;
      const appPid = running ? ((readJson(join(this.layout.run(i), "app.json")) as { appPid?: number } | null)?.appPid ?? null) : null;
      return { id: i, name: rec.name, version: rec.version, digest: rec.digest, running, url: st?.url ?? null, uiUrl: st?.uiUrl ?? null, pid: appPid };
    });
  }

  logs(id: string, lines?: number): string {
    let text = "";
    try {
      text = readFileSync(this.layout.log(id), "utf8");
    } catch {
      return "";
    }
    if (lines === undefined) return text;
    return text.split("\n").filter((l, i, a) => l !== "" || i < a.length - 1).slice(-lines).join("\n");
  }

  /** §12 capability set, measured on this machine. */
  capabilities(): Record<string, unknown> {
    const caps = this.sandboxOverride ?? probeSandbox();
    const table = loadRuntimeTable(this.layout.runtimes());
    return {
      protocol: "harp",
      schemaVersions: [1],
      runtimeKinds: ["http"],
      readyKinds: ["http"],
      uiKinds: ["http"],
      executables: [...table.entries.keys()].sort(),
      bundledExecutable: true,
      startPlatforms: true,
      permissions: { network: caps.network, filesystem: caps.filesystem },
      "x-yaoc": {
        platform: this.platform,
        runtimes: Object.fromEntries(table.entries),
        sandbox: caps.tools === null ? null : caps.userNamespace ? "unshare (user namespace) + mount + setpriv" : "unshare (root) + mount + setpriv",
        networkConsent: "network \"allow\" requires --allow-network",
        notes: [...caps.notes, ...table.problems],
      },
    };
  }
}

// ---------- helpers ----------

async function copyTree(srcRoot: string, dst: string, entries: readonly import("../tree.js").TreeEntry[]): Promise<void> {
  const fs = new NodeFs();
  mkdirSync(dst, { recursive: true });
  const dirs: string[] = [dst];
  for (const e of entries) {
    const to = join(dst, e.path);
    if (e.kind === "dir") {
      mkdirSync(to);
      dirs.push(to);
    } else if (e.kind === "file") {
      // NodeFs refuses anything that is not a regular file at read time (no FIFO can block us).
      const bytes = await fs.readFile(join(srcRoot, e.path), MAX_FILE_BYTES);
      const exec = (statSync(join(srcRoot, e.path)).mode & 0o111) !== 0;
      writeFileSync(to, bytes, { mode: exec ? 0o555 : 0o444 });
      chmodSync(to, exec ? 0o555 : 0o444);
    } else {
      // Internal links are recreated relative, so the bundle stays self-contained.
      symlinkSync(relative(dirname(to), join(dst, e.target)) || ".", to);
    }
  }
  // §8.2: the bundle is read-only to the app, also where no sandbox is active.
  for (const d of dirs.reverse()) chmodSync(d, 0o555);
}

function makeWritable(path: string): void {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return;
  }
  if (!st.isDirectory()) return;
  chmodSync(path, 0o755);
  for (const n of readdirSync(path)) makeWritable(join(path, n));
}

function clearDir(dir: string): void {
  for (const n of readdirSync(dir)) rmSync(join(dir, n), { recursive: true, force: true });
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
}

function describeExit(exit: unknown): string {
  const e = exit as { code?: number | null; signal?: string | null; error?: string };
  if (e.error) return e.error;
  return e.signal ? `killed by ${e.signal}` : `exit code ${e.code}`;
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks); null where /proc is unavailable. */
function procStartTime(pid: number): string | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, "utf8");
    return s.slice(s.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

/**
 * Whether any live (non-zombie) process remains in the group. Zombies count as gone: they run no
 * code, and the reaper on some systems takes a second or more to collect them.
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  let names: string[];
  try {
    names = readdirSync("/proc").filter((n) => /^[0-9]+$/.test(n));
  } catch {
    return true; // no /proc: trust kill(0)
  }
  for (const n of names) {
    try {
      const s = readFileSync(`/proc/${n}/stat`, "utf8");
      const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
      if (Number(f[2]) === pgid && f[0] !== "Z") return true;
    } catch {
      // exited while scanning
    }
  }
  return false;
}

function killGroup(pgid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pgid, sig);
  } catch {
    // already gone
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address();
      const port = typeof addr === "object" && addr !== null ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1_000), redirect: "manual" });
    await res.body?.cancel();
    return res.status >= 200 && res.status < 300;
  } catch {
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
