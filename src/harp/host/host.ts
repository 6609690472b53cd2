/**
 * The HARP v1 host (Node-only): install, upgrade, uninstall, start, stop, status, logs and the
 * capability set, implementing the Runtime ABI (§8) with permissions enforced by sandbox.ts.
 * Failures are `HostError`s carrying `harp.*` diagnostics, so the CLI and the conformance suite
 * report them the same way as validation errors.
 */
import { spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { get as httpGet } from "node:http";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { NodeFs } from "../../fs/node-fs.js";
import { checkHarpPackage } from "../check.js";
import { writeBundleFromSnapshot } from "./bundle-from-snapshot.js";
import { HostError } from "./host-error.js";
import { diagnostic, type HarpCode } from "../codes.js";
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
import { treeDigest } from "../tree.js";
import { stripDotSlash } from "../validate.js";
import { defaultHarpHome, Layout } from "./layout.js";
import { loadRuntimeTable } from "./runtimes.js";
import { acquireLock, LockBusyError, type HeldLock } from "./lock.js";
import { emptyDir, removeTree } from "./remove-tree.js";
import {
  appUid,
  bridgeUid,
  buildLaunch,
  createCgroups,
  DEFAULT_LIMITS,
  findNetworkHelper,
  INSTALL_HINT,
  NETWORK_HELPER_HINT,
  networkHelperArgs,
  cgroupSweepBases,
  probeSandbox,
  resolverFiles,
  SANDBOX_PID_SLOT,
  removeCgroups,
  runtimeRoots,
  type Limits,
  type SandboxCapabilities,
} from "./sandbox.js";
import { BRIDGE_IN_JS, SUPERVISOR_JS } from "./scripts.js";

export const DEFAULT_GRACE_MS = 5_000;
/** §8.4: the grace period must not exceed 30 s. */
export const MAX_GRACE_MS = 30_000;
export const LOG_TAIL_LINES = 20;
/** How long an operation waits for another one on the same app before `harp.busy`. */
export const LOCK_WAIT_MS = 60_000;
const ID_RE = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

export { HostError };

function fail(code: HarpCode, message: string, hint?: string): never {
  throw new HostError([diagnostic(code, message, { hint })]);
}

export interface HostOptions {
  /** Host root; default `YAOC_HARP_HOME` or the XDG data dir. */
  readonly home?: string;
  readonly graceMs?: number;
  /** Platform triple for `start.platforms`; default this machine's. */
  readonly platform?: Platform | null;
  /** Replace the measured sandbox capabilities (tests of the refusal path). */
  readonly sandbox?: SandboxCapabilities;
  /** Resource limits for every app this host starts (defaults: DEFAULT_LIMITS). */
  readonly limits?: Partial<Limits>;
  /** How long to wait for another operation on the same app (default LOCK_WAIT_MS). */
  readonly lockWaitMs?: number;
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
  /** Host uid the app runs as (root mode) or null (user namespace: the caller's uid). */
  readonly uid: number | null;
  readonly limits: Limits;
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
  /** Per-start resource limits (override the host's). */
  readonly limits?: Partial<Limits>;
  /** Abort the readiness wait (Ctrl-C): the app is stopped and `harp.interrupted` thrown. */
  readonly signal?: AbortSignal;
}

interface AppPids {
  readonly outerPid?: number | null;
  readonly outerStart?: string | null;
  readonly sandboxPid?: number | null;
  readonly sandboxStart?: string | null;
  /** network "allow": the slirp4netns process attached to the app's network namespace. */
  readonly helperPid?: number | null;
  readonly helperStart?: string | null;
}

export class HarpHost {
  readonly layout: Layout;
  readonly graceMs: number;
  readonly platform: Platform | null;
  readonly limits: Limits;
  private readonly sandboxOverride: SandboxCapabilities | undefined;
  private readonly lockWaitMs: number;

  constructor(opts: HostOptions = {}) {
    this.sandboxOverride = opts.sandbox;
    this.layout = new Layout(opts.home ?? defaultHarpHome());
    this.graceMs = Math.min(Math.max(opts.graceMs ?? DEFAULT_GRACE_MS, 0), MAX_GRACE_MS);
    this.platform = opts.platform !== undefined ? opts.platform : platformTriple(process.platform, process.arch);
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.lockWaitMs = opts.lockWaitMs ?? LOCK_WAIT_MS;
  }

  // ---------- one operation at a time per app ----------

  private async locked<T>(id: string, fn: () => Promise<T>): Promise<T> {
    if (!ID_RE.test(id))
      fail("harp.not_installed", `no app with id ${JSON.stringify(id)} is installed (not a valid HARP id)`);
    let lock: HeldLock;
    try {
      lock = await acquireLock(this.layout.lock(id), this.lockWaitMs);
    } catch (e) {
      if (e instanceof LockBusyError)
        fail(
          "harp.busy",
          `"${id}" is busy: ${e.message}`,
          "Wait for the other yaoc harp command on this app to finish, then retry.",
        );
      fail("harp.busy", `"${id}": ${e instanceof Error ? e.message : String(e)}`, "Install util-linux (flock).");
    }
    try {
      this.sweep(id);
      return await fn();
    } finally {
      await lock.release();
    }
  }

  /**
   * Remove what a killed operation left behind: version dirs other than the current one, pointer
   * temporaries, the app's trash, and (for an app that is not installed) its cache, tmp, run dir
   * and log. Runs under the app's lock, so nothing else is using them.
   */
  private sweep(id: string): void {
    const appDir = this.layout.appDir(id);
    let current: string | null = null;
    try {
      current = readlinkSync(this.layout.current(id));
    } catch {
      current = null;
    }
    if (current === null) {
      removeTree(appDir);
    } else {
      for (const n of listDir(appDir)) if (n.startsWith("current.new-")) removeTree(join(appDir, n));
      for (const n of listDir(this.layout.versions(id)))
        if (join("versions", n) !== current) removeTree(join(this.layout.versions(id), n));
    }
    for (const n of listDir(this.layout.trash())) if (n.startsWith(`${id}.`)) removeTree(join(this.layout.trash(), n));
    if (!this.isRunning(id)) {
      // A network helper that outlived its app (it exits with the supervisor; never trust that blindly).
      killHelperNow((readJson(join(this.layout.run(id), "app.json")) ?? {}) as AppPids);
      // Groups of a supervisor that was killed before it could remove them.
      // No probe here: the sweep runs under every locked command, and a probe launches sandboxes.
      const bases = this.sandboxOverride?.cgroupBases ?? cgroupSweepBases();
      removeCgroups(Object.values(bases).map((b) => join(b, this.cgroupName(id))));
    }
    if (current === null && !this.isRunning(id)) {
      for (const d of [this.layout.cache(id), this.layout.tmp(id), this.layout.run(id)]) removeTree(d);
      rmSync(this.layout.log(id), { force: true });
    }
  }

  private cgroupName(id: string): string {
    return `yaoc-harp-${id}-${appUid(this.layout.root, id).toString(16)}`;
  }

  // ---------- install / upgrade / uninstall ----------

  /** Install a package directory; an installed id is upgraded (§7.3: same id = upgrade). */
  async install(dir: string, opts: { expectId?: string; requireInstalled?: boolean } = {}): Promise<InstallResult> {
    const check = await checkHarpPackage(new NodeFs(), dir, { platform: this.platform });
    if (!check.result.valid || check.manifest === null || check.tree === null || check.realRoot === null) {
      throw new HostError(check.result.diagnostics.filter((d) => d.severity === "error"));
    }
    const m = check.manifest;
    const tree = check.tree;
    const source = check.realRoot;
    return this.locked(m.id, async () => {
      const expected = opts.expectId ?? this.installedIdForSource(source);
      if (expected !== undefined && expected !== m.id) {
        fail(
          "harp.id_changed",
          `the package now declares id "${m.id}" but it is installed as "${expected}"; an upgrade must keep the id`,
          `Keep "id": "${expected}" in harp.json, or install it as a new app.`,
        );
      }
      const previous = this.record(m.id);
      if (opts.requireInstalled && previous === null)
        fail("harp.not_installed", `no app with id "${m.id}" is installed; use install first`);
      const wasRunning = this.isRunning(m.id);
      if (wasRunning) await this.stopUnlocked(m.id);

      // Versioned bundle directories behind one pointer: the new version is complete (bundle and
      // record) before the pointer moves, so a SIGKILL anywhere leaves the old or the new install.
      const versions = this.layout.versions(m.id);
      mkdirSync(versions, { recursive: true });
      const stamp = `${Date.now().toString(36)}-${process.pid}`;
      const staging = join(versions, `.staging-${stamp}`);
      const digest = treeDigest(tree);
      try {
        mkdirSync(staging);
        // Written from the snapshot that was checked, then read back and hashed (issue 14).
        await writeBundleFromSnapshot(check.snapshot, tree, join(staging, "bundle"));
        const rec: InstallRecord = {
          id: m.id,
          version: m.version,
          name: m.name,
          digest,
          source,
          installedAt: new Date().toISOString(),
          manifest: m,
        };
        writeFileSync(join(staging, "record.json"), `${JSON.stringify(rec, null, 2)}\n`, { mode: 0o444 });
      } catch (e) {
        tryRemove(staging);
        if (e instanceof HostError) throw e;
        fail(
          "harp.install_failed",
          `copying ${dir} into ${staging} failed: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
      const version = `v-${stamp}`;
      renameSync(staging, join(versions, version));
      const tmpLink = join(this.layout.appDir(m.id), `current.new-${stamp}`);
      symlinkSync(join("versions", version), tmpLink);
      renameSync(tmpLink, this.layout.current(m.id));
      // The old version is garbage now; a failure here is cleaned up by the next operation.
      try {
        this.sweep(m.id);
      } catch {
        // leftovers only
      }
      for (const d of [this.layout.data(m.id), this.layout.cache(m.id), this.layout.tmp(m.id)])
        mkdirSync(d, { recursive: true, mode: 0o700 });
      if (previous !== null) {
        // §8.5: the cache may be cleared on upgrade; data is kept.
        try {
          emptyDir(this.layout.cache(m.id));
        } catch (e) {
          fail(
            "harp.io_error",
            `upgraded ${m.id}, but clearing ${this.layout.cache(m.id)} failed: ${e instanceof Error ? e.message : String(e)}`,
          );
        }
      }
      if (wasRunning) await this.startUnlocked(m.id, {});
      return {
        id: m.id,
        version: m.version,
        digest,
        upgraded: previous !== null,
        previousVersion: previous?.version ?? null,
        warnings: check.result.diagnostics.filter((d) => d.severity !== "error"),
      };
    });
  }

  /** Replace an installed app's bundle; refuses a package that changed its id. */
  async upgrade(dir: string, expectId?: string): Promise<InstallResult> {
    return this.install(dir, { requireInstalled: true, ...(expectId !== undefined ? { expectId } : {}) });
  }

  /**
   * Remove the app; APP_DATA_DIR stays unless `purge` (§17: never without the user asking). The app
   * tree is first renamed into trash/ (one atomic step: from then on it is not installed), then
   * removed; a killed uninstall is finished by the next operation on the app.
   */
  async uninstall(id: string, opts: { purge?: boolean } = {}): Promise<{ dataKept: boolean }> {
    return this.locked(id, async () => {
      if (this.record(id) === null) fail("harp.not_installed", `no app with id "${id}" is installed`);
      if (this.isRunning(id)) await this.stopUnlocked(id);
      mkdirSync(this.layout.trash(), { recursive: true });
      const trashed = join(this.layout.trash(), `${id}.${Date.now().toString(36)}-${process.pid}`);
      renameSync(this.layout.appDir(id), trashed);
      const targets = [
        trashed,
        this.layout.cache(id),
        this.layout.tmp(id),
        this.layout.run(id),
        this.layout.log(id),
        ...(opts.purge ? [this.layout.data(id)] : []),
      ];
      for (const t of targets) {
        try {
          removeTree(t);
        } catch (e) {
          fail(
            "harp.io_error",
            `"${id}" is uninstalled, but removing ${t} failed: ${e instanceof Error ? e.message : String(e)}`,
            "The next yaoc harp command on this app retries the removal.",
          );
        }
      }
      return { dataKept: !opts.purge };
    });
  }

  record(id: string): InstallRecord | null {
    if (!ID_RE.test(id)) return null;
    try {
      return JSON.parse(readFileSync(this.layout.installRecord(id), "utf8")) as InstallRecord;
    } catch {
      return null;
    }
  }

  installedIds(): string[] {
    return listDir(join(this.layout.root, "apps"))
      .filter((id) => this.record(id) !== null)
      .sort();
  }

  private installedIdForSource(source: string): string | undefined {
    for (const id of this.installedIds()) if (this.record(id)?.source === source) return id;
    return undefined;
  }

  // ---------- start / stop ----------

  async start(id: string, opts: StartOptions = {}): Promise<RunState> {
    return this.locked(id, () => this.startUnlocked(id, opts));
  }

  private async startUnlocked(id: string, opts: StartOptions): Promise<RunState> {
    const rec = this.record(id);
    if (rec === null) fail("harp.not_installed", `no app with id "${id}" is installed`);
    if (this.isRunning(id)) fail("harp.already_running", `"${id}" is already running at ${this.state(id)?.url ?? "?"}`);
    const m = rec.manifest;
    const bundle = this.layout.bundle(id);

    const sel = selectArgv(m.start, this.platform);
    if (!sel.ok)
      fail(
        "harp.platform_refused",
        `/start/platforms: ${sel.reason}`,
        "The package does not ship a build for this platform.",
      );
    const argv0 = sel.argv[0]!;
    const table = loadRuntimeTable(this.layout.runtimes());
    let program: string;
    if (isRuntimeName(argv0)) {
      const resolved = table.entries.get(argv0);
      if (resolved === undefined) {
        fail(
          "harp.runtime_unavailable",
          `${sel.pointer}/0: this host provides no runtime named "${argv0}" (it has ${[...table.entries.keys()].join(", ")})`,
          `Add "${argv0}": "/absolute/path" to ${this.layout.runtimes()}, or bundle an executable and start it as "./bin/…".`,
        );
      }
      program = resolved;
    } else {
      program = join(bundle, stripDotSlash(argv0));
      if (!existsSync(program))
        fail("harp.executable_missing", `${sel.pointer}/0: ${argv0} is not in the installed bundle`);
    }

    const perms = effectivePermissions(m);
    if (perms.network === "allow" && !opts.allowNetwork) {
      fail(
        "harp.network_consent_required",
        `/permissions/network: the app asks for unrestricted network access ("allow"); start it only with the user's consent`,
        "Pass --allow-network to consent.",
      );
    }
    // The network "allow" launch (a second sandbox plus slirp4netns) is measured only for an app that asks for it.
    const caps = this.sandboxOverride ?? probeSandbox({ networkAllow: perms.network === "allow" });
    const why = caps.notes.join("; ") || "no sandbox";
    if (caps.tools === null || caps.mode === null) {
      fail(
        "harp.permission_unenforceable",
        `/permissions: permissions cannot be enforced on this machine (no working sandbox), so "${id}" is not started (${why})`,
        INSTALL_HINT,
      );
    }
    if (!caps.network.includes(perms.network)) {
      fail(
        "harp.permission_unenforceable",
        `/permissions/network: "${perms.network}" cannot be enforced on this machine, so the app is not started (${why})`,
        perms.network === "allow" ? NETWORK_HELPER_HINT : INSTALL_HINT,
      );
    }
    if (!caps.filesystem.includes(perms.filesystem)) {
      fail(
        "harp.permission_unenforceable",
        `/permissions/filesystem: "${perms.filesystem}" cannot be enforced on this machine, so the app is not started (${why})`,
        INSTALL_HINT,
      );
    }
    const limits: Limits = { ...this.limits, ...opts.limits };

    const data = this.layout.data(id);
    const cache = this.layout.cache(id);
    const tmp = this.layout.tmp(id);
    const run = this.layout.run(id);
    const sockDir = join(run, "sock");
    for (const d of [data, cache, tmp]) mkdirSync(d, { recursive: true, mode: 0o700 });
    removeTree(run);
    mkdirSync(sockDir, { recursive: true, mode: 0o700 });
    chmodSync(run, 0o755);
    mkdirSync(dirname(this.layout.log(id)), { recursive: true });
    const lib = this.layout.lib();
    mkdirSync(lib, { recursive: true });
    writeFileSync(join(lib, "supervisor.mjs"), SUPERVISOR_JS);
    writeFileSync(join(lib, "bridge-in.mjs"), BRIDGE_IN_JS, { mode: 0o644 });
    chmodSync(join(lib, "bridge-in.mjs"), 0o644);
    const uid = caps.mode === "root" ? appUid(this.layout.root, id) : null;
    if (uid !== null) {
      for (const d of [data, cache, tmp]) chownSync(d, uid, uid);
      chownSync(sockDir, bridgeUid(uid), bridgeUid(uid));
    }

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

    const node = table.entries.get("node") ?? process.execPath;
    const socket = join(sockDir, "bridge.sock");
    let cgroupDirs: readonly string[] = [];
    let cgroupProcs: readonly string[] = [];
    if (Object.keys(caps.cgroupBases).length > 0) {
      try {
        const cg = createCgroups(caps.cgroupBases, this.cgroupName(id), limits);
        cgroupDirs = cg.dirs;
        cgroupProcs = cg.procs;
      } catch (e) {
        fail(
          "harp.permission_unenforceable",
          `the app's resource limits could not be set (${e instanceof Error ? e.message : String(e)}), so "${id}" is not started`,
        );
      }
      env["YAOC_CG"] = cgroupProcs.join("\n");
    }
    // network "allow": the app's own resolver files, and the helper the supervisor attaches.
    let resolver: { resolvConf: string; hosts: string } | undefined;
    let networkHelper: string[] | undefined;
    if (perms.network === "allow") {
      const helper = findNetworkHelper();
      if (helper === null)
        fail(
          "harp.permission_unenforceable",
          `/permissions/network: "allow" cannot be enforced on this machine (slirp4netns is gone), so "${id}" is not started`,
          NETWORK_HELPER_HINT,
        );
      const files = resolverFiles();
      resolver = { resolvConf: join(run, "resolv.conf"), hosts: join(run, "hosts") };
      writeFileSync(resolver.resolvConf, files.resolvConf, { mode: 0o644 });
      writeFileSync(resolver.hosts, files.hosts, { mode: 0o644 });
      // The sandbox pid is known only once bwrap runs; the supervisor fills it in.
      networkHelper = networkHelperArgs(helper, caps.mode, SANDBOX_PID_SLOT);
    }
    const argv = buildLaunch(caps.tools, {
      mode: caps.mode,
      network: perms.network,
      filesystem: perms.filesystem,
      uid: uid ?? 65534,
      bundle: { src: realpathSync(bundle), dest: bundle },
      dataDirs: { data, cache, tmp },
      // A bundled executable is already in the bundle mount; only host runtimes need their prefix.
      readOnly: runtimeRoots(isRuntimeName(argv0) ? [program, node] : [node]),
      appArgv: [program, ...sel.argv.slice(1)],
      bridge: { node, script: join(lib, "bridge-in.mjs"), sockDir, socket, port },
      limits,
      limitMechanisms: caps.limits,
      cgroupProcs,
      infoFd: 3,
      ...(networkHelper !== undefined ? { blockFd: 4, resolver } : {}),
    });
    const cfg = {
      argv,
      appArgv: sel.argv,
      cwd: run,
      env,
      logFile: this.layout.log(id),
      pidFile: join(run, "app.json"),
      exitFile: join(run, "exit.json"),
      graceMs: this.graceMs,
      bridge: { host, port, socket },
      cgroups: cgroupDirs,
      networkHelper: networkHelper ?? null,
      sandboxPidSlot: SANDBOX_PID_SLOT,
    };
    const cfgFile = join(run, "supervisor.json");
    writeFileSync(cfgFile, JSON.stringify(cfg), { mode: 0o600 });
    const sup = spawn(process.execPath, [join(lib, "supervisor.mjs"), cfgFile], {
      detached: true,
      stdio: "ignore",
      cwd: run,
    });
    sup.on("error", () => undefined); // a failed spawn shows up below as "not running"
    sup.unref();
    const path = m.health?.path ?? DEFAULT_HEALTH_PATH;
    // Written right after the spawn, before any await, so the supervisor is never untracked.
    const state: RunState = {
      supervisorPid: sup.pid ?? -1,
      supervisorStart: sup.pid === undefined ? null : procStartTime(sup.pid),
      port,
      url: `http://${host}:${port}`,
      uiUrl: `http://${host}:${port}${m.entrypoints?.ui?.path ?? "/"}`,
      startedAt: new Date().toISOString(),
      network: perms.network,
      filesystem: perms.filesystem,
      uid,
      limits,
    };
    writeFileSync(join(run, "state.json"), JSON.stringify(state));

    const timeoutMs = opts.timeoutMs ?? m.health?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = Date.now() + timeoutMs;
    const healthUrl = `${state.url}${path}`;
    // Keep one ref'd handle for the whole wait: Node exits with code 13 ("unsettled top-level
    // await") if a pending promise is all that is left while a health request is being set up.
    const keepAlive = setInterval(() => undefined, 60_000);
    try {
      for (;;) {
        const exit = readJson(cfg.exitFile);
        if (exit !== null || !this.isRunning(id)) {
          this.clearState(id);
          fail(
            "harp.start_failed",
            `"${id}" exited before it became ready (${exit === null ? "its supervisor is gone" : describeExit(exit)}). Last log lines:\n${this.logs(id, LOG_TAIL_LINES)}`,
            `Read the full log with: yaoc harp logs ${id}`,
          );
        }
        if (opts.signal?.aborted) {
          await this.stopUnlocked(id);
          fail("harp.interrupted", `starting "${id}" was interrupted; the host stopped it`);
        }
        if (await healthy(healthUrl)) return state;
        if (Date.now() > deadline) {
          await this.stopUnlocked(id);
          fail(
            "harp.ready_timeout",
            `"${id}" did not answer GET ${path} with 2xx within ${timeoutMs} ms; the host stopped it. Last log lines:\n${this.logs(id, LOG_TAIL_LINES)}`,
            "The app must listen on $HOST:$PORT and answer the health path without authentication.",
          );
        }
        await sleep(100);
      }
    } catch (e) {
      // Whatever went wrong, the app is not left running half-started.
      if (this.isRunning(id)) await this.stopUnlocked(id).catch(() => undefined);
      if (e instanceof HostError) throw e;
      throw new HostError([
        diagnostic("harp.start_failed", `starting "${id}" failed: ${e instanceof Error ? e.message : String(e)}`),
      ]);
    } finally {
      clearInterval(keepAlive);
      if (!this.isRunning(id)) removeCgroups(cgroupDirs);
    }
  }

  /** SIGTERM to every process of the app, grace period, SIGKILL (§8.4) — done by the supervisor. */
  async stop(id: string): Promise<{ wasRunning: boolean; forced: boolean }> {
    return this.locked(id, () => this.stopUnlocked(id));
  }

  private async stopUnlocked(id: string): Promise<{ wasRunning: boolean; forced: boolean }> {
    const st = this.state(id);
    const run = this.layout.run(id);
    const pids = (readJson(join(run, "app.json")) ?? {}) as AppPids;
    const sandboxUp = (): boolean => sandboxAlive(pids);
    if (st === null || !processAlive(st.supervisorPid, st.supervisorStart)) {
      // No supervisor (killed, crashed): its sandbox dies with it, but never trust that blindly.
      const was = sandboxUp();
      if (was) killSandbox(pids);
      await waitUntil(() => !sandboxUp(), 3_000);
      await killHelper(pids);
      this.clearState(id);
      return { wasRunning: was, forced: was };
    }
    try {
      process.kill(st.supervisorPid, "SIGTERM");
    } catch {
      // Exited meanwhile.
    }
    let forced = false;
    await waitUntil(() => !processAlive(st.supervisorPid, st.supervisorStart), this.graceMs + 3_000);
    if (processAlive(st.supervisorPid, st.supervisorStart)) {
      forced = true;
      try {
        process.kill(st.supervisorPid, "SIGKILL"); // bwrap --die-with-parent takes the sandbox along
      } catch {
        // gone
      }
    }
    if (sandboxUp()) {
      forced = true;
      killSandbox(pids);
    }
    // Return only once every app process is gone, so "stopped" means stopped.
    await waitUntil(() => !sandboxUp(), 3_000);
    await killHelper(pids);
    const exit = readJson(join(run, "exit.json")) as { forced?: boolean } | null;
    if (exit?.forced === true) forced = true;
    this.clearState(id);
    return { wasRunning: true, forced };
  }

  /** True while the supervisor or any process of the app's sandbox lives (zombies do not count). */
  isRunning(id: string): boolean {
    const st = this.state(id);
    if (st === null) return false;
    if (processAlive(st.supervisorPid, st.supervisorStart)) return true;
    return sandboxAlive((readJson(join(this.layout.run(id), "app.json")) ?? {}) as AppPids);
  }

  state(id: string): RunState | null {
    if (!ID_RE.test(id)) return null;
    return readJson(join(this.layout.run(id), "state.json")) as RunState | null;
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
      const pid = running
        ? (((readJson(join(this.layout.run(i), "app.json")) ?? {}) as AppPids).sandboxPid ?? null)
        : null;
      return {
        id: i,
        name: rec.name,
        version: rec.version,
        digest: rec.digest,
        running,
        url: st?.url ?? null,
        uiUrl: st?.uiUrl ?? null,
        pid,
      };
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
    return text
      .split("\n")
      .filter((l, i, a) => l !== "" || i < a.length - 1)
      .slice(-lines)
      .join("\n");
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
        sandbox:
          caps.mode === null
            ? null
            : caps.mode === "root"
              ? "bubblewrap (as root) + setpriv to a per-app uid"
              : "bubblewrap (user namespace)",
        isolation: caps.properties,
        limits: {
          memory:
            caps.limits.memory === null ? null : { mechanism: caps.limits.memory, defaultMiB: this.limits.memoryMiB },
          processes: caps.limits.pids === null ? null : { mechanism: caps.limits.pids, default: this.limits.pids },
          cpu: caps.limits.cpu === null ? null : { mechanism: caps.limits.cpu, defaultCores: this.limits.cpus },
        },
        networkConsent: 'network "allow" requires --allow-network',
        notes: [...caps.notes, ...table.problems],
      },
    };
  }
}

// ---------- helpers ----------

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function tryRemove(path: string): void {
  try {
    removeTree(path);
  } catch {
    // the next operation's sweep retries
  }
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

/** Whether `pid` is a live process (not a zombie) started at `start` (when known). */
export function processAlive(pid: number | null | undefined, start?: string | null): boolean {
  if (pid === null || pid === undefined || pid <= 0) return false;
  let s: string;
  try {
    s = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return false;
  }
  const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
  if (f[0] === "Z" || f[0] === "X") return false;
  return start === undefined || start === null || f[19] === start;
}

function sandboxAlive(p: AppPids): boolean {
  return processAlive(p.sandboxPid, p.sandboxStart) || processAlive(p.outerPid, p.outerStart);
}

/** SIGKILL to the app's network helper when it is still the recorded process. */
function killHelperNow(p: AppPids): void {
  if (processAlive(p.helperPid, p.helperStart)) {
    try {
      process.kill(p.helperPid!, "SIGKILL");
    } catch {
      // gone
    }
  }
}

/** The helper exits when the supervisor closes its exit pipe; give it a moment, then make sure. */
async function killHelper(p: AppPids): Promise<void> {
  await waitUntil(() => !processAlive(p.helperPid, p.helperStart), 1_000);
  killHelperNow(p);
  await waitUntil(() => !processAlive(p.helperPid, p.helperStart), 2_000);
}

/** SIGKILL to the sandbox's init ends every process in the app's PID namespace. */
function killSandbox(p: AppPids): void {
  for (const [pid, start] of [
    [p.sandboxPid, p.sandboxStart],
    [p.outerPid, p.outerStart],
  ] as const) {
    if (processAlive(pid, start)) {
      try {
        process.kill(pid!, "SIGKILL");
      } catch {
        // gone
      }
    }
  }
}

async function waitUntil(done: () => boolean, ms: number): Promise<void> {
  const by = Date.now() + ms;
  while (!done() && Date.now() < by) await sleep(25);
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

/** One GET with its own connection (no keep-alive pool); every error path resolves false. */
function healthy(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpGet(url, { agent: false, timeout: 1_000, headers: { connection: "close" } }, (res) => {
      res.on("error", () => resolve(false));
      res.resume();
      const code = res.statusCode ?? 0;
      resolve(code >= 200 && code < 300);
    });
    req.on("timeout", () => {
      req.destroy();
      resolve(false);
    });
    req.on("error", () => resolve(false));
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
