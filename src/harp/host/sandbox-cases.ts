/**
 * Sandbox attack cases (C31…C42): a hostile app (hostile-app.ts) run through the real host with
 * real processes tries each escape from issue 13; every case asserts the attempt is blocked and
 * pairs it with a positive control that must succeed, so a broken probe cannot pass. The cases
 * share one installed home (`SandboxWorld`): an attacker, a victim app and host-side bait (a host
 * process with a secret in argv, a host Unix socket, a 0600 secret file).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync, chmodSync, existsSync } from "node:fs";
import { connect as netConnect, createServer, type Server } from "node:net";
import { homedir, networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { FIXTURE_MANIFEST_JSON, FIXTURE_SERVER_MJS } from "./fixture-app.js";
import { HarpHost, HostError, processAlive, type RunState } from "./host.js";
import { HOSTILE_MANIFEST, HOSTILE_SERVER_MJS } from "./hostile-app.js";
import { removeTree } from "./remove-tree.js";
import { probeSandbox, SANDBOX_DEVICES, SLIRP_GATEWAY } from "./sandbox.js";

export const ATTACKER = "hostile-app";
export const VICTIM = "victim-app";
export const LIFECYCLE = "hostile-lifecycle";
/** Lower than the defaults so the exhaustion cases are quick. */
export const WORLD_LIMITS = { memoryMiB: 256, pids: 96, cpus: 1 };

type Json = Record<string, unknown>;

function check(cond: unknown, msg: string): asserts cond {
  if (!cond) throw new Error(msg);
}

/** GET with a bounded wait; any failure becomes an Error with the URL in it. */
export async function call(
  base: string,
  path: string,
  params: Record<string, string | number> = {},
  timeoutMs = 20_000,
): Promise<Json> {
  const q = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
  const url = `${base}${path}${q.size > 0 ? `?${q}` : ""}`;
  const r = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  return (await r.json()) as Json;
}

/** Every host pid whose command line contains `needle` (the host sees all processes). */
export function hostPidsWith(needle: string): number[] {
  const out: number[] = [];
  for (const n of readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(n)) continue;
    try {
      if (readFileSync(`/proc/${n}/cmdline`, "utf8").includes(needle) && processAlive(Number(n))) out.push(Number(n));
    } catch {
      // exited
    }
  }
  return out;
}

function externalAddress(): string | null {
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  return null;
}

/** Poll `cond` every 50 ms for up to `ms`: for effects another process makes visible a moment later. */
export async function waitFor(cond: () => boolean, ms: number): Promise<boolean> {
  const by = Date.now() + ms;
  while (Date.now() < by) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return cond();
}

export function writeApp(dir: string, manifest: string, server: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "harp.json"), manifest);
  writeFileSync(join(dir, "server.mjs"), server);
  return dir;
}

export class SandboxWorld {
  readonly host: HarpHost;
  attacker!: RunState;
  victim!: RunState;
  /** A host process with a secret on its command line. */
  hostProc!: ChildProcess;
  readonly secretArg = `yaoc-secret-${process.pid}-${Math.random().toString(36).slice(2)}`;
  readonly secretFile: string;
  readonly hostSocket: string;
  private unixServer: Server | null = null;

  private constructor(readonly root: string) {
    this.host = new HarpHost({ home: join(root, "home"), graceMs: 1_000, limits: WORLD_LIMITS });
    this.secretFile = join(root, "secret.txt");
    this.hostSocket = join(root, "host-service.sock");
  }

  static async create(): Promise<SandboxWorld> {
    const w = new SandboxWorld(mkdtempSync(join(tmpdir(), "yaoc-harp-sandbox-")));
    try {
      await w.setUp();
    } catch (e) {
      await w.close();
      throw e;
    }
    return w;
  }

