/**
 * Permission enforcement (§5, §9, §13), Node-only, Linux-only, built on bubblewrap (`bwrap`).
 *
 * Why bubblewrap: it is the small, audited sandbox Flatpak uses; one exec gives a new user, PID,
 * mount, IPC, UTS, cgroup and network namespace, a root that holds only what we bind into it, its
 * own /proc, a minimal /dev, `--die-with-parent` and `--new-session`. Hand-written namespace code
 * (what yaoc had before: unshare + remounts) left the host's /proc, /dev, /sys, Unix sockets and
 * every readable file visible to the app.
 *
 * Every app process runs
 *   - as an unprivileged uid/gid: with yaoc as root, bwrap sets up the namespaces as root and
 *     `setpriv` drops to a per-app uid (never 0) with an empty bounding set and no_new_privs; as
 *     an ordinary user, bwrap makes a user namespace (`--unshare-user --uid 65534 --cap-drop ALL`);
 *   - in its own PID namespace with its own /proc (it sees and can signal only its own processes);
 *     when its first process exits, the namespace's init exits and the kernel kills the rest;
 *   - in a root holding only /usr (and the /bin, /lib links), a few read-only /etc files the
 *     runtimes need, the runtime's own install prefix when it lives outside /usr, the bundle
 *     (read-only), the data/cache/tmp dirs (read-write for "data-only"; for "none" only a private
 *     tmpfs TMPDIR), a read-only minimal /dev and nothing else: no /sys, no host /tmp, no home, no
 *     other app, no host socket;
 *   - in its own network namespace whose only interface is `lo` (network "none" and "loopback"); for
 *     "allow" the supervisor attaches slirp4netns to that namespace (see `networkHelperArgs`), which
 *     makes each outbound connection from the host's stack, with the host's loopback unreachable and
 *     no port forwarded in; inbound HTTP reaches the app only through a Unix-socket bridge;
 *   - with memory / process-count / CPU limits: cgroup v1 controllers where the host may create
 *     groups (root), else RLIMIT_DATA (per process) and RLIMIT_NPROC; what works is measured.
 *
 * Whether this works is measured, not assumed: `probeSandbox` runs the real launch once and checks
 * from inside every property the capability set claims (the network "allow" launch only when a
 * caller needs to know whether "allow" works).
 */
