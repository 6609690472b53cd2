/**
 * network "allow" through the real CLI (issue 27): the app gets outbound connectivity from the
 * user-mode helper (slirp4netns), never the host's loopback, and nothing reaches it but the bridge.
 *
 * Every packet stays on this machine: the test makes its own network namespace (`unshare --net`)
 * holding a TEST-NET-1 address (192.0.2.1/24, RFC 5737) on a dummy interface (a veth pair where the
 * kernel has no dummy driver), a TCP server there, a server on that namespace's 127.0.0.1 (the
 * "host loopback" of the host that runs inside it), and a control server on a Unix socket through
 * which the test connects from inside the namespace. The host (`yaoc harp …`) runs in that namespace
 * through `nsenter`, as root and as uid 65534 (user-namespace mode). No other address is ever used.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chownSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HarpHost, processAlive } from "../../src/harp/host/host.js";
import { HOSTILE_MANIFEST, HOSTILE_SERVER_MJS } from "../../src/harp/host/hostile-app.js";
import { findNetworkHelper, NETWORK_HELPER, SLIRP_GATEWAY } from "../../src/harp/host/sandbox.js";
import { hostPidsWith, waitFor, writeApp } from "../../src/harp/host/sandbox-cases.js";
import { NO_SANDBOX, REQUIRE_SYSTEM_TOOLS } from "../support/system-tools.js";
import { NO_NOBODY_RUN, NOBODY } from "../support/unprivileged.js";
import { appWorkspace, clean, yaoc } from "./helpers.js";

const TOOLS = { unshare: "/usr/bin/unshare", nsenter: "/usr/bin/nsenter", setpriv: "/usr/bin/setpriv" };
const IP = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].find((p) => existsSync(p)) ?? null;

/** Why this machine cannot build the test's network world, or null. */
function whyNot(): string | null {
  if (NO_SANDBOX !== null) return `no HARP sandbox here (${NO_SANDBOX})`;
  if (findNetworkHelper() === null) return `${NETWORK_HELPER} is not installed (apt-get install slirp4netns)`;
  if (process.getuid?.() !== 0) return "making a network namespace with its own addresses needs root (CI runs as root)";
  for (const [name, p] of Object.entries(TOOLS)) if (!existsSync(p)) return `${name} (util-linux) is missing`;
  if (IP === null) return "ip (iproute2) is missing";
  return null;
}
const NO_WORLD = whyNot();
if (NO_WORLD !== null && !REQUIRE_SYSTEM_TOOLS)
  process.stderr.write(`test/harp-sandbox/network.test.ts: network "allow" tests are skipped: ${NO_WORLD}\n`);
const SKIP = NO_WORLD !== null && !REQUIRE_SYSTEM_TOOLS;

