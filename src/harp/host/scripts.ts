/**
 * Two small self-contained Node programs the host writes into `<home>/lib/` and runs. They are kept
 * as text (no imports from yaoc) so they run the same whether yaoc runs from source or from dist,
 * and so the supervisor keeps running after the `yaoc harp start` process exits.
 */

/**
 * The per-app supervisor, detached from the CLI. It starts the sandbox (bwrap, see sandbox.ts) with
 * output appended to the log, learns the sandbox's init pid from bwrap's `--info-fd`, runs the
 * loopback→Unix-socket bridge, and on SIGTERM stops the app: SIGTERM to every process in the
 * sandbox, the grace period, then SIGKILL to the sandbox's init, which makes the kernel kill every
 * process left in the app's PID namespace (setsid and double-forked ones included). bwrap runs with
 * `--die-with-parent`, so a crash or SIGKILL of this supervisor takes the whole sandbox with it.
 * For network "allow" it attaches the network helper (slirp4netns) to the sandbox's network namespace
 * while bwrap waits on `--block-fd`, and unblocks the app once the helper is ready; the helper is
 * stopped with the app, and its exit pipe makes it exit whenever this supervisor dies.
 * When the sandbox is gone it records the exit in `exit.json`, removes the app's cgroups and exits.
 */