import { spawnSync } from "node:child_process";
import {
  accessSync,
  chmodSync,
  chownSync,
  constants,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { FilesystemPermission, NetworkPermission } from "../manifest.js";

const TOOL_DIRS = ["/usr/bin", "/bin", "/usr/sbin", "/sbin"];

/** Tools are looked up in fixed system directories, never on PATH. */
function tool(name: string): string | null {
  for (const d of TOOL_DIRS) {
    const p = join(d, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // next
    }
  }
  return null;
}

export interface SandboxTools {
  readonly bwrap: string;
  readonly setpriv: string;
  readonly prlimit: string;
  readonly sh: string;
}

/** Default limits (overridable per start with `--memory-mib`, `--max-pids`, `--cpus`). */
export interface Limits {
  readonly memoryMiB: number;
  readonly pids: number;
  /** CPU share in cores (cgroup cfs quota); fractional allowed. */
  readonly cpus: number;
}
export const DEFAULT_LIMITS: Limits = { memoryMiB: 512, pids: 128, cpus: 1 };

/** How each resource is limited on this machine (null: it cannot be). */
export interface LimitMechanisms {
  readonly memory: "cgroup-v1" | "rlimit-data" | null;
  readonly pids: "cgroup-v1" | "rlimit-nproc" | null;
  readonly cpu: "cgroup-v1" | null;
}

export interface SandboxCapabilities {
  readonly platform: string;
  readonly tools: SandboxTools | null;
  /** "root": bwrap as root + setpriv to a per-app uid; "userns": bwrap in a user namespace. */
  readonly mode: "root" | "userns" | null;
  readonly network: readonly NetworkPermission[];
  readonly filesystem: readonly FilesystemPermission[];
  /** Each isolation property, as measured inside a probe sandbox on this machine. */
  readonly properties: Readonly<Record<string, boolean>>;
  readonly limits: LimitMechanisms;
  /** cgroup v1 mount + own group per controller, when groups can be created here. */
  readonly cgroupBases: Readonly<Record<string, string>>;
  /** Why something is missing or weaker. */
  readonly notes: readonly string[];
}

export function findTools(): { tools: SandboxTools | null; missing: string[] } {
  const names = ["bwrap", "setpriv", "prlimit", "sh"] as const;
  const found: Partial<Record<(typeof names)[number], string>> = {};
  const missing: string[] = [];
  for (const n of names) {
    const p = tool(n);
    if (p === null) missing.push(n);
    else found[n] = p;
  }
  return { tools: missing.length === 0 ? (found as SandboxTools) : null, missing };
}

/**
 * The user-mode network stack for `network: "allow"`. Why slirp4netns, not pasta: it forwards no
 * port into the namespace unless an API socket asks for one (we pass none), `--disable-host-loopback`
 * is one documented flag that makes the host's 127.0.0.1 unreachable, `--ready-fd` lets the app start
 * only once its network is up, `--exit-fd` ties its life to the supervisor's (a pipe the kernel
 * closes when the supervisor dies, SIGKILL included), and `--enable-sandbox`/`--enable-seccomp`
 * confine the helper itself. pasta forwards bound ports in both directions and maps the host's
 * loopback by default (`-t/-u/-T/-U auto`), so four flags, whose names changed between releases,
 * would stand between an app and the host's loopback services.
 */
export const NETWORK_HELPER = "slirp4netns";
export const NETWORK_HELPER_HINT =
  'Install slirp4netns (Debian/Ubuntu: apt-get install slirp4netns; Fedora: dnf install slirp4netns) to run apps that declare network "allow", or declare "loopback" or "none".';

/** The helper's path in the fixed system directories, or null. */
export function findNetworkHelper(): string | null {
  return tool(NETWORK_HELPER);
}

/** Stands for the sandbox's pid in helper argv written before bwrap runs (the supervisor fills it in). */
export const SANDBOX_PID_SLOT = "{sandbox-pid}";

/** The app's resolver inside its namespace: slirp4netns's DNS forwarder (10.0.2.3 on its default network). */
export const SLIRP_DNS = "10.0.2.3";
/** The host as slirp4netns's gateway; `--disable-host-loopback` makes it refuse connections to it. */
export const SLIRP_GATEWAY = "10.0.2.2";

/**
 * slirp4netns's argv for the sandbox whose init is `pid`: outbound IPv4/IPv6 TCP, UDP and DNS, no
 * host loopback, no API socket (so no port forwarding), seccomp, ready on fd 3, exit when fd 4 closes. In a
 * user namespace (bwrap as an ordinary user) it joins the sandbox's user namespace to configure the
 * interface; as root it enters the network namespace directly.
 */
export function networkHelperArgs(helper: string, mode: "root" | "userns", pid: number | string): string[] {
  const a = [
    helper,
    "--configure",
    "--mtu=65520",
    "--enable-ipv6",
    "--disable-host-loopback",
    "--enable-seccomp",
    "--ready-fd=3",
    "--exit-fd=4",
  ];
  // As root the helper also gets its own mount namespace and drops every capability but
  // CAP_NET_BIND_SERVICE; as an ordinary user it holds none to drop, and that mode's setegid(0)
  // fails inside the app's user namespace.
  if (mode === "root") a.push("--enable-sandbox");
  if (mode === "userns") a.push(`--userns-path=/proc/${pid}/ns/user`, "--netns-type=path", `/proc/${pid}/ns/net`);
  else a.push(String(pid));
  a.push("tap0");
  return a;
}

export const INSTALL_HINT =
  "Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap) and util-linux; on other systems HARP apps cannot be sandboxed.";

/** Per-app host uid/gid for root mode: stable per (home, id), in a range no login user has. */
export function appUid(home: string, id: string): number {
  let h = 0x811c9dc5;
  for (const ch of `${home}\0${id}`) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return 0x60000000 + (h & 0x0fffffff);
}

// ---------- cgroups (v1) ----------

/** For each v1 controller we use, the directory of our own group in its hierarchy. */
function cgroupV1Bases(): Record<string, string> {
  const out: Record<string, string> = {};
  let self = "";
  let mounts = "";
  try {
    self = readFileSync("/proc/self/cgroup", "utf8");
    mounts = readFileSync("/proc/self/mountinfo", "utf8");
  } catch {
    return out;
  }
  const own = new Map<string, string>();
  for (const line of self.split("\n")) {
    const m = /^\d+:([^:]*):(.*)$/.exec(line);
    if (m === null || m[1] === "") continue;
    for (const c of m[1]!.split(",")) own.set(c, m[2]!);
  }
  for (const line of mounts.split("\n")) {
    const sep = line.indexOf(" - ");
    if (sep < 0) continue;
    const pre = line.slice(0, sep).split(" ");
    const post = line.slice(sep + 3).split(" ");
    if (post[0] !== "cgroup") continue;
    const root = pre[3] ?? "/";
    const target = pre[4] ?? "";
    for (const c of (post[2] ?? "").split(",")) {
      if (!["memory", "pids", "cpu"].includes(c) || !own.has(c) || out[c] !== undefined) continue;
      const rel = own.get(c)!;
      // Our group relative to this mount's root (a container sees its own group as the root).
      const sub = rel.startsWith(root) ? rel.slice(root.length) : rel;
      out[c] = join(target, sub);
    }
  }
  return out;
}

export interface AppCgroups {
  readonly dirs: readonly string[];
  /** Files the launcher writes its pid into before exec'ing bwrap. */
  readonly procs: readonly string[];
}

/** Create the app's groups and write its limits; throws when a write fails. */
export function createCgroups(bases: Readonly<Record<string, string>>, name: string, limits: Limits): AppCgroups {
  const dirs: string[] = [];
  const write = (dir: string, file: string, value: string) => writeFileSync(join(dir, file), value);
  for (const [c, base] of Object.entries(bases)) {
    const dir = join(base, name);
    mkdirSync(dir, { recursive: true });
    dirs.push(dir);
    if (c === "memory") {
      const bytes = String(limits.memoryMiB * 1024 * 1024);
      write(dir, "memory.limit_in_bytes", bytes);
      try {
        write(dir, "memory.memsw.limit_in_bytes", bytes); // no swapping around the limit
      } catch {
        // swap accounting off: memory.limit_in_bytes alone
      }
    } else if (c === "pids") {
      write(dir, "pids.max", String(limits.pids));
    } else if (c === "cpu") {
      write(dir, "cpu.cfs_period_us", "100000");
      write(dir, "cpu.cfs_quota_us", String(Math.max(1000, Math.round(limits.cpus * 100000))));
    }
  }
  return { dirs, procs: dirs.map((d) => join(d, "cgroup.procs")) };
}

export function removeCgroups(dirs: readonly string[]): void {
  for (const d of dirs) {
    try {
      rmdirSync(d);
    } catch {
      // still has tasks or already gone; the next start's sweep retries
    }
  }
}

// ---------- launch ----------

export interface LaunchSpec {
  readonly mode: "root" | "userns";
  readonly network: NetworkPermission;
  readonly filesystem: FilesystemPermission;
  /** Host uid/gid the app runs as in root mode. */
  readonly uid: number;
  /** Bundle: real directory on the host, and the path the app sees it at (its cwd). */
  readonly bundle: { readonly src: string; readonly dest: string };
  /** data, cache, tmp (same path inside). */
  readonly dataDirs: { readonly data: string; readonly cache: string; readonly tmp: string };
  /** Extra read-only trees (runtime prefixes outside /usr). */
  readonly readOnly: readonly string[];
  readonly appArgv: readonly string[];
  /** Loopback bridge: node, forwarder script, socket dir (bound rw), socket path, in-namespace port. */
  readonly bridge?: {
    readonly node: string;
    readonly script: string;
    readonly sockDir: string;
    readonly socket: string;
    readonly port: number;
  };
  readonly limits: Limits;
  readonly limitMechanisms: LimitMechanisms;
  /** cgroup.procs files to join before bwrap (root mode with cgroups). */
  readonly cgroupProcs?: readonly string[];
  /** Write bwrap's info JSON (child-pid) to this fd. */
  readonly infoFd?: number;
  /** network "allow": bwrap waits for a byte on this fd (the helper is up) before it starts the app. */
  readonly blockFd?: number;
  /** network "allow": files bound read-only at /etc/resolv.conf and /etc/hosts. */
  readonly resolver?: { readonly resolvConf: string; readonly hosts: string };
}

const SYSTEM_TOP = ["/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"];
const ETC_FILES = [
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/ssl",
  "/etc/localtime",
  "/etc/alternatives",
  "/etc/nsswitch.conf",
];

function ancestors(p: string): string[] {
  const out: string[] = [];
  for (let d = dirname(p); d !== "/" && d !== "."; d = dirname(d)) out.push(d);
  return out.reverse();
}

/** Directories outside /usr that hold the runtime (e.g. /opt/node-v20), bound read-only. */
export function runtimeRoots(programs: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of programs) {
    let real: string;
    try {
      real = realpathSync(p);
    } catch {
      continue;
    }
    if (real.startsWith("/usr/") || SYSTEM_TOP.some((t) => real.startsWith(`${t}/`))) continue;
    // <prefix>/bin/<exe> → <prefix>: the runtime's libraries live beside its bin/.
    const prefix = dirname(dirname(real));
    if (prefix !== "/" && !out.includes(prefix)) out.push(prefix);
  }
  return out;
}

