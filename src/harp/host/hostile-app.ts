/**
 * A hostile HARP app (plain Node) for the sandbox attack cases (C31…, `test/harp-sandbox/`). It
 * answers the health check like any app and exposes one endpoint per attack; each endpoint tries the
 * attack for real and reports `{ ok, error }` — `ok: true` means the attack worked. The host-side
 * cases decide what "blocked" means and pair every attack with a positive control that must work,
 * so a broken probe cannot pass. Embedded as text so an installed yaoc can run the cases.
 */
export const HOSTILE_SERVER_MJS = String.raw`// Hostile HARP app: tries to leave its sandbox on request. Never install it outside a test host.
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, connect } from "node:net";
import { createServer as createHttp } from "node:http";

const env = process.env;
const fail = (e) => ({ ok: false, error: (e && e.code) || String(e) });
const attempt = (fn) => { try { return { ok: true, value: fn() }; } catch (e) { return fail(e); } };
const kids = [];

function connectTo(target) {
  return new Promise((done) => {
    const s = connect({ ...target, timeout: 1500 });
    s.on("connect", () => { s.destroy(); done({ ok: true }); });
    s.on("timeout", () => { s.destroy(); done({ ok: false, error: "timeout" }); });
    s.on("error", (e) => done(fail(e)));
  });
}

function listenOn(host, port) {
  return new Promise((done) => {
    const s = createServer((c) => { c.on("error", () => {}); c.end("hostile"); });
    s.on("error", (e) => done(fail(e)));
    s.listen(Number(port), host, () => done({ ok: true, port: s.address().port }));
  });
}

// Allocate memory in a child until it fails or is killed; report how far it got.
function allocate(mb) {
  return new Promise((done) => {
    const code = "const a=[];let n=0;try{for(;n<" + Number(mb) + ";n+=16){a.push(Buffer.alloc(16<<20,1));process.stdout.write(n+16+'\\n');}}catch(e){process.stdout.write('error '+e.message+'\\n');process.exit(3)}";
    const c = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    c.stdout.on("data", (b) => (out += b));
    c.on("error", (e) => done(fail(e)));
    c.on("close", (status, signal) => {
      const nums = out.split("\n").filter((l) => /^[0-9]+$/.test(l)).map(Number);
      const reached = nums.length ? nums[nums.length - 1] : 0;
      done({ ok: reached >= Number(mb) && status === 0, reached, status, signal });
    });
  });
}

// Start processes until the host refuses more; report how many ran at once.
function forkMany(n) {
  return new Promise((done) => {
    const started = [];
    let refused = null;
    for (let i = 0; i < Number(n); i++) {
      let c;
      try { c = spawn("/bin/sleep", ["30"], { stdio: "ignore" }); } catch (e) { refused = e.code || String(e); break; }
      c.on("error", (e) => { refused = refused || e.code || String(e); });
      if (c.pid === undefined) { refused = refused || "no pid"; break; }
      started.push(c);
    }
    setTimeout(() => {
      for (const c of started) { try { c.kill("SIGKILL"); } catch {} }
      done({ ok: started.length >= Number(n), started: started.length, error: refused });
    }, 300);
  });
}

const routes = {
  "/health": async () => ({ ok: true }),
  "/whoami": async () => {
    const status = readFileSync("/proc/self/status", "utf8");
    const field = (k) => (new RegExp("^" + k + ":\\s*(.*)$", "m").exec(status) || [])[1] || null;
    return { ok: true, uid: process.getuid(), gid: process.getgid(), capEff: field("CapEff"), noNewPrivs: field("NoNewPrivs"), pid: process.pid, pidsVisible: readdirSync("/proc").filter((n) => /^[0-9]+$/.test(n)).length };
  },
  "/signal": async (q) => attempt(() => process.kill(Number(q.get("pid")), q.get("sig") || "SIGKILL")),
  "/signal-own-child": async () => {
    const c = spawn("/bin/sleep", ["30"], { stdio: "ignore" });
    await new Promise((r) => setTimeout(r, 100));
    const r = attempt(() => process.kill(c.pid, "SIGKILL"));
    return r;
  },
  "/read": async (q) => attempt(() => readFileSync(q.get("path"), "utf8").slice(0, 200)),
  "/list": async (q) => attempt(() => readdirSync(q.get("path")).slice(0, 50)),
  "/write": async (q) => attempt(() => writeFileSync(q.get("path"), q.get("text") || "pwned")),
  // Open an existing file for writing without creating or truncating it (sysctl, devices).
  "/open-write": async (q) => attempt(() => closeSync(openSync(q.get("path"), "r+"))),
  "/unix": async (q) => connectTo({ path: q.get("path") }),
  "/tcp": async (q) => connectTo({ host: q.get("host"), port: Number(q.get("port")) }),
  // Connect and return what the server says first (network "allow" reaching a test server).
  "/tcp-read": async (q) => new Promise((done) => {
    const s = connect({ host: q.get("host"), port: Number(q.get("port")), timeout: 3000 });
    let got = "";
    s.on("data", (b) => { got += b; });
    s.on("end", () => done({ ok: true, value: got }));
    s.on("timeout", () => { s.destroy(); done({ ok: false, error: "timeout" }); });
    s.on("error", (e) => done(fail(e)));
  }),
  // Exit the whole app at once, as a crash would.
  "/crash": async () => { setTimeout(() => process.exit(70), 50); return { ok: true }; },
  "/listen": async (q) => listenOn(q.get("host"), q.get("port") || 0),
  "/spawn-detached": async (q) => {
    // A setsid'd grandchild re-parented away from the app: survives its parent on a bare host.
    const token = q.get("token");
    const c = spawn("/bin/sh", ["-c", "setsid /bin/sleep 3" + token.replace(/[^0-9]/g, "") + " >/dev/null 2>&1 < /dev/null &"], { detached: true, stdio: "ignore" });
    c.unref();
    await new Promise((r) => c.on("close", r));
    return { ok: true };
  },
  "/alloc": async (q) => allocate(q.get("mb")),
  // A tree deeper than any recursive remover's stack, with links out of it at the bottom.
  "/deep": async (q) => attempt(() => {
    const back = process.cwd();
    process.chdir(q.get("dir"));
    try {
      for (let i = 0; i < Number(q.get("n")); i++) { mkdirSync("d"); process.chdir("d"); }
      writeFileSync("leaf.txt", "x");
      symlinkSync(q.get("link"), "escape");
      symlinkSync("/", "root-link");
    } finally { process.chdir(back); }
    return Number(q.get("n"));
  }),
  "/fork": async (q) => forkMany(q.get("n")),
};

const server = createHttp(async (req, res) => {
  const url = new URL(req.url || "/", "http://x");
  const route = routes[url.pathname];
  let body;
  try { body = route ? await route(url.searchParams) : { ok: false, error: "no such attack" }; } catch (e) { body = fail(e); }
  res.writeHead(route ? 200 : 404, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
});
server.on("clientError", (e, s) => s.destroy());
process.on("SIGTERM", () => { server.close(); process.exit(0); });
server.listen(Number(env.PORT), env.HOST);
`;

export const HOSTILE_MANIFEST = (id: string, permissions: Record<string, string>): string =>
  `${JSON.stringify(
    {
      schemaVersion: 1,
      id,
      name: "Hostile test app",
      version: "1.0.0",
      runtime: { kind: "http" },
      start: { argv: ["node", "server.mjs"] },
      health: { path: "/health", timeoutMs: 15000 },
      permissions,
    },
    null,
    2,
  )}\n`;