/** The test's namespace: addresses, servers and a control socket answering from inside it. */
const WORLD_JS = String.raw`
const { execFileSync } = require("node:child_process");
const net = require("node:net");
const http = require("node:http");
const [ip, sock] = process.argv.slice(1);
const run = (...a) => execFileSync(ip, a, { stdio: ["ignore", "ignore", "pipe"] });
run("link", "set", "lo", "up");
try { run("link", "add", "t27", "type", "dummy"); } catch { run("link", "add", "t27", "type", "veth", "peer", "name", "t27p"); run("link", "set", "t27p", "up"); }
run("addr", "add", "192.0.2.1/24", "dev", "t27");
run("link", "set", "t27", "up");
const say = (text) => net.createServer((c) => { c.on("error", () => {}); c.end(text); });
const testNet = say("hello from 192.0.2.1\n").listen(0, "192.0.2.1");
const loop = say("host loopback service\n").listen(0, "127.0.0.1");
function connectTo(host, port) {
  return new Promise((done) => {
    const s = net.connect({ host, port, timeout: 1500 });
    let got = "";
    s.on("data", (b) => { got += b; });
    let connected = false;
    // The servers say one line and close: answer at the close, however slow a loaded machine is.
    s.on("connect", () => { connected = true; s.setTimeout(10000); });
    s.on("end", () => { s.destroy(); done({ ok: true, value: got }); });
    s.on("timeout", () => { s.destroy(); done(connected ? { ok: true, value: got } : { ok: false, error: "timeout" }); });
    s.on("error", (e) => done({ ok: false, error: e.code || String(e) }));
  });
}
function get(url) {
  return new Promise((done) => {
    const r = http.get(url, { timeout: 5000 }, (res) => { let b = ""; res.on("data", (c) => (b += c)); res.on("end", () => done({ ok: true, status: res.statusCode, body: b })); });
    r.on("timeout", () => { r.destroy(); done({ ok: false, error: "timeout" }); });
    r.on("error", (e) => done({ ok: false, error: e.code || String(e) }));
  });
}
const control = http.createServer(async (req, res) => {
  const u = new URL(req.url, "http://x");
  const q = u.searchParams;
  const body = u.pathname === "/connect" ? await connectTo(q.get("host"), Number(q.get("port"))) : await get(q.get("url"));
  res.end(JSON.stringify(body));
});
let n = 0;
const up = () => { if (++n === 3) process.stdout.write(JSON.stringify({ testNet: testNet.address().port, loopback: loop.address().port }) + "\n"); };
testNet.on("listening", up); loop.on("listening", up); control.listen(sock, up);
`;

type Json = Record<string, unknown>;
const { root, newHome, track } = appWorkspace("yaoc-harp-net-");
let world: ChildProcess | null = null;
let ports = { testNet: 0, loopback: 0 };
const controlSocket = join(root, "control.sock");

/** One request answered from inside the test's namespace. */
function inside(path: string, params: Record<string, string | number>): Promise<Json> {
  const q = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
  return new Promise((resolve, reject) => {
    const r = request({ socketPath: controlSocket, path: `${path}?${q}` }, (res) => {
      let b = "";
      res.on("data", (c: Buffer) => (b += c.toString()));
      res.on("end", () => resolve(JSON.parse(b) as Json));
    });
    r.on("error", reject);
    r.end();
  });
}