const INNER_BRIDGE = [
  'node="$1"; fwd="$2"; sock="$3"; port="$4"; shift 4',
  '"$node" "$fwd" "$sock" "$port" &',
  'n=0; while [ ! -S "$sock" ]; do n=$((n+1)); [ $n -lt 400 ] || { echo "yaoc-sandbox: bridge did not start" >&2; exit 125; }; sleep 0.05; done',
  'exec "$@"',
].join("\n");

/**
 * Root mode: the forwarder runs as its own uid (`bridgeUid`) and owns the socket directory, so the
 * app cannot swap the socket for a link to another socket that the root supervisor would then
 * connect to. The launcher shell runs as root inside the sandbox only to start both and drop.
 */
const ROOT_BRIDGE = [
  'node="$1"; fwd="$2"; sock="$3"; port="$4"; fuid="$5"; uid="$6"; sp="$7"; shift 7',
  'drop() { u="$1"; shift; exec "$sp" --reuid "$u" --regid "$u" --clear-groups --no-new-privs --bounding-set -all --inh-caps -all --ambient-caps -all -- "$@"; }',
  '(drop "$fuid" "$node" "$fwd" "$sock" "$port") &',
  'n=0; while [ ! -S "$sock" ]; do n=$((n+1)); [ $n -lt 400 ] || { echo "yaoc-sandbox: bridge did not start" >&2; exit 125; }; sleep 0.05; done',
  'drop "$uid" "$@"',
].join("\n");