  private async setUp(): Promise<void> {
    writeFileSync(this.secretFile, "host secret\n", { mode: 0o600 });
    chmodSync(this.secretFile, 0o600);
    this.hostProc = spawn(process.execPath, ["-e", "setInterval(() => {}, 1e6)", this.secretArg], { stdio: "ignore" });
    this.hostProc.on("error", () => undefined);
    const srv = createServer((c) => {
      c.on("error", () => undefined);
      c.end("host service");
    });
    srv.on("error", () => undefined);
    this.unixServer = srv;
    await new Promise<void>((resolve, reject) => {
      srv.once("error", reject);
      srv.listen(this.hostSocket, () => resolve());
    });
    const h = this.host;
    await h.install(
      writeApp(
        join(this.root, "attacker"),
        HOSTILE_MANIFEST(ATTACKER, { network: "none", filesystem: "data-only" }),
        HOSTILE_SERVER_MJS,
      ),
    );
    await h.install(
      writeApp(
        join(this.root, "victim"),
        FIXTURE_MANIFEST_JSON.replace('"harp-fixture"', `"${VICTIM}"`),
        FIXTURE_SERVER_MJS,
      ),
    );
    await h.install(
      writeApp(
        join(this.root, "lifecycle"),
        HOSTILE_MANIFEST(LIFECYCLE, { network: "none", filesystem: "data-only" }),
        HOSTILE_SERVER_MJS,
      ),
    );
    this.attacker = await h.start(ATTACKER);
    this.victim = await h.start(VICTIM);
    await fetch(`${this.victim.url}/counter`, { method: "POST" });
    await fetch(`${this.victim.url}/counter`, { method: "POST" });
  }

  victimSandboxPid(): number {
    const pid = this.host.status(VICTIM)[0]?.pid;
    check(typeof pid === "number", "victim has no pid");
    return pid;
  }

  async close(): Promise<void> {
    for (const id of this.host.installedIds()) await this.host.uninstall(id, { purge: true }).catch(() => undefined);
    this.hostProc?.kill("SIGKILL");
    this.unixServer?.close();
    try {
      removeTree(this.root);
    } catch {
      // temp leftovers
    }
  }
}

const blocked = (r: Json, what: string): void =>
  check(r["ok"] === false, `${what}: the attack worked (${JSON.stringify(r)})`);
const works = (r: Json, what: string): void =>
  check(r["ok"] === true, `positive control failed, so the probe proves nothing: ${what} (${JSON.stringify(r)})`);

/**
 * What a sandbox case needs of the conformance context (conformance.ts's `Ctx`): the shared world.
 * Declared here so this file does not import conformance.ts, which imports it.
 */
export interface SandboxCaseContext {
  readonly shared: { world(): Promise<SandboxWorld> };
}

/** A conformance case (conformance.ts's `Case`) that needs only the shared world. */
export interface SandboxCase {
  readonly id: string;
  readonly title: string;
  readonly clause: string;
  readonly run: (ctx: SandboxCaseContext) => Promise<void>;
}

