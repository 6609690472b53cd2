// Minimal HARP v1 app: plain Node, no framework. Reads HOST/PORT/APP_DATA_DIR from the Runtime ABI
// (HARP §8.1) and keeps its only mutable state (a counter) in APP_DATA_DIR. Extra argv words select
// misbehaviours the conformance suite needs: exit-early, never-ready, ignore-term, slow-ready.
import { createServer } from "node:http";
import { connect } from "node:net";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const mode = process.argv.slice(2);
const env = process.env;
const counterFile = join(env.APP_DATA_DIR ?? ".", "counter.txt");
console.log(`fixture starting pid=${process.pid} mode=${mode.join(",") || "normal"}`);
if (mode.includes("exit-early")) {
  console.error("fixture: exiting before ready on purpose");
  process.exit(3);
}
const started = Date.now();
const readCounter = () => { try { return Number(readFileSync(counterFile, "utf8")) || 0; } catch { return 0; } };
const tryWrite = (path) => { try { writeFileSync(path, "x"); return { ok: true }; } catch (e) { return { ok: false, error: e.code ?? String(e) }; } };
const tryConnect = (host, port) => new Promise((done) => {
  const s = connect({ host, port: Number(port), timeout: 1500 });
  s.on("connect", () => { s.destroy(); done({ ok: true }); });
  s.on("timeout", () => { s.destroy(); done({ ok: false, error: "timeout" }); });
  s.on("error", (e) => done({ ok: false, error: e.code ?? String(e) }));
});

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://x");
  const send = (status, body) => { res.writeHead(status, { "content-type": "application/json" }); res.end(JSON.stringify(body)); };
  if (url.pathname === "/health") {
    const ready = !mode.includes("never-ready") && (!mode.includes("slow-ready") || Date.now() - started > 1500);
    return send(ready ? 200 : 503, { ready });
  }
  if (url.pathname === "/env") {
    const keys = ["HOST", "PORT", "APP_DATA_DIR", "APP_CACHE_DIR", "TMPDIR", "APP_ID", "APP_VERSION", "APP_PLATFORM", "HOME", "PATH"];
    return send(200, { env: Object.fromEntries(keys.map((k) => [k, env[k] ?? null])), cwd: process.cwd(), pid: process.pid });
  }
  if (url.pathname === "/counter") {
    if (req.method === "POST") writeFileSync(counterFile, String(readCounter() + 1));
    return send(200, { counter: readCounter() });
  }
  if (url.pathname === "/probe/write") return send(200, tryWrite(url.searchParams.get("path") ?? ""));
  if (url.pathname === "/probe/connect") return send(200, await tryConnect(url.searchParams.get("host"), url.searchParams.get("port")));
  if (url.pathname === "/") { res.writeHead(200, { "content-type": "text/html" }); return res.end("<h1>HARP fixture</h1>"); }
  send(404, { error: "not found" });
});

process.on("SIGTERM", () => {
  if (mode.includes("ignore-term")) { console.log("fixture: ignoring SIGTERM"); return; }
  console.log("fixture: SIGTERM, shutting down");
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 500).unref();
});
server.listen(Number(env.PORT), env.HOST, () => console.log(`fixture listening on http://${env.HOST}:${env.PORT}/`));