/** The uid the in-sandbox forwarder runs as in root mode (distinct from the app's). */
export function bridgeUid(appUidValue: number): number {
  return appUidValue | 0x10000000;
}

/** The only entries of an app's /dev (issue 13: "null, zero, full, random, urandom, tty; nothing else"). */
export const SANDBOX_DEVICES = ["null", "zero", "full", "random", "urandom", "tty"] as const;

/** The full argv that starts the app in its sandbox. */
export function buildLaunch(tools: SandboxTools, spec: LaunchSpec): string[] {
  const a: string[] = [tools.bwrap, "--die-with-parent", "--new-session"];
  if (spec.infoFd !== undefined) a.push("--info-fd", String(spec.infoFd));
  if (spec.blockFd !== undefined) a.push("--block-fd", String(spec.blockFd));
  if (spec.mode === "userns") a.push("--unshare-user", "--uid", "65534", "--gid", "65534", "--cap-drop", "ALL");
  a.push(
    "--unshare-ipc",
    "--unshare-pid",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--unshare-net",
    "--hostname",
    "harp-app",
  );
  a.push("--ro-bind", "/usr", "/usr");
  for (const t of SYSTEM_TOP) {
    let st;
    try {
      st = lstatSync(t);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) a.push("--symlink", readlinkSync(t), t);
    else if (st.isDirectory()) a.push("--ro-bind", t, t);
  }
  a.push("--perms", "0755", "--dir", "/etc");
  for (const f of ETC_FILES) a.push("--ro-bind-try", f, f);
  if (spec.resolver !== undefined)
    a.push("--ro-bind", spec.resolver.resolvConf, "/etc/resolv.conf", "--ro-bind", spec.resolver.hosts, "/etc/hosts");
  // /dev holds the six devices of issue 13 and nothing else: bwrap's own `--dev` adds pts, ptmx,
  // shm, console and the fd links, none of which an HTTP app needs. Each is a bind of the host's
  // node onto a fresh tmpfs (what `--dev` does internally), then the whole /dev is made read-only.
  a.push("--perms", "0755", "--tmpfs", "/dev");
  for (const d of SANDBOX_DEVICES) a.push("--dev-bind-try", `/dev/${d}`, `/dev/${d}`);
  a.push("--remount-ro", "/dev", "--proc", "/proc");
  const { data, cache, tmp } = spec.dataDirs;
  // Every directory above a mount point is made explicitly (0755) before any bind: bwrap would
  // otherwise create missing parents itself, not traversable by the app's uid.
  const mountPoints = [
    ...spec.readOnly,
    spec.bundle.dest,
    data,
    cache,
    tmp,
    ...(spec.bridge ? [spec.bridge.script, spec.bridge.sockDir] : []),
  ];
  const made = new Set<string>(["/usr", "/dev", "/proc", "/etc", ...SYSTEM_TOP]);
  for (const mp of mountPoints) {
    for (const d of ancestors(mp)) {
      if (made.has(d)) continue;
      made.add(d);
      a.push("--perms", "0755", "--dir", d);
    }
  }
  for (const r of spec.readOnly) a.push("--ro-bind", r, r);
  a.push("--ro-bind", spec.bundle.src, spec.bundle.dest);
  if (spec.filesystem === "data-only") {
    for (const d of [data, cache, tmp]) a.push("--bind", d, d);
  } else {
    a.push("--perms", "01777", "--size", String(64 * 1024 * 1024), "--tmpfs", tmp);
  }
  if (spec.bridge)
    a.push("--ro-bind", spec.bridge.script, spec.bridge.script, "--bind", spec.bridge.sockDir, spec.bridge.sockDir);
  // The skeleton root (bwrap's tmpfs holding the mount points) becomes read-only too: in a user
  // namespace it belongs to the app's uid, and writes there would still be writes outside.
  a.push("--remount-ro", "/", "--chdir", spec.bundle.dest, "--");
  // Inside: rlimits, then (root mode) the drop to the app's uid, then the bridge and the app.
  const rl: string[] = [];
  if (spec.limitMechanisms.memory === "rlimit-data") rl.push(`--data=${spec.limits.memoryMiB * 1024 * 1024}`);
  if (spec.limitMechanisms.pids === "rlimit-nproc") rl.push(`--nproc=${spec.limits.pids}`);
  if (rl.length > 0) {
    a.push(tools.prlimit);
    for (const r of rl) a.push(r);
    a.push("--");
  }
  if (spec.mode === "root" && spec.bridge) {
    const b = spec.bridge;
    a.push(
      tools.sh,
      "-c",
      ROOT_BRIDGE,
      "yaoc-launch",
      b.node,
      b.script,
      b.socket,
      String(b.port),
      String(bridgeUid(spec.uid)),
      String(spec.uid),
      tools.setpriv,
    );
  } else {
    if (spec.mode === "root") {
      a.push(
        tools.setpriv,
        "--reuid",
        String(spec.uid),
        "--regid",
        String(spec.uid),
        "--clear-groups",
        "--no-new-privs",
        "--bounding-set",
        "-all",
        "--inh-caps",
        "-all",
        "--ambient-caps",
        "-all",
        "--",
      );
    }
    if (spec.bridge) {
      const b = spec.bridge;
      a.push(tools.sh, "-c", INNER_BRIDGE, "yaoc-launch", b.node, b.script, b.socket, String(b.port));
    }
  }
  for (const arg of spec.appArgv) a.push(arg);
  if (spec.cgroupProcs !== undefined && spec.cgroupProcs.length > 0) {
    // Join the groups before bwrap forks, so every sandbox process is inside them.
    // YAOC_CG holds the cgroup.procs paths, one per line (paths may contain spaces).
    const joinGroups =
      'IFS=\'\n\'\nfor f in $YAOC_CG; do echo $$ > "$f" || exit 125; done\nunset YAOC_CG IFS\nexec "$@"';
    return [tools.sh, "-c", joinGroups, "yaoc-cgroup", ...a];
  }
  return a;
}

