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
child = spawn(cfg.argv[0], cfg.argv.slice(1), { cwd: cfg.cwd, env: cfg.env, stdio: ["ignore", log, log, "pipe"] });
const outer = child.pid;
writeFileSync(cfg.pidFile, JSON.stringify({ outerPid: outer ?? null, outerStart: outer ? startOf(outer) : null, sandboxPid: null, sandboxStart: null }));
let info = "";
child.stdio[3].on("error", () => {});
child.stdio[3].on("data", (b) => {
  info += b.toString();
  const m = /"child-pid"\s*:\s*([0-9]+)/.exec(info);
  if (m && sandboxPid === null) {
    sandboxPid = Number(m[1]);
    writeFileSync(cfg.pidFile, JSON.stringify({ outerPid: outer, outerStart: startOf(outer), sandboxPid, sandboxStart: startOf(sandboxPid) }));
    if (stopping) stop(true);
  }
});
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
