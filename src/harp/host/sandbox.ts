/**
 * Permission enforcement (§9, §13), Node-only, Linux-only.
 *
 * The app runs under `unshare` in its own mount namespace (and, unless network is "allow", its own
 * network namespace whose only interface is loopback). A generated launcher script, run as root
 * inside the namespaces, then
 *   - brings up `lo` in the private network namespace,
 *   - bind-mounts the writable directories (data, cache, tmp for "data-only"; none for "none"),
 *   - remounts every other writable mount read-only (so the bundle, the user's home, other apps'
 *     data and the host's own state are read-only to the app),
 *   - drops every capability with `setpriv` (empty bounding set, no_new_privs) so the app cannot
 *     undo the remounts, and execs the app.
 * Inbound HTTP reaches an app in a private network namespace through a bridge: the supervisor
 * listens on the host's loopback port and forwards each connection over a Unix socket (Unix sockets
 * are file-system objects, shared across network namespaces) to a small forwarder inside.
 *
 * Whether all of this works is measured, not assumed: `probeSandbox` runs the real launcher once and
 * checks from inside that writes outside the data dir fail, the data dir is writable, capabilities
 * are gone and only `lo` exists. A permission whose enforcement fails the probe is refused at start.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
  readonly unshare: string;
  readonly mount: string;
  readonly ip: string;
  readonly setpriv: string;
  readonly sh: string;
}

export interface SandboxCapabilities {
  readonly platform: string;
  readonly tools: SandboxTools | null;
  /** `unshare` flags that worked in the probe (root: none; otherwise a user namespace). */
  readonly userNamespace: boolean;
  readonly network: readonly NetworkPermission[];
  readonly filesystem: readonly FilesystemPermission[];
  /** Why a permission value is missing from the lists above. */
  readonly notes: readonly string[];
}

export function findTools(): { tools: SandboxTools | null; missing: string[] } {
  const names = ["unshare", "mount", "ip", "setpriv", "sh"] as const;
  const found: Partial<Record<(typeof names)[number], string>> = {};
  const missing: string[] = [];
  for (const n of names) {
    const p = tool(n);
    if (p === null) missing.push(n);
    else found[n] = p;
  }
  return { tools: missing.length === 0 ? (found as SandboxTools) : null, missing };
}

function shq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Mount points that are writable now, decoded from /proc/self/mounts. */
function writableMounts(): string[] {
  const out: string[] = [];
  let text = "";
  try {
    text = readFileSync("/proc/self/mounts", "utf8");
  } catch {
    return out;
  }
  for (const line of text.split("\n")) {
    const f = line.split(" ");
    if (f.length < 4) continue;
    const target = f[1]!.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
    const opts = f[3]!.split(",");
    if (opts.includes("ro")) continue;
    // /proc and /sys need capabilities to write (dropped below); device nodes stay usable on a
    // read-only /dev, but keep /dev and its pts as they are so terminals keep working.
    if (target === "/proc" || target.startsWith("/proc/") || target === "/sys" || target.startsWith("/sys/")) continue;
    if (target === "/dev" || target === "/dev/pts") continue;
    if (!out.includes(target)) out.push(target);
  }
  return out;
}

export interface LaunchPlan {
  /** Full argv to spawn (unshare … sh launcher … app argv). */
  readonly argv: readonly string[];
  /** True when the app has a private network namespace and needs the loopback bridge. */
  readonly bridged: boolean;
}

export interface LaunchSpec {
  readonly network: NetworkPermission;
  readonly filesystem: FilesystemPermission;
  readonly writable: readonly string[];
  readonly appArgv: readonly string[];
  /** Where to write the launcher script. */
  readonly scriptPath: string;
  /** For bridged apps: node binary, forwarder script, Unix socket, in-namespace port. */
  readonly bridge?: { readonly node: string; readonly script: string; readonly socket: string; readonly port: number };
}