// ---------- probe ----------

/**
 * Two measurements, each run at most once per process and only when asked for: the base launch
 * (every property but network "allow"; a sandbox launch, tens of milliseconds) and the network
 * "allow" launch (bwrap plus slirp4netns through a child Node process). Every locked host
 * command used to pay for both; now only a start of an "allow" app and the capability set measure
 * "allow", and commands that start nothing measure nothing.
 */
let cachedBase: SandboxCapabilities | undefined;
let cachedNet: NetworkProbe | undefined;
const probeRuns = { base: 0, networkAllow: 0 };

type NetworkProbe = { ok: boolean; reason: string; properties: Record<string, boolean> };

const PROBE_SCRIPT = String.raw`
id -u | sed 's/^/uid=/'
grep -E '^(CapEff|CapBnd|NoNewPrivs):' /proc/self/status | tr -d '\t' | sed 's/:/=/'
echo "procs=$(ls /proc | grep -c '^[0-9]')"
echo "links=$(ls /sys/class/net 2>/dev/null | wc -l)"
[ -e /sys/kernel ] && echo sys=present || echo sys=absent
echo "dev=$(ls /dev | tr '\n' ',')"
if (: > /dev/yaoc-probe) 2>/dev/null; then echo devwrite=yes; else echo devwrite=no; fi
if (: > "$OUTSIDE") 2>/dev/null; then echo outside=writable; else echo outside=blocked; fi
[ -e "$SECRET" ] && echo secret=visible || echo secret=hidden
[ -e /etc/shadow ] && echo shadow=visible || echo shadow=hidden
if (: > "$DATA/ok") 2>/dev/null; then echo data=writable; else echo data=blocked; fi
if (echo x > /proc/sys/kernel/domainname) 2>/dev/null; then echo sysctl=writable; else echo sysctl=blocked; fi
grep -E '^Max (processes|data size)' /proc/self/limits | tr -s ' ' | sed 's/^Max processes /nproc=/; s/^Max data size /rlimit_data=/' | cut -d' ' -f1
`;

/**
 * Measure what this machine can enforce (cached per process). With `networkAllow: false` the
 * network "allow" launch is not run and `network` lists only what the base launch measured
 * ("none", "loopback"): for starting an app that does not ask for "allow", where whether "allow"
 * would work does not matter.
 */
export function probeSandbox(opts: { readonly networkAllow?: boolean } = {}): SandboxCapabilities {
  if (cachedBase === undefined) {
    probeRuns.base++;
    cachedBase = measure();
  }
  const base = cachedBase;
  if (opts.networkAllow === false || base.tools === null || base.mode === null) return base;
  if (cachedNet === undefined) {
    probeRuns.networkAllow++;
    cachedNet = probeNetworkAllow(base.tools, base.mode, base.limits);
  }
  const net = cachedNet;
  return {
    ...base,
    network: net.ok ? ["none", "loopback", "allow"] : base.network,
    properties: { ...base.properties, ...net.properties },
    notes: net.ok ? base.notes : [...base.notes, `network "allow" is refused: ${net.reason}`],
  };
}