export const SANDBOX_CASES: readonly SandboxCase[] = [
  {
    id: "C31",
    title: "sandbox: the app runs unprivileged (uid ≠ 0, no capabilities, no_new_privs) in its own PID namespace",
    clause: "§5, §13",
    run: async (ctx) => {
      const w = await ctx.shared.world();
      const me = await call(w.attacker.url, "/whoami");
      works(me, "the app answers /whoami");
      check(me["uid"] !== 0 && me["gid"] !== 0, `runs as uid ${String(me["uid"])} gid ${String(me["gid"])}`);
      check(me["capEff"] === "0000000000000000", `capabilities: ${String(me["capEff"])}`);
      check(me["noNewPrivs"] === "1", "no_new_privs not set");
      check(
        typeof me["pidsVisible"] === "number" && me["pidsVisible"] < 20,
        `sees ${String(me["pidsVisible"])} processes`,
      );
    },
  },
  {
    id: "C32",
    title: "sandbox: cannot signal a host process or another app",
    clause: "§13",
    run: async (ctx) => {
      const w = await ctx.shared.world();
      works(await call(w.attacker.url, "/signal-own-child"), "signal its own child");
      blocked(await call(w.attacker.url, "/signal", { pid: w.hostProc.pid! }), "SIGKILL a host process");
      blocked(await call(w.attacker.url, "/signal", { pid: w.victimSandboxPid() }), "SIGKILL another app");
      check(processAlive(w.hostProc.pid), "the host process died");
      check((await fetch(`${w.victim.url}/health`)).status === 200, "the other app died");
    },
  },
  {
    id: "C33",
    title: "sandbox: cannot read another process's command line",
    clause: "§13",
    run: async (ctx) => {
      const w = await ctx.shared.world();
      works(await call(w.attacker.url, "/read", { path: "/proc/self/cmdline" }), "read its own /proc/self/cmdline");
      const r = await call(w.attacker.url, "/read", { path: `/proc/${w.hostProc.pid}/cmdline` });
      check(!String(r["value"] ?? "").includes(w.secretArg), "read the host process's secret argv");
      blocked(r, "read /proc/<host pid>/cmdline");
    },
  },
  {
    id: "C34",
    title: "sandbox: /dev is minimal and read-only",
    clause: "§13",
    run: async (ctx) => {
      const w = await ctx.shared.world();
      works(await call(w.attacker.url, "/write", { path: "/dev/null" }), "write /dev/null");
      blocked(await call(w.attacker.url, "/write", { path: "/dev/yaoc-rt-escape" }), "create a file in /dev");
      const dev = await call(w.attacker.url, "/list", { path: "/dev" });
      works(dev, "list /dev");
      const allowed = new Set<string>(SANDBOX_DEVICES);
      const extra = (dev["value"] as string[]).filter((d) => !allowed.has(d));
      check(extra.length === 0, `/dev has ${extra.join(", ")}`);
      for (const d of readdirSync("/dev")
        .filter((n) => /^(sd|vd|nvme|xvd|loop|mem|kmem|port)/.test(n))
        .slice(0, 4)) {
        blocked(await call(w.attacker.url, "/open-write", { path: `/dev/${d}` }), `open /dev/${d} for writing`);
      }
    },
  },
  {
    id: "C35",
    title: "sandbox: kernel settings, sysfs and cgroup files cannot be opened for writing",
    clause: "§13",
    run: async (ctx) => {
      const w = await ctx.shared.world();
      const own = join(w.host.layout.data(ATTACKER), "own.txt");
      works(await call(w.attacker.url, "/write", { path: own }), "create a file in its data dir");
      works(await call(w.attacker.url, "/open-write", { path: own }), "open its own file for writing");
      for (const p of [
        "/proc/sys/kernel/core_pattern",
        "/proc/sys/kernel/domainname",
        "/proc/sys/kernel/hostname",
        "/proc/sysrq-trigger",
        "/sys/kernel/uevent_helper",
        "/sys/fs/cgroup/memory/memory.limit_in_bytes",
        "/sys/fs/cgroup/pids/pids.max",
      ]) {
        blocked(await call(w.attacker.url, "/open-write", { path: p }), `open ${p} for writing`);
      }
    },
  },
  {
    id: "C36",
    title: "sandbox: cannot write another app's data, directly or through /proc/<pid>/root",
    clause: "§13",
    run: async (ctx) => {
      const w = await ctx.shared.world();
      works(
        await call(w.attacker.url, "/write", { path: join(w.host.layout.data(ATTACKER), "mine.txt") }),
        "write its own data dir",
      );
      const victimData = w.host.layout.data(VICTIM);
      blocked(
        await call(w.attacker.url, "/write", { path: join(victimData, "pwned.txt") }),
        "write the other app's data dir",
      );
      blocked(
        await call(w.attacker.url, "/write", { path: `/proc/${w.victimSandboxPid()}/root${victimData}/pwned.txt` }),
        "write through /proc/<victim pid>/root",
      );
      blocked(
        await call(w.attacker.url, "/write", { path: `/proc/1/root${victimData}/pwned.txt` }),
        "write through /proc/1/root",
      );
      check(!existsSync(join(victimData, "pwned.txt")), "pwned.txt appeared in the other app's data");
    },
  },
  {
    id: "C37",
    title: "sandbox: reads are confined (no 0600 host files, home, other apps' data or logs, host state)",
    clause: "§9.2, §13",
    run: async (ctx) => {
      const w = await ctx.shared.world();
      works(
        await call(w.attacker.url, "/read", { path: join(w.host.layout.bundle(ATTACKER), "server.mjs") }),
        "read its own bundle",
      );
      works(
        await call(w.attacker.url, "/read", { path: join(w.host.layout.data(ATTACKER), "mine.txt") }),
        "read its own data",
      );
      const targets = [
        "/etc/shadow",
        w.secretFile,
        join(w.host.layout.data(VICTIM), "counter.txt"),
        w.host.layout.log(VICTIM),
        w.host.layout.log(ATTACKER),
        join(w.host.layout.run(VICTIM), "state.json"),
        join(w.host.layout.bundle(VICTIM), "harp.json"),
      ];
      for (const p of targets) blocked(await call(w.attacker.url, "/read", { path: p }), `read ${p}`);
      for (const d of [homedir(), "/root", "/home", "/run", "/var", "/sys"])
        blocked(await call(w.attacker.url, "/list", { path: d }), `list ${d}`);
      // The directories above its own mounts exist only as empty skeletons: nothing of the host,
      // of the other app or of the host's state shows up in them, not even by name.
      const home = w.host.layout.root;
      const expected: Record<string, string[]> = {
        [home]: ["apps", "cache", "data", "lib", "run", "tmp"],
        [join(home, "data")]: [ATTACKER],
        [join(home, "apps")]: [ATTACKER],
        [join(home, "run")]: [ATTACKER],
        [join(home, "lib")]: ["bridge-in.mjs"],
        [w.root]: ["home"],
      };
      for (const [dir, names] of Object.entries(expected)) {
        const r = await call(w.attacker.url, "/list", { path: dir });
        works(r, `list the skeleton ${dir}`);
        const got = (r["value"] as string[]).sort();
        check(
          JSON.stringify(got) === JSON.stringify(names),
          `${dir} shows ${got.join(", ")}; expected only ${names.join(", ")}`,
        );
      }
    },
  },
  {
    id: "C38",
    title: 'sandbox: network "none" reaches no host Unix socket, no other app\'s bridge, no host loopback',
    clause: "§9.1, §13",
    run: async (ctx) => {
      const w = await ctx.shared.world();
      const own = await call(w.attacker.url, "/listen", { host: "127.0.0.1", port: 0 });
      works(own, "listen on its own loopback");
      works(
        await call(w.attacker.url, "/tcp", { host: "127.0.0.1", port: Number(own["port"]) }),
        "connect to its own loopback service",
      );
      blocked(await call(w.attacker.url, "/unix", { path: w.hostSocket }), "connect to a host Unix socket");
      blocked(
        await call(w.attacker.url, "/unix", { path: join(w.host.layout.run(VICTIM), "sock", "bridge.sock") }),
        "connect to the other app's bridge socket",
      );
      blocked(
        await call(w.attacker.url, "/tcp", { host: "127.0.0.1", port: w.victim.port }),
        "connect to the other app's port on the host loopback",
      );
      // Swapping its own bridge socket for a link (to make the host's bridge connect elsewhere):
      // as root the socket directory belongs to the forwarder's uid; in user-namespace mode the
      // supervisor connects only to a real socket, never through a link.
      if (probeSandbox().mode === "root")
        blocked(
          await call(w.attacker.url, "/write", { path: join(w.host.layout.run(ATTACKER), "sock", "planted") }),
          "write into its bridge socket directory",
        );
      const before = ((await call(w.victim.url, "/counter"))["counter"] as number) ?? -1;
      check(before === 2, `the other app's counter is ${before}, expected 2`);
    },
  },
  {
    id: "C39",
    title:
      'sandbox: inbound only through the host\'s loopback; 0.0.0.0 inside is unreachable, also for network "allow", which never reaches host loopback',
    clause: "§9.1",
    run: async (ctx) => {
      const w = await ctx.shared.world();
      check(
        (await fetch(`${w.attacker.url}/health`)).status === 200,
        "positive control: the app is reachable through the loopback bridge",
      );
      const l = await call(w.attacker.url, "/listen", { host: "0.0.0.0", port: 0 });
      works(l, "listen on 0.0.0.0 inside its namespace");
      const reach = async (host: string): Promise<boolean> =>
        new Promise((resolve) => {
          const s = netConnect({ host, port: Number(l["port"]) });
          s.on("connect", () => (s.destroy(), resolve(true)));
          s.on("error", () => resolve(false));
          s.setTimeout(1500, () => (s.destroy(), resolve(false)));
        });
      check(!(await reach("127.0.0.1")), "the app's 0.0.0.0 listener is reachable from the host");
      const ext = externalAddress();
      if (ext !== null) check(!(await reach(ext)), `the app's 0.0.0.0 listener is reachable on ${ext}`);
      // network "allow": outbound through the helper, but still nothing inbound but the bridge and
      // no host loopback; where the helper cannot be enforced, a refusal that names it.
      const dir = writeApp(
        join(w.root, "allow-app"),
        HOSTILE_MANIFEST("hostile-allow", { network: "allow", filesystem: "data-only" }),
        HOSTILE_SERVER_MJS,
      );
      await w.host.install(dir);
      try {
        if (!probeSandbox().network.includes("allow")) {
          try {
            await w.host.start("hostile-allow", { allowNetwork: true });
            throw new Error('network "allow" started although this host measured it as unenforceable');
          } catch (e) {
            check(
              e instanceof HostError && e.diagnostics.some((d) => d.code === "harp.permission_unenforceable"),
              `unexpected: ${String(e)}`,
            );
          }
          return;
        }
        const st = await w.host.start("hostile-allow", { allowNetwork: true });
        works(await call(st.url, "/health"), "positive control: the allow app answers through its bridge");
        const la = await call(st.url, "/listen", { host: "0.0.0.0", port: 0 });
        works(la, "listen on 0.0.0.0 inside the allow app's namespace");
        const reachAllow = async (host: string): Promise<boolean> =>
          new Promise((resolve) => {
            const s = netConnect({ host, port: Number(la["port"]) });
            s.on("connect", () => (s.destroy(), resolve(true)));
            s.on("error", () => resolve(false));
            s.setTimeout(1500, () => (s.destroy(), resolve(false)));
          });
        check(!(await reachAllow("127.0.0.1")), "the allow app's 0.0.0.0 listener is reachable from the host");
        if (ext !== null) check(!(await reachAllow(ext)), `the allow app's 0.0.0.0 listener is reachable on ${ext}`);
        for (const host of [SLIRP_GATEWAY, "127.0.0.1"])
          blocked(
            await call(st.url, "/tcp", { host, port: w.victim.port }),
            `the allow app reaches the other app's bridge port on the host loopback via ${host}`,
          );
      } finally {
        await w.host.uninstall("hostile-allow", { purge: true });
      }
    },
  },
  {
    id: "C40",
    title: "sandbox: stop, a supervisor SIGKILL and uninstall end every app process (setsid children too)",
    clause: "§8.4, §13",
    run: async (ctx) => {
      const w = await ctx.shared.world();
      const h = w.host;
      for (const how of ["stop", "kill-supervisor", "uninstall"] as const) {
        if (h.record(LIFECYCLE) === null)
          await h.install(
            writeApp(
              join(w.root, `lifecycle-${how}`),
              HOSTILE_MANIFEST(LIFECYCLE, { network: "none", filesystem: "data-only" }),
              HOSTILE_SERVER_MJS,
            ),
          );
        const st = await h.start(LIFECYCLE);
        const token = String(100000 + Math.floor(Math.random() * 800000));
        works(await call(st.url, "/spawn-detached", { token }), "spawn a setsid grandchild");
        const marker = `3${token}`;
        check(
          await waitFor(() => hostPidsWith(`sleep\0${marker}`).length > 0, 5_000),
          "positive control: the setsid child is not visible on the host",
        );
        if (how === "stop") await h.stop(LIFECYCLE);
        else if (how === "uninstall") await h.uninstall(LIFECYCLE, { purge: true });
        else process.kill(st.supervisorPid, "SIGKILL");
        check(
          await waitFor(() => hostPidsWith(`sleep\0${marker}`).length === 0, 5_000),
          `${how}: the setsid child survived`,
        );
        if (how === "kill-supervisor") {
          // The kernel tears the namespace down within moments; status must follow and stay false.
          check(
            await waitFor(() => !h.isRunning(LIFECYCLE), 5_000),
            "status says running after the supervisor was killed",
          );
          check(hostPidsWith(h.layout.run(LIFECYCLE)).length === 0, "a process of the app's sandbox is still alive");
          const r = await h.stop(LIFECYCLE);
          check(!r.wasRunning, "stop found something running");
        }
      }
    },
  },
  {
    id: "C41",
    title: "sandbox: memory is limited",
    clause: "§5 (SHOULD limit memory)",
    run: async (ctx) => {
      const w = await ctx.shared.world();
      works(await call(w.attacker.url, "/alloc", { mb: 32 }), "allocate 32 MiB");
      const r = await call(w.attacker.url, "/alloc", { mb: 4 * WORLD_LIMITS.memoryMiB }, 60_000);
      blocked(r, `allocate ${4 * WORLD_LIMITS.memoryMiB} MiB with a ${WORLD_LIMITS.memoryMiB} MiB limit`);
      check(Number(r["reached"]) <= WORLD_LIMITS.memoryMiB + 16, `reached ${String(r["reached"])} MiB`);
      check((await fetch(`${w.attacker.url}/health`)).status === 200, "the app itself should survive its child's OOM");
    },
  },
  {
    id: "C42",
    title: "sandbox: the number of processes is limited (no fork bomb)",
    clause: "§5 (SHOULD limit resources)",
    run: async (ctx) => {
      const w = await ctx.shared.world();
      works(await call(w.attacker.url, "/fork", { n: 5 }), "start 5 processes");
      const r = await call(w.attacker.url, "/fork", { n: 1000 }, 60_000);
      blocked(r, "start 1000 processes");
      check(
        Number(r["started"]) < WORLD_LIMITS.pids,
        `started ${String(r["started"])} with a limit of ${WORLD_LIMITS.pids}`,
      );
      await new Promise((res) => setTimeout(res, 300));
      check((await fetch(`${w.attacker.url}/health`)).status === 200, "the app itself should survive");
    },
  },
];