export const SUPERVISOR_JS = String.raw`
import { spawn } from "node:child_process";
import { appendFileSync, lstatSync, openSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";

const cfg = JSON.parse(readFileSync(process.argv[2], "utf8"));
const log = openSync(cfg.logFile, "a");
const note = (m) => { try { appendFileSync(log, "[yaoc-harp " + new Date().toISOString() + "] " + m + "\n"); } catch {} };
const stat = (pid) => { try { const s = readFileSync("/proc/" + pid + "/stat", "utf8"); return s.slice(s.lastIndexOf(")") + 2).split(" "); } catch { return null; } };
const startOf = (pid) => stat(pid)?.[19] ?? null;
// Alive = exists and is not a zombie.
const alive = (pid) => { const f = stat(pid); return f !== null && f[0] !== "Z"; };
const kill = (pid, sig) => { try { process.kill(pid, sig); } catch {} };
function descendants(root) {
  const kids = new Map();
  let names = [];
  try { names = readdirSync("/proc").filter((n) => /^[0-9]+$/.test(n)); } catch {}
  for (const n of names) {
    const f = stat(n);
    if (f === null) continue;
    const pp = Number(f[1]);
    if (!kids.has(pp)) kids.set(pp, []);
    kids.get(pp).push(Number(n));
  }
  const out = [];
  const todo = [root];
  while (todo.length > 0) for (const k of kids.get(todo.pop()) ?? []) { out.push(k); todo.push(k); }
  return out;
}

let child = null;
let sandboxPid = null;
let stopping = false;
let forced = false;
let finished = false;
let bridge = null;

process.on("uncaughtException", (e) => { note("supervisor error: " + (e && e.message)); finish(null, null, "supervisor error: " + (e && e.message)); });
process.on("SIGTERM", () => stop());
process.on("SIGINT", () => stop());
process.on("SIGHUP", () => {});

if (cfg.bridge) {
  bridge = createServer((c) => {
    c.on("error", () => {});
    // Connect only to a real socket, never through a link the app may have planted.
    let st = null;
    try { st = lstatSync(cfg.bridge.socket); } catch {}
    if (st === null || !st.isSocket()) { c.destroy(); return; }
    const u = connect(cfg.bridge.socket);
    c.on("error", () => u.destroy());
    u.on("error", () => c.destroy());
    c.pipe(u).pipe(c);
  });
  bridge.on("error", (e) => { note("bridge error: " + e.message); stop(); });
  bridge.listen(cfg.bridge.port, cfg.bridge.host);
}

note("starting " + JSON.stringify(cfg.appArgv) + " in the sandbox");
// network "allow": bwrap waits on fd 4 (--block-fd) until the network helper is attached and ready.
const stdio = cfg.networkHelper ? ["ignore", log, log, "pipe", "pipe"] : ["ignore", log, log, "pipe"];
child = spawn(cfg.argv[0], cfg.argv.slice(1), { cwd: cfg.cwd, env: cfg.env, stdio });
const outer = child.pid;
let helper = null;
const record = () => writeFileSync(cfg.pidFile, JSON.stringify({
  outerPid: outer ?? null, outerStart: outer ? startOf(outer) : null,
  sandboxPid, sandboxStart: sandboxPid === null ? null : startOf(sandboxPid),
  helperPid: helper?.pid ?? null, helperStart: helper?.pid ? startOf(helper.pid) : null,
}));
record();
let info = "";
child.stdio[3].on("error", () => {});
if (child.stdio[4]) child.stdio[4].on("error", () => {});
child.stdio[3].on("data", (b) => {
  info += b.toString();
  const m = /"child-pid"\s*:\s*([0-9]+)/.exec(info);
  if (m && sandboxPid === null) {
    sandboxPid = Number(m[1]);
    record();
    if (stopping) return stop(true);
    if (cfg.networkHelper) attachNetwork();
  }
});

// The helper's exit pipe (its fd 4) is held only by this process: when it dies for any reason, the
// kernel closes it and the helper exits, so the helper never outlives the supervisor.
// bwrap brings up the namespace's loopback after it reports the pid; a helper configuring its own
// interface at the same moment makes bwrap's netlink request fail. Wait until lo is up (its
// addresses are routed), at most 3 s.
function loopbackUp(pid) {
  for (const f of ["fib_trie", "if_inet6"]) {
    try { if (/127\.0\.0\.1|0{31}1 /.test(readFileSync("/proc/" + pid + "/net/" + f, "utf8"))) return true; } catch {}
  }
  return false;
}
async function attachNetwork() {
  for (let i = 0; i < 300 && !loopbackUp(sandboxPid); i++) await new Promise((r) => setTimeout(r, 10));
  if (stopping || finished) return;
  const args = cfg.networkHelper.map((a) => a.split(cfg.sandboxPidSlot).join(String(sandboxPid)));
  note("network: attaching " + args[0] + " to the app's network namespace");
  helper = spawn(args[0], args.slice(1), { stdio: ["ignore", "ignore", log, "pipe", "pipe"] });
  record();
  helper.on("error", (e) => { note("network helper could not start: " + e.message); stop(); });
  helper.stdio[3].on("error", () => {});
  helper.stdio[4].on("error", () => {});
  helper.stdio[3].once("data", () => {
    note("network: outbound network is up");
    try { child.stdio[4].write("1"); } catch {}
  });
  helper.on("exit", (code, signal) => {
    note("network helper exited: code=" + code + " signal=" + signal);
    // Without its network the app must not run on (or start): stop it.
    if (!finished) stop();
  });
}
child.on("error", (e) => { note("could not start: " + e.message); finish(null, null, e.message); });
child.on("exit", (code, signal) => { note("app exited: code=" + code + " signal=" + signal); finish(code, signal, null); });

function stop(again) {
  if (stopping && !again) return;
  stopping = true;
  if (sandboxPid === null) { forced = true; if (outer) kill(outer, "SIGKILL"); return; }
  note("stop: SIGTERM to every process of the app, grace " + cfg.graceMs + " ms");
  for (const p of descendants(sandboxPid)) kill(p, "SIGTERM");
  setTimeout(() => {
    if (alive(sandboxPid) || (outer && alive(outer))) {
      note("stop: grace period over, SIGKILL");
      forced = true;
      kill(sandboxPid, "SIGKILL");
      if (outer) kill(outer, "SIGKILL");
    }
  }, cfg.graceMs).unref();
}

async function finish(code, signal, error) {
  if (finished) return;
  finished = true;
  // The app is the whole PID namespace: make sure its init (and so every process in it) is gone.
  if (sandboxPid !== null && alive(sandboxPid)) kill(sandboxPid, "SIGKILL");
  for (let i = 0; i < 100 && sandboxPid !== null && alive(sandboxPid); i++) await new Promise((r) => setTimeout(r, 20));
  for (const d of cfg.cgroups ?? []) {
    for (let i = 0; i < 50; i++) { try { rmdirSync(d); break; } catch (e) { if (e.code === "ENOENT") break; await new Promise((r) => setTimeout(r, 20)); } }
  }
  if (helper && helper.exitCode === null && helper.signalCode === null) {
    try { helper.stdio[4].end(); } catch {}
    for (let i = 0; i < 50 && alive(helper.pid); i++) await new Promise((r) => setTimeout(r, 20));
    if (alive(helper.pid)) kill(helper.pid, "SIGKILL");
  }
  try { writeFileSync(cfg.exitFile, JSON.stringify({ code, signal, error, stopped: stopping, forced })); } catch {}
  if (bridge) bridge.close();
  process.exit(0);
}
`;

/**
 * The forwarder inside an app's private network namespace: accepts on the Unix socket and connects
 * to the app on the namespace's own loopback. Runs inside the sandbox, as the app's user.
 */
export const BRIDGE_IN_JS = String.raw`
import { connect, createServer } from "node:net";
import { rmSync } from "node:fs";
const [socket, port] = process.argv.slice(2);
try { rmSync(socket, { force: true }); } catch {}
const server = createServer((c) => {
  const u = connect({ host: "127.0.0.1", port: Number(port) });
  c.on("error", () => u.destroy());
  u.on("error", () => c.destroy());
  c.pipe(u).pipe(c);
});
server.on("error", (e) => { console.error("yaoc-sandbox: bridge: " + e.message); process.exit(125); });
server.listen(socket);
`;