/** Forget the cached measurements (tests that change the machine's state). */
export function resetSandboxProbe(): void {
  cachedBase = undefined;
  cachedNet = undefined;
}

/**
 * How many times this process ran each measurement (cached results do not count): lets a test
 * see that a command did not launch the network helper, which no PATH shim could show (the
 * helper is looked up in fixed system directories).
 */
export function sandboxProbeRuns(): { readonly base: number; readonly networkAllow: number } {
  return { ...probeRuns };
}

/**
 * The cgroup v1 directories app groups may live under, without running any probe: enough to
 * remove a group a killed supervisor left behind (removing one that never existed does nothing).
 * Only root creates groups, so for anyone else there is nothing to remove.
 */
export function cgroupSweepBases(): Readonly<Record<string, string>> {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  return process.platform === "linux" && isRoot ? cgroupV1Bases() : {};
}

function unenforced(platform: string, tools: SandboxTools | null, notes: string[]): SandboxCapabilities {
  return {
    platform,
    tools,
    mode: null,
    network: [],
    filesystem: [],
    properties: {},
    limits: { memory: null, pids: null, cpu: null },
    cgroupBases: {},
    notes,
  };
}

function measure(): SandboxCapabilities {
  const platform = process.platform;
  if (platform !== "linux")
    return unenforced(platform, null, [
      `no sandbox implementation for ${platform}; no permission can be enforced, so no app is started`,
    ]);
  const { tools, missing } = findTools();
  if (tools === null)
    return unenforced(platform, null, [
      `missing sandbox tools: ${missing.join(", ")} (looked in ${TOOL_DIRS.join(", ")}). ${INSTALL_HINT}`,
    ]);
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const mode = isRoot ? "root" : "userns";
  const notes: string[] = [];
  // Limits: cgroups where we may create groups (root), rlimits otherwise.
  let bases: Record<string, string> = {};
  if (isRoot) {
    bases = cgroupV1Bases();
    const probeName = `yaoc-harp-probe-${process.pid}`;
    try {
      const cg = createCgroups(bases, probeName, DEFAULT_LIMITS);
      removeCgroups(cg.dirs);
    } catch (e) {
      notes.push(
        `cgroup v1 groups cannot be created here (${e instanceof Error ? e.message : String(e)}); using rlimits`,
      );
      removeCgroups(Object.values(bases).map((b) => join(b, probeName)));
      bases = {};
    }
  } else {
    notes.push(
      "not root: cgroup groups cannot be created, so memory is limited per process (RLIMIT_DATA), process count with RLIMIT_NPROC and CPU is not limited",
    );
  }
  if (Object.keys(bases).length === 0)
    notes.push("cgroup v2 delegation is not implemented; rlimits are used where cgroup v1 is unavailable");
  const limits: LimitMechanisms = {
    memory: bases["memory"] !== undefined ? "cgroup-v1" : "rlimit-data",
    pids: bases["pids"] !== undefined ? "cgroup-v1" : "rlimit-nproc",
    cpu: bases["cpu"] !== undefined ? "cgroup-v1" : null,
  };
  const r = runProbe(tools, mode, limits);
  if (!r.ok) {
    notes.push(`sandbox probe failed: ${r.reason}`);
    return { ...unenforced(platform, tools, notes), properties: r.properties };
  }
  const p = r.properties;
  // A limit mechanism is claimed only if the probe saw it in effect.
  const measuredLimits: LimitMechanisms = {
    memory: limits.memory === "rlimit-data" && !p["rlimitData"] ? null : limits.memory,
    pids: limits.pids === "rlimit-nproc" && !p["rlimitNproc"] ? null : limits.pids,
    cpu: limits.cpu,
  };
  // network "allow" is measured separately, only when asked for (probeSandbox).
  return {
    platform,
    tools,
    mode,
    network: ["none", "loopback"],
    filesystem: ["data-only", "none"],
    properties: p,
    limits: measuredLimits,
    cgroupBases: bases,
    notes,
  };
}

/** The properties the probe must see for the sandbox to count as enforcing. */
export const REQUIRED_PROPERTIES = [
  "unprivilegedUid",
  "noCapabilities",
  "noNewPrivs",
  "ownPidNamespace",
  "ownNetworkNamespace",
  "noSys",
  "minimalDev",
  "readOnlyDev",
  "writesOutsideBlocked",
  "hostFilesHidden",
  "dataWritable",
  "sysctlBlocked",
] as const;

/**
 * The network "allow" launch, measured: the real sandbox with the helper attached the way the
 * supervisor attaches it (bwrap blocked on --block-fd until the helper reports ready), and from
 * inside, the outbound interface must be up and the host's loopback (the helper's gateway) refused.
 * The orchestration needs an event loop, so it runs in a short child Node process.
 */