beforeAll(async () => {
  if (SKIP) return;
  expect(NO_WORLD, "CI installs slirp4netns and runs as root").toBeNull();
  world = spawn(TOOLS.unshare, ["--net", process.execPath, "-e", WORLD_JS, IP!, controlSocket], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  world.stderr!.on("data", (b: Buffer) => (err += b.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    let out = "";
    world!.stdout!.on("data", (b: Buffer) => {
      out += b.toString();
      if (out.includes("\n")) resolve(out);
    });
    world!.on("exit", (code) => reject(new Error(`the test namespace exited (${code}): ${err}`)));
  });
  ports = JSON.parse(line) as typeof ports;
}, 30_000);

afterAll(() => {
  world?.kill("SIGKILL");
});

/** The real CLI inside the test's namespace, as root or (wrap) as uid 65534. */
function cli(args: string[], home: string, asNobody: boolean) {
  const wrap = [TOOLS.nsenter, `--net=/proc/${world!.pid}/ns/net`, "--"];
  if (asNobody) wrap.push(TOOLS.setpriv, `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups");
  return yaoc(["harp", ...args], { wrap, env: { YAOC_HARP_HOME: home, HOME: home } });
}

interface Pids {
  sandboxPid: number | null;
  helperPid: number | null;
  helperStart: string | null;
}
const pidsOf = (h: HarpHost, id: string) =>
  JSON.parse(readFileSync(join(h.layout.run(id), "app.json"), "utf8")) as Pids;

/** No network helper of this sandbox is alive: not the recorded pid, and no other one naming the sandbox. */
function noHelperLeft(p: Pids): boolean {
  const named =
    p.sandboxPid === null
      ? []
      : [
          ...hostPidsWith(`${NETWORK_HELPER}`).filter((pid) => {
            try {
              const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
              return cmd.includes(`\u0000${p.sandboxPid}\u0000`) || cmd.includes(`/proc/${p.sandboxPid}/`);
            } catch {
              return false;
            }
          }),
        ];
  return !processAlive(p.helperPid, p.helperStart) && named.length === 0;
}

for (const asNobody of [false, true]) {
  const who = asNobody ? `as uid ${NOBODY} (user namespace)` : "as root";
  const skipNobody = asNobody && NO_NOBODY_RUN !== null;
  describe.skipIf(SKIP || skipNobody)(`network "allow" ${who} (skipped without bwrap)`, () => {
    const home = join(root, asNobody ? "home-nobody" : "home-root");
    const run = (...args: string[]) => cli(args, home, asNobody);
    const h = new HarpHost({ home });
    const url = (id: string) => h.state(id)!.url;
    const app = (id: string, network: string) =>
      writeApp(
        join(root, `${asNobody ? "n" : "r"}-${id}`),
        HOSTILE_MANIFEST(id, { network, filesystem: "data-only" }),
        HOSTILE_SERVER_MJS,
      );
    /** A request the app makes, sent to it through the host's bridge (from inside the namespace). */
    const viaApp = async (id: string, path: string, q: Record<string, string | number>): Promise<Json> => {
      const r = await inside("/get", {
        url: `${url(id)}${path}?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]))}`,
      });
      expect(r["ok"], JSON.stringify(r)).toBe(true);
      return JSON.parse(r["body"] as string) as Json;
    };

    beforeAll(async () => {
      mkdirSync(home, { recursive: true });
      if (asNobody) chownSync(home, NOBODY, NOBODY);
      track(home);
      for (const [id, network] of [
        ["net-allow", "allow"],
        ["net-loopback", "loopback"],
        ["net-none", "none"],
      ] as const) {
        const i = await run("install", app(id, network));
        expect(i.code, i.stderr).toBe(0);
      }
      const refused = await run("start", "net-allow");
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("harp.network_consent_required");
      const s = await run("start", "--allow-network", "net-allow");
      expect(s.code, s.stderr).toBe(0);
      expect(clean(s.stderr)).toBe(true);
      for (const id of ["net-loopback", "net-none"]) expect((await run("start", id)).code).toBe(0);
    }, 180_000);

    afterAll(async () => {
      for (const id of ["net-allow", "net-loopback", "net-none"]) await run("stop", id);
    }, 60_000);

    it("allow connects to the test namespace's 192.0.2.1 and gets the server's answer; loopback and none cannot", async () => {
      const target = { host: "192.0.2.1", port: ports.testNet };
      // Positive control: the server answers inside the namespace.
      expect(await inside("/connect", target)).toMatchObject({ ok: true, value: "hello from 192.0.2.1\n" });
      expect(await viaApp("net-allow", "/tcp-read", target)).toMatchObject({
        ok: true,
        value: "hello from 192.0.2.1\n",
      });
      for (const id of ["net-loopback", "net-none"]) {
        const r = await viaApp(id, "/tcp-read", target);
        expect(r, id).toMatchObject({ ok: false });
      }
    }, 60_000);

    it("allow cannot reach a server on the host's 127.0.0.1 (host loopback is not mapped)", async () => {
      expect(await inside("/connect", { host: "127.0.0.1", port: ports.loopback })).toMatchObject({
        ok: true,
        value: "host loopback service\n",
      });
      for (const host of [SLIRP_GATEWAY, "127.0.0.1"])
        expect(await viaApp("net-allow", "/tcp-read", { host, port: ports.loopback }), host).toMatchObject({
          ok: false,
        });
      // Nor another app's bridge port on the host loopback.
      expect(await viaApp("net-allow", "/tcp", { host: SLIRP_GATEWAY, port: h.state("net-none")!.port })).toMatchObject(
        {
          ok: false,
        },
      );
    }, 60_000);

    it("an app's 0.0.0.0 listener is unreachable from the 192.0.2.1 side; only the bridge reaches the app", async () => {
      const l = await viaApp("net-allow", "/listen", { host: "0.0.0.0", port: 0 });
      expect(l["ok"]).toBe(true);
      const port = Number(l["port"]);
      // Positive controls: the listener works inside the app's namespace, and the bridge reaches the app.
      expect(await viaApp("net-allow", "/tcp", { host: "127.0.0.1", port })).toMatchObject({ ok: true });
      expect(await inside("/get", { url: `${url("net-allow")}/health` })).toMatchObject({ ok: true, status: 200 });
      for (const host of ["192.0.2.1", "127.0.0.1", "10.0.2.100"])
        expect(await inside("/connect", { host, port }), host).toMatchObject({ ok: false });
    }, 60_000);

    it("no network helper outlives stop, a SIGKILLed supervisor (cleaned by the next command) or a crashed app", async () => {
      let p = pidsOf(h, "net-allow");
      expect(processAlive(p.helperPid, p.helperStart), "the helper runs while the app does").toBe(true);
      expect((await run("stop", "net-allow")).code).toBe(0);
      expect(noHelperLeft(p), "after stop").toBe(true);

      expect((await run("start", "--allow-network", "net-allow")).code).toBe(0);
      p = pidsOf(h, "net-allow");
      expect(processAlive(p.helperPid, p.helperStart)).toBe(true);
      process.kill(h.state("net-allow")!.supervisorPid, "SIGKILL");
      const next = await run("stop", "net-allow");
      expect(next.code, next.stderr).toBe(0);
      expect(noHelperLeft(p), "after SIGKILL of the supervisor and the next command").toBe(true);

      expect((await run("start", "--allow-network", "net-allow")).code).toBe(0);
      p = pidsOf(h, "net-allow");
      expect(processAlive(p.helperPid, p.helperStart)).toBe(true);
      expect(await viaApp("net-allow", "/crash", {})).toMatchObject({ ok: true });
      expect(await waitFor(() => noHelperLeft(p), 10_000), "after the app crashed").toBe(true);
    }, 120_000);
  });
}

describe('without a working network helper, network "allow" is refused', () => {
  it("with harp.permission_unenforceable, after the consent check, naming the package to install", async () => {
    const home = newHome("no-helper");
    const measured = {
      platform: "linux",
      tools: {
        bwrap: "/nonexistent/bwrap",
        setpriv: "/nonexistent/setpriv",
        prlimit: "/nonexistent/prlimit",
        sh: "/bin/sh",
      },
      mode: "userns" as const,
      network: ["none", "loopback"] as const,
      filesystem: ["data-only", "none"] as const,
      properties: {},
      limits: { memory: null, pids: null, cpu: null },
      cgroupBases: {},
      notes: ['network "allow" is refused: slirp4netns is not installed'],
    };
    const h = new HarpHost({ home, sandbox: measured });
    await h.install(
      writeApp(join(root, "no-helper-app"), HOSTILE_MANIFEST("no-helper", { network: "allow" }), HOSTILE_SERVER_MJS),
    );
    await expect(h.start("no-helper")).rejects.toMatchObject({
      diagnostics: [{ code: "harp.network_consent_required" }],
    });
    const e = await h.start("no-helper", { allowNetwork: true }).catch((x: unknown) => x);
    expect(e).toMatchObject({ diagnostics: [{ code: "harp.permission_unenforceable" }] });
    const d = (e as { diagnostics: { message: string; hint?: string }[] }).diagnostics[0]!;
    expect(d.message).toContain('"allow" cannot be enforced');
    expect(d.hint).toContain("apt-get install slirp4netns");
    expect(h.isRunning("no-helper")).toBe(false);
  });
});