export function buildLaunch(tools: SandboxTools, userNamespace: boolean, spec: LaunchSpec): LaunchPlan {
  const isolateNet = spec.network !== "allow";
  const lines = ["set -e", `${shq(tools.mount)} --make-rprivate /`];
  const drop = `${shq(tools.setpriv)} --no-new-privs --bounding-set -all --inh-caps -all --ambient-caps -all --`;
  if (isolateNet) lines.push(`${shq(tools.ip)} link set lo up`);
  if (isolateNet && spec.bridge) {
    // Started before the remounts so it can create its socket in the (soon read-only) run dir.
    const b = spec.bridge;
    lines.push(`${drop} ${shq(b.node)} ${shq(b.script)} ${shq(b.socket)} ${b.port} &`);
    lines.push(`n=0; while [ ! -S ${shq(b.socket)} ]; do n=$((n+1)); [ $n -lt 200 ] || { echo "yaoc-sandbox: bridge did not start" >&2; exit 125; }; sleep 0.05; done`);
  }
  const writable = spec.filesystem === "data-only" ? spec.writable : [];
  for (const d of writable) lines.push(`${shq(tools.mount)} --bind ${shq(d)} ${shq(d)}`);
  for (const mp of writableMounts()) {
    lines.push(`${shq(tools.mount)} -o remount,bind,ro ${shq(mp)} || { echo "yaoc-sandbox: cannot make ${mp.replace(/["`$\\]/g, "")} read-only" >&2; exit 125; }`);
  }
  for (const d of writable) lines.push(`${shq(tools.mount)} -o remount,bind,rw ${shq(d)}`);
  lines.push(`exec ${drop} "$@"`);
  writeFileSync(spec.scriptPath, `${lines.join("\n")}\n`, { mode: 0o500 });
  const flags = [...(userNamespace ? ["--user", "--map-root-user"] : []), "--mount", ...(isolateNet ? ["--net"] : [])];
  return { argv: [tools.unshare, ...flags, "--", tools.sh, spec.scriptPath, ...spec.appArgv], bridged: isolateNet };
}

let cached: SandboxCapabilities | undefined;

/** Measure what this machine can enforce (cached per process). */
export function probeSandbox(): SandboxCapabilities {
  if (cached !== undefined) return cached;
  const notes: string[] = [];
  const platform = process.platform;
  if (platform !== "linux") {
    cached = { platform, tools: null, userNamespace: false, network: ["allow"], filesystem: [], notes: [`no sandbox implementation for ${platform}; only network "allow" (with consent) can be honoured and no filesystem permission can be enforced`] };
    return cached;
  }
  const { tools, missing } = findTools();
  if (tools === null) {
    cached = { platform, tools: null, userNamespace: false, network: ["allow"], filesystem: [], notes: [`missing sandbox tools: ${missing.join(", ")} (looked in ${TOOL_DIRS.join(", ")})`] };
    return cached;
  }
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const attempts = isRoot ? [false, true] : [true];
  for (const userNs of attempts) {
    const r = runProbe(tools, userNs);
    if (r.ok) {
      cached = { platform, tools, userNamespace: userNs, network: ["none", "loopback", "allow"], filesystem: ["data-only", "none"], notes };
      return cached;
    }
    notes.push(`${userNs ? "user-namespace" : "root"} sandbox probe failed: ${r.reason}`);
  }
  cached = { platform, tools, userNamespace: false, network: ["allow"], filesystem: [], notes };
  return cached;
}

function runProbe(tools: SandboxTools, userNs: boolean): { ok: true } | { ok: false; reason: string } {
  const dir = mkdtempSync(join(tmpdir(), "yaoc-harp-probe-"));
  try {
    const data = join(dir, "data");
    mkdirSync(data);
    const outside = join(dir, "outside");
    const check = [
      `echo links=$(${shq(tools.ip)} -o link | wc -l)`,
      `if (: > ${shq(outside)}) 2>/dev/null; then echo outside=writable; else echo outside=blocked; fi`,
      `if (: > ${shq(join(data, "ok"))}) 2>/dev/null; then echo data=writable; else echo data=blocked; fi`,
      `if ${shq(tools.mount)} -o remount,bind,rw / 2>/dev/null; then echo remount=allowed; else echo remount=blocked; fi`,
    ].join("; ");
    const plan = buildLaunch(tools, userNs, {
      network: "none",
      filesystem: "data-only",
      writable: [data],
      appArgv: [tools.sh, "-c", check],
      scriptPath: join(dir, "launch.sh"),
    });
    const res = spawnSync(plan.argv[0]!, plan.argv.slice(1), { encoding: "utf8", timeout: 10_000 });
    const out = `${res.stdout ?? ""}`;
    const want = ["links=1", "outside=blocked", "data=writable", "remount=blocked"];
    const missingLines = want.filter((w) => !out.split("\n").includes(w));
    if (res.status === 0 && missingLines.length === 0) return { ok: true };
    return { ok: false, reason: `exit ${res.status ?? res.signal}; expected ${missingLines.join(", ")}; got ${JSON.stringify(out.trim())} ${JSON.stringify((res.stderr ?? "").trim().slice(0, 300))}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