function probeNetworkAllow(tools: SandboxTools, mode: "root" | "userns", limits: LimitMechanisms): NetworkProbe {
  const helper = findNetworkHelper();
  if (helper === null)
    return {
      ok: false,
      reason: `${NETWORK_HELPER} is not installed (looked in ${TOOL_DIRS.join(", ")}). ${NETWORK_HELPER_HINT}`,
      properties: {},
    };
  const dir = mkdtempSync(join(tmpdir(), "yaoc-harp-netprobe-"));
  try {
    const data = join(dir, "data");
    const bundle = join(dir, "bundle");
    mkdirSync(data, { mode: 0o700 });
    mkdirSync(bundle);
    const uid = appUid(dir, "netprobe");
    if (mode === "root") chownSync(data, uid, uid);
    const resolvConf = join(dir, "resolv.conf");
    const hosts = join(dir, "hosts");
    writeFileSync(resolvConf, resolverFiles().resolvConf, { mode: 0o644 });
    writeFileSync(hosts, resolverFiles().hosts, { mode: 0o644 });
    chmodSync(dir, 0o755);
    const node = process.execPath;
    const argv = buildLaunch(tools, {
      mode,
      network: "allow",
      filesystem: "data-only",
      uid,
      bundle: { src: bundle, dest: bundle },
      dataDirs: { data, cache: data, tmp: data },
      readOnly: runtimeRoots([node]),
      appArgv: [node, "-e", NET_PROBE_APP, SLIRP_GATEWAY],
      limits: DEFAULT_LIMITS,
      limitMechanisms: limits,
      infoFd: 3,
      blockFd: 4,
      resolver: { resolvConf, hosts },
    });
    const res = spawnSync(node, ["--input-type=module", "-e", NET_PROBE_ORCHESTRATOR], {
      encoding: "utf8",
      timeout: 20_000,
      input: JSON.stringify({
        argv,
        helper: networkHelperArgs(helper, mode, SANDBOX_PID_SLOT),
        slot: SANDBOX_PID_SLOT,
      }),
      env: { PATH: "/usr/bin:/bin" },
    });
    const kv = new Map<string, string>();
    for (const line of (res.stdout ?? "").split("\n")) {
      const i = line.indexOf("=");
      if (i > 0) kv.set(line.slice(0, i), line.slice(i + 1));
    }
    const properties = {
      outboundNetwork: kv.get("tap") === "up",
      hostLoopbackUnreachable:
        kv.has("gateway") && kv.get("gateway") !== "connected" && kv.get("gateway") !== "ECONNREFUSED",
    };
    if (properties.outboundNetwork && properties.hostLoopbackUnreachable && kv.get("helper") === "ready")
      return { ok: true, reason: "", properties };
    const why = res.error
      ? res.error.message
      : `helper ${kv.get("helper") ?? "?"}, interface ${kv.get("tap") ?? "?"}, host loopback ${kv.get("gateway") ?? "?"}`;
    return {
      ok: false,
      reason: `the ${NETWORK_HELPER} probe failed (${why}; ${JSON.stringify((res.stderr ?? "").trim().slice(-300))})`,
      properties,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** /etc/resolv.conf and /etc/hosts of a network "allow" sandbox: the helper's DNS and nothing of the host's. */
export function resolverFiles(): { resolvConf: string; hosts: string } {
  return {
    resolvConf: `nameserver ${SLIRP_DNS}\n`,
    hosts: "127.0.0.1 localhost\n::1 localhost ip6-localhost ip6-loopback\n",
  };
}

/** Inside the probe sandbox: is the helper's interface up, and what does connecting to the host's loopback give? */
const NET_PROBE_APP = String.raw`
const fs = require("node:fs");
const net = require("node:net");
process.stdout.write("tap=" + (/\btap0:/.test(fs.readFileSync("/proc/net/dev", "utf8")) ? "up" : "down") + "\n");
const s = net.connect({ host: process.argv[1], port: 9, timeout: 3000 });
const done = (v) => { process.stdout.write("gateway=" + v + "\n"); s.destroy(); };
s.on("connect", () => done("connected"));
s.on("timeout", () => done("timeout"));
s.on("error", (e) => done(e.code || "error"));
`;

/** Starts the probe sandbox blocked, attaches the helper, unblocks it on ready, reports, cleans up. */
const NET_PROBE_ORCHESTRATOR = String.raw`
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
let input = "";
for await (const c of process.stdin) input += c;
const { argv, helper, slot } = JSON.parse(input);
const b = spawn(argv[0], argv.slice(1), { stdio: ["ignore", "inherit", "inherit", "pipe", "pipe"] });
let info = "";
let h = null;
const bye = () => { if (h) { try { h.kill("SIGKILL"); } catch {} } };
setTimeout(() => { console.log("helper=timeout"); bye(); try { b.kill("SIGKILL"); } catch {} process.exit(0); }, 15000).unref();
const loopbackUp = (pid) => ["fib_trie", "if_inet6"].some((f) => { try { return /127\.0\.0\.1|0{31}1 /.test(readFileSync("/proc/" + pid + "/net/" + f, "utf8")); } catch { return false; } });
let started = false;
b.stdio[3].on("data", async (d) => {
  info += d;
  const m = /"child-pid"\s*:\s*([0-9]+)/.exec(info);
  if (m === null || started) return;
  started = true;
  // As the supervisor does: attach only once bwrap has brought up the namespace's loopback.
  for (let i = 0; i < 300 && !loopbackUp(m[1]); i++) await new Promise((r) => setTimeout(r, 10));
  const args = helper.map((a) => a.split(slot).join(m[1]));
  h = spawn(args[0], args.slice(1), { stdio: ["ignore", "ignore", "inherit", "pipe", "pipe"] });
  h.on("error", (e) => { console.log("helper=" + e.message); b.stdio[4].end("x"); });
  h.stdio[3].once("data", () => { console.log("helper=ready"); b.stdio[4].write("x"); });
  h.on("exit", () => { if (!b.exitCode) b.stdio[4].end(); });
});
b.stdio[4].on("error", () => {});
b.on("exit", () => { bye(); process.exit(0); });
`;

function runProbe(
  tools: SandboxTools,
  mode: "root" | "userns",
  limits: LimitMechanisms,
): { ok: boolean; reason: string; properties: Record<string, boolean> } {
  const dir = mkdtempSync(join(tmpdir(), "yaoc-harp-probe-"));
  try {
    const data = join(dir, "data");
    const bundle = join(dir, "bundle");
    mkdirSync(data, { mode: 0o700 });
    mkdirSync(bundle);
    const uid = appUid(dir, "probe");
    if (mode === "root") chownSync(data, uid, uid);
    const secret = join(dir, "secret");
    writeFileSync(secret, "s", { mode: 0o600 });
    const argv = buildLaunch(tools, {
      mode,
      network: "none",
      filesystem: "data-only",
      uid,
      bundle: { src: bundle, dest: bundle },
      dataDirs: { data, cache: data, tmp: data },
      readOnly: [],
      appArgv: [tools.sh, "-c", PROBE_SCRIPT],
      limits: DEFAULT_LIMITS,
      limitMechanisms: limits,
    });
    const env = { PATH: "/usr/bin:/bin", OUTSIDE: join(dir, "outside"), SECRET: secret, DATA: data };
    const res = spawnSync(argv[0]!, argv.slice(1), { encoding: "utf8", timeout: 15_000, env });
    const kv = new Map<string, string>();
    for (const line of (res.stdout ?? "").split("\n")) {
      const i = line.indexOf("=");
      if (i > 0) kv.set(line.slice(0, i), line.slice(i + 1));
    }
    const dev = (kv.get("dev") ?? "").split(",").filter((x) => x !== "");
    const devAllowed = new Set<string>(SANDBOX_DEVICES);
    const procs = Number(kv.get("procs") ?? "999");
    const properties: Record<string, boolean> = {
      unprivilegedUid: kv.has("uid") && kv.get("uid") !== "0",
      noCapabilities: kv.get("CapEff") === "0000000000000000" && kv.get("CapBnd") === "0000000000000000",
      noNewPrivs: kv.get("NoNewPrivs") === "1",
      // The probe shell and its children: a handful of pids, never the host's.
      ownPidNamespace: procs > 0 && procs < 10,
      ownNetworkNamespace: kv.get("links") === "0" || kv.get("links") === "1",
      noSys: kv.get("sys") === "absent",
      minimalDev: dev.length > 0 && dev.every((d) => devAllowed.has(d)),
      readOnlyDev: kv.get("devwrite") === "no",
      writesOutsideBlocked: kv.get("outside") === "blocked",
      hostFilesHidden: kv.get("secret") === "hidden" && kv.get("shadow") === "hidden",
      dataWritable: kv.get("data") === "writable",
      sysctlBlocked: kv.get("sysctl") === "blocked",
      rlimitData:
        limits.memory === "rlimit-data"
          ? kv.get("rlimit_data") === String(DEFAULT_LIMITS.memoryMiB * 1024 * 1024)
          : false,
      rlimitNproc: limits.pids === "rlimit-nproc" ? kv.get("nproc") === String(DEFAULT_LIMITS.pids) : false,
    };
    const failed = REQUIRED_PROPERTIES.filter((k) => !properties[k]);
    if (res.status === 0 && failed.length === 0) return { ok: true, reason: "", properties };
    const why = res.error ? res.error.message : `exit ${res.status ?? res.signal}`;
    return {
      ok: false,
      reason: `${why}; not enforced: ${failed.join(", ") || "-"}; ${JSON.stringify((res.stderr ?? "").trim().slice(0, 300))}`,
      properties,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
