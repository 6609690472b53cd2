/**
 * Two small self-contained Node programs the host writes into `<home>/lib/` and runs. They are kept
 * as text (no imports from yaoc) so they run the same whether yaoc runs from source or from dist,
 * and so the supervisor keeps running after the `yaoc harp start` process exits.
 */

/**
 * The per-app supervisor, detached from the CLI. It owns the app's process group: starts it with
 * output appended to the log, runs the loopback→Unix-socket bridge for network-isolated apps, and on
 * SIGTERM stops the app (SIGTERM to the group, grace period, SIGKILL) before exiting. When the app
 * exits it records the exit status in `exit.json`, kills leftovers of the group, and exits.
 */
export const SUPERVISOR_JS = String.raw`
import { spawn } from "node:child_process";
import { appendFileSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";

const cfg = JSON.parse(readFileSync(process.argv[2], "utf8"));
const log = openSync(cfg.logFile, "a");
const note = (m) => appendFileSync(log, "[yaoc-harp " + new Date().toISOString() + "] " + m + "\n");
const alive = (pgid) => { try { process.kill(-pgid, 0); return true; } catch { return false; } };

let bridge = null;
if (cfg.bridge) {
  bridge = createServer((c) => {
    const u = connect(cfg.bridge.socket);
    c.pipe(u).pipe(c);
    c.on("error", () => u.destroy());
    u.on("error", () => c.destroy());
  });
  bridge.on("error", (e) => { note("bridge error: " + e.message); process.exit(70); });
  bridge.listen(cfg.bridge.port, cfg.bridge.host);
}

note("starting: " + JSON.stringify(cfg.argv));
const child = spawn(cfg.argv[0], cfg.argv.slice(1), { cwd: cfg.cwd, env: cfg.env, stdio: ["ignore", log, log], detached: true });
const pgid = child.pid;
writeFileSync(cfg.pidFile, JSON.stringify({ appPid: child.pid }));
let stopping = false;

child.on("error", (e) => {
  note("could not start: " + e.message);
  writeFileSync(cfg.exitFile, JSON.stringify({ code: null, signal: null, error: e.message }));
  process.exit(0);
});
child.on("exit", (code, signal) => {
  note("app exited: code=" + code + " signal=" + signal);
  writeFileSync(cfg.exitFile, JSON.stringify({ code, signal, stopped: stopping }));
  // Leftovers of the group (e.g. the in-namespace bridge, app children) go with the app.
  try { process.kill(-pgid, "SIGKILL"); } catch {}
  if (bridge) bridge.close();
  process.exit(0);
});

function stop() {
  if (stopping) return;
  stopping = true;
  note("stop: SIGTERM to the app's process group, grace " + cfg.graceMs + " ms");
  try { process.kill(-pgid, "SIGTERM"); } catch {}
  setTimeout(() => {
    if (alive(pgid)) { note("stop: grace period over, SIGKILL"); try { process.kill(-pgid, "SIGKILL"); } catch {} }
  }, cfg.graceMs).unref();
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
process.on("SIGHUP", () => {});
`;

/**
 * The forwarder inside an app's private network namespace: accepts on the Unix socket and connects
 * to the app on the namespace's own loopback. Runs with all capabilities dropped.
 */
export const BRIDGE_IN_JS = String.raw`
import { connect, createServer } from "node:net";
import { rmSync } from "node:fs";
const [socket, port] = process.argv.slice(2);
try { rmSync(socket, { force: true }); } catch {}
createServer((c) => {
  const u = connect({ host: "127.0.0.1", port: Number(port) });
  c.pipe(u).pipe(c);
  c.on("error", () => u.destroy());
  u.on("error", () => c.destroy());
}).listen(socket);
`;
