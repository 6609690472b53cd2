/**
 * The HARP v1 host conformance suite (Node-only). Each case is one MUST of §7–§10, §13 and §17's
 * host obligations, run against the real host with real processes in a throw-away host root.
 * C02, C03 and C15 keep the seed's numbers; the list is published in docs/harp.md.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { NodeFs } from "../../fs/node-fs.js";
import { checkHarp, detectHarp } from "../check.js";
import { PLATFORMS, type Platform } from "../manifest.js";
import { FIXTURE_MANIFEST_JSON, FIXTURE_SERVER_MJS } from "./fixture-app.js";
import { HarpHost, HostError, processAlive, type HostOptions } from "./host.js";
import { removeTree } from "./remove-tree.js";
import { probeSandbox, resetSandboxProbe, type SandboxCapabilities } from "./sandbox.js";
import { SANDBOX_CASES, SandboxWorld } from "./sandbox-cases.js";

export interface ConformanceResult {
  readonly id: string;
  readonly title: string;
  readonly clause: string;
  readonly passed: boolean;
  readonly detail: string;
  readonly ms: number;
}

/** State shared by the cases of one run: the sandbox cases' installed home is built once. */
export class Shared {
  private worldPromise: Promise<SandboxWorld> | null = null;
  world(): Promise<SandboxWorld> {
    this.worldPromise ??= SandboxWorld.create();
    return this.worldPromise;
  }
  /** Stop every process the shared world started and remove its files. */
  async close(): Promise<void> {
    const w = this.worldPromise;
    this.worldPromise = null;
    if (w !== null) await (await w.catch(() => null))?.close();
  }
}

export class Ctx {
  readonly root: string;
  private readonly hosts: HarpHost[] = [];
  private readonly servers: Server[] = [];
  private n = 0;
  constructor(readonly shared: Shared) {
    this.root = mkdtempSync(join(tmpdir(), "yaoc-harp-conf-"));
  }

  host(opts: Omit<HostOptions, "home"> = {}, home = join(this.root, "home")): HarpHost {
    const h = new HarpHost({ graceMs: 1_000, ...opts, home });
    this.hosts.push(h);
    return h;
  }

  /** A copy of the fixture app with a patched manifest and extra files; returns its directory. */
  app(patch: Record<string, unknown> = {}, files: Record<string, string> = {}): string {
    const dir = join(this.root, `pkg-${++this.n}`);
    mkdirSync(dir, { recursive: true });
    const m = { ...(JSON.parse(FIXTURE_MANIFEST_JSON) as Record<string, unknown>), ...patch };
    for (const [k, v] of Object.entries(m)) if (v === undefined) delete m[k];
    writeFileSync(join(dir, "harp.json"), JSON.stringify(m, null, 2));
    writeFileSync(join(dir, "server.mjs"), FIXTURE_SERVER_MJS);
    for (const [p, c] of Object.entries(files)) {
      mkdirSync(join(dir, p, ".."), { recursive: true });
      writeFileSync(join(dir, p), c);
    }
    return dir;
  }

  /** A TCP service on the host; a probe that connects and hangs up (ECONNRESET) is expected. */
  async listen(host: string): Promise<number> {
    const s = createServer((c) => {
      c.on("error", () => undefined);
      c.end("hi");
    });
    s.on("error", () => undefined);
    this.servers.push(s);
    await new Promise<void>((resolve, reject) => {
      s.once("error", reject);
      s.listen(0, host, () => resolve());
    });
    const a = s.address();
    return typeof a === "object" && a !== null ? a.port : 0;
  }

  async cleanup(): Promise<void> {
    // uninstall stops the app and removes its read-only bundle.
    for (const h of this.hosts)
      for (const id of h.installedIds()) await h.uninstall(id, { purge: true }).catch(() => undefined);
    for (const s of this.servers) s.close();
    try {
      removeTree(this.root);
    } catch {
      // Leftovers in the temp dir must not turn a passing case into a failure.
    }
  }
}

function ok(cond: unknown, msg: string): asserts cond {
  if (!cond) throw new Error(msg);
}

async function rejects(p: Promise<unknown>, code: string): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof HostError) {
      const codes = e.diagnostics.map((d) => d.code);
      ok(codes.includes(code), `expected ${code}, got ${codes.join(", ")}: ${e.message}`);
      return e.message;
    }
    throw e;
  }
  throw new Error(`expected the host to refuse with ${code}, but it succeeded`);
}

async function getJson(url: string): Promise<Record<string, unknown>> {
  const r = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  return (await r.json()) as Record<string, unknown>;
}

async function validationCodes(ctx: Ctx, patch: Record<string, unknown>): Promise<string[]> {
  const r = await checkHarp(new NodeFs(), ctx.app(patch));
  return r.diagnostics.filter((d) => d.severity === "error").map((d) => d.code);
}

function nonLoopbackAddress(): string | null {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  }
  return null;
}

const ID = "harp-fixture";
const here = (): Platform | null => {
  const t = `${process.platform}-${process.arch}`;
  return (PLATFORMS as readonly string[]).includes(t) ? (t as Platform) : null;
};

export interface Case {
  readonly id: string;
  readonly title: string;
  readonly clause: string;
  readonly run: (ctx: Ctx) => Promise<void>;
}

export const CASES: readonly Case[] = [
  {
    id: "C01",
    title: "schema validation returns field pointer + reason",
    clause: "§7.7, §17 host 1",
    run: async (ctx) => {
      const r = await checkHarp(new NodeFs(), ctx.app({ id: "Bad Id", start: { argv: [] } }));
      ok(!r.valid, "an invalid manifest was accepted");
      const ptrs = r.diagnostics.map((d) => d.pointer);
      ok(ptrs.includes("/id") && ptrs.includes("/start/argv"), `pointers: ${ptrs.join(", ")}`);
      ok(
        r.diagnostics.every((d) => d.message.length > 0 && d.span !== undefined),
        "every error needs a reason and a position",
      );
      ok((await checkHarp(new NodeFs(), ctx.app())).valid, "the fixture manifest must validate");
    },
  },
  {
    id: "C02",
    title: "unknown non-x- members (incl. ready, operations) rejected; x-<vendor> ignored",
    clause: "§7.3, §7.6, §10.4",
    run: async (ctx) => {
      ok((await validationCodes(ctx, { ready: { kind: "http" } })).includes("harp.reserved_field"), "ready accepted");
      ok((await validationCodes(ctx, { operations: [] })).includes("harp.reserved_field"), "operations accepted");
      ok((await validationCodes(ctx, { homepage: "x" })).includes("harp.unknown_field"), "unknown member accepted");
      ok((await validationCodes(ctx, { "x-acme": { anything: true } })).length === 0, "x- member not ignored");
      await rejects(ctx.host().install(ctx.app({ ready: { kind: "http" } })), "harp.reserved_field");
    },
  },
  {
    id: "C03",
    title: "unknown runtime.kind rejected as invalid",
    clause: "§7.4, §17 host 5",
    run: async (ctx) => {
      const codes = await validationCodes(ctx, { runtime: { kind: "grpc" } });
      ok(codes.length === 1 && codes[0] === "harp.invalid_kind", `got ${codes.join(", ")}`);
      await rejects(ctx.host().install(ctx.app({ runtime: { kind: "grpc" } })), "harp.invalid_kind");
    },
  },
  {
    id: "C04",
    title: "higher schemaVersion refused without guessing; non-HARP harp.json recognised",
    clause: "§12, §7.1",
    run: async (ctx) => {
      const codes = await validationCodes(ctx, { schemaVersion: 2, newThing: 1 });
      ok(codes.length === 1 && codes[0] === "harp.unsupported_schema_version", `got ${codes.join(", ")}`);
      const site = join(ctx.root, "site");
      mkdirSync(site);
      writeFileSync(join(site, "harp.json"), '{"globals":{"siteName":"x"}}');
      ok(!(await detectHarp(new NodeFs(), site)), "a Harp static-site config was detected as HARP");
      const r = await checkHarp(new NodeFs(), site);
      ok(r.diagnostics[0]?.code === "harp.not_a_manifest", "static-site harp.json not named as such");
    },
  },
  {
    id: "C05",
    title: "argv[0] runtime name resolves from the host table, never from PATH",
    clause: "§7.5.1, §9.5",
    run: async (ctx) => {
      const h = ctx.host();
      // "sh" is on every PATH but is not a host runtime.
      await h.install(ctx.app({ start: { argv: ["sh", "-c", "exit 0"] } }));
      const msg = await rejects(h.start(ID), "harp.runtime_unavailable");
      ok(msg.includes('"sh"'), "the refusal must name the missing runtime");
      await h.install(ctx.app());
      await h.start(ID);
      ok(h.isRunning(ID), "node runtime did not start");
    },
  },
  {
    id: "C06",
    title: "package executable runs directly; missing, absolute, '..' and escaping links refused",
    clause: "§7.5.2, §17 host 2–3",
    run: async (ctx) => {
      const script = `#!${process.execPath}\n${FIXTURE_SERVER_MJS}`;
      const dir = ctx.app(
        { start: { argv: ["./bin/app"] } },
        { "bin/app": script, "package.json": '{"type":"module"}' },
      );
      chmodSync(join(dir, "bin/app"), 0o755);
      const h = ctx.host();
      await h.install(dir);
      const st = await h.start(ID);
      ok(((await getJson(`${st.url}/env`))["cwd"] as string).endsWith("bundle"), "bundled executable did not run");
      await h.stop(ID);
      ok(
        (await validationCodes(ctx, { start: { argv: ["./bin/none"] } })).includes("harp.executable_missing"),
        "missing executable accepted",
      );
      ok(
        (await validationCodes(ctx, { start: { argv: ["/usr/bin/node"] } })).includes("harp.executable_path_invalid"),
        "absolute argv[0] accepted",
      );
      ok(
        (await validationCodes(ctx, { start: { argv: ["./../x"] } })).includes("harp.executable_path_invalid"),
        "'..' argv[0] accepted",
      );
      const esc = ctx.app({ start: { argv: ["./bin/app"] } });
      mkdirSync(join(esc, "bin"));
      symlinkSync(process.execPath, join(esc, "bin/app"));
      await rejects(ctx.host({}, join(ctx.root, "h2")).install(esc), "harp.executable_escapes");
    },
  },
  {
    id: "C07",
    title: "path-like argv entries must be relative and stay in the package",
    clause: "§7.3, §17 host 2",
    run: async (ctx) => {
      for (const arg of ["/etc/passwd", "../x.mjs", "--data=/var/x", "~/x"]) {
        const codes = await validationCodes(ctx, { start: { argv: ["node", arg] } });
        ok(codes.includes("harp.argv_path_escapes") || codes.includes("harp.home_directory"), `${arg} accepted`);
      }
      const dir = ctx.app({ start: { argv: ["node", "lib/server.mjs"] } });
      const outside = join(ctx.root, "outside-lib");
      mkdirSync(outside);
      writeFileSync(join(outside, "server.mjs"), FIXTURE_SERVER_MJS);
      symlinkSync(outside, join(dir, "lib"));
      await rejects(ctx.host().install(dir), "harp.argv_path_escapes");
    },
  },
  {
    id: "C08",
    title: "start.platforms: current key used; missing key refuses to start",
    clause: "§7.5.3",
    run: async (ctx) => {
      const p = here();
      ok(p !== null, "this platform has no HARP triple");
      const other = PLATFORMS.find((x) => x !== p)!;
      const h = ctx.host();
      await h.install(
        ctx.app({ start: { argv: ["node", "missing.mjs"], platforms: { [p]: { argv: ["node", "server.mjs"] } } } }),
      );
      await h.start(ID);
      await h.stop(ID);
      await h.install(
        ctx.app({ start: { argv: ["node", "server.mjs"], platforms: { [other]: { argv: ["node", "server.mjs"] } } } }),
      );
      await rejects(h.start(ID), "harp.platform_refused");
    },
  },
  {
    id: "C09",
    title: "Runtime ABI environment injected (HOST loopback, PORT, dirs, APP_ID, APP_VERSION, APP_PLATFORM)",
    clause: "§8.1, §7.5.3",
    run: async (ctx) => {
      const h = ctx.host();
      await h.install(ctx.app());
      const st = await h.start(ID);
      const env = (await getJson(`${st.url}/env`))["env"] as Record<string, string | null>;
      ok(env["HOST"] === "127.0.0.1", `HOST=${env["HOST"]}`);
      ok(env["PORT"] === String(st.port), `PORT=${env["PORT"]}`);
      ok(env["APP_DATA_DIR"] === h.layout.data(ID), "APP_DATA_DIR");
      ok(env["APP_CACHE_DIR"] === h.layout.cache(ID), "APP_CACHE_DIR");
      ok(env["TMPDIR"] === h.layout.tmp(ID), "TMPDIR");
      ok(env["APP_ID"] === ID && env["APP_VERSION"] === "1.0.0", "APP_ID / APP_VERSION");
      ok(env["APP_PLATFORM"] === here(), `APP_PLATFORM=${env["APP_PLATFORM"]}`);
    },
  },
  {
    id: "C10",
    title: "cwd is the package root and the package is read-only",
    clause: "§8.2",
    run: async (ctx) => {
      const h = ctx.host();
      await h.install(ctx.app());
      const st = await h.start(ID);
      const info = await getJson(`${st.url}/env`);
      ok(info["cwd"] === h.layout.bundle(ID), `cwd=${String(info["cwd"])}`);
      const w = await getJson(`${st.url}/probe/write?path=${encodeURIComponent(join(h.layout.bundle(ID), "x"))}`);
      ok(w["ok"] === false, "the app could write into its package");
    },
  },
  {
    id: "C11",
    title: "ready on the first 2xx from GET health.path within timeoutMs",
    clause: "§8.3",
    run: async (ctx) => {
      const h = ctx.host();
      await h.install(ctx.app({ start: { argv: ["node", "server.mjs", "slow-ready"] } }));
      const t0 = Date.now();
      const st = await h.start(ID);
      ok(Date.now() - t0 >= 1_400, "declared ready before /health returned 2xx");
      ok((await fetch(`${st.url}/health`)).status === 200, "not actually ready");
    },
  },
  {
    id: "C12",
    title: "exit before ready is a start failure that shows the last log lines",
    clause: "§8.3, §8.6",
    run: async (ctx) => {
      const h = ctx.host();
      await h.install(ctx.app({ start: { argv: ["node", "server.mjs", "exit-early"] } }));
      const msg = await rejects(h.start(ID), "harp.start_failed");
      ok(msg.includes("exiting before ready on purpose"), "the app's output is missing from the failure");
      ok(!h.isRunning(ID), "still marked running");
    },
  },
  {
    id: "C13",
    title: "not ready within timeoutMs: the host stops the process and reports failure",
    clause: "§8.3",
    run: async (ctx) => {
      const h = ctx.host();
      await h.install(
        ctx.app({
          start: { argv: ["node", "server.mjs", "never-ready"] },
          health: { path: "/health", timeoutMs: 1000 },
        }),
      );
      await rejects(h.start(ID), "harp.ready_timeout");
      ok(!h.isRunning(ID), "the unready app was left running");
      ok(h.logs(ID).includes("SIGTERM"), "the stop was not logged");
    },
  },
  {
    id: "C14",
    title: "stop: SIGTERM, grace period, then SIGKILL of the whole process group",
    clause: "§8.4",
    run: async (ctx) => {
      const h = ctx.host({ graceMs: 1_000 });
      await h.install(ctx.app({ start: { argv: ["node", "server.mjs", "ignore-term"] } }));
      await h.start(ID);
      const pid = h.status(ID)[0]!.pid!;
      const t0 = Date.now();
      const r = await h.stop(ID);
      ok(r.forced && Date.now() - t0 >= 900, "SIGKILL not used after the grace period");
      ok(!processAlive(pid), "the app's sandbox survived stop");
      await h.install(ctx.app());
      await h.start(ID);
      const r2 = await h.stop(ID);
      ok(r2.wasRunning && !r2.forced, "a cooperative app should stop on SIGTERM");
    },
  },
  {
    id: "C15",
    title: "reserved runtime.kind reported as unsupported, distinct from C03",
    clause: "§7.4, §17 host 5",
    run: async (ctx) => {
      for (const kind of ["window", "headless", "oneshot", "http-static", "container", "wasm"]) {
        const codes = await validationCodes(ctx, { runtime: { kind } });
        ok(codes.length === 1 && codes[0] === "harp.unsupported_kind", `${kind}: ${codes.join(", ")}`);
      }
    },
  },
  {
    id: "C16",
    title: "upgrade replaces the bundle and keeps APP_DATA_DIR",
    clause: "§8.5, §14",
    run: async (ctx) => {
      const h = ctx.host();
      await h.install(ctx.app());
      let st = await h.start(ID);
      await fetch(`${st.url}/counter`, { method: "POST" });
      await h.stop(ID);
      const up = await h.upgrade(ctx.app({ version: "2.0.0" }));
      ok(up.upgraded && up.previousVersion === "1.0.0", "not reported as upgrade");
      st = await h.start(ID);
      ok((await getJson(`${st.url}/counter`))["counter"] === 1, "data lost on upgrade");
      ok(
        ((await getJson(`${st.url}/env`))["env"] as Record<string, string>)["APP_VERSION"] === "2.0.0",
        "bundle not replaced",
      );
    },
  },
  {
    id: "C17",
    title: "an upgrade that changes the id is refused",
    clause: "§7.3, §8.5",
    run: async (ctx) => {
      const h = ctx.host();
      const dir = ctx.app();
      await h.install(dir);
      writeFileSync(join(dir, "harp.json"), FIXTURE_MANIFEST_JSON.replace(`"${ID}"`, '"renamed"'));
      await rejects(h.upgrade(dir), "harp.id_changed");
      await rejects(h.upgrade(ctx.app(), "other-id"), "harp.id_changed");
    },
  },
  {
    id: "C18",
    title: "installing an installed id is an upgrade, never a second copy",
    clause: "§7.3",
    run: async (ctx) => {
      const h = ctx.host();
      await h.install(ctx.app());
      const r = await h.install(ctx.app({ name: "Another author's app", version: "9.0.0" }));
      ok(r.upgraded, "not treated as upgrade");
      ok(h.installedIds().length === 1 && h.status(ID)[0]!.version === "9.0.0", "two installs or old bundle kept");
    },
  },
  {
    id: "C19",
    title: "uninstall keeps data unless purged",
    clause: "§17 host 4, §8.5",
    run: async (ctx) => {
      const h = ctx.host();
      await h.install(ctx.app());
      let st = await h.start(ID);
      await fetch(`${st.url}/counter`, { method: "POST" });
      await h.uninstall(ID);
      ok(h.record(ID) === null, "still installed");
      await h.install(ctx.app());
      st = await h.start(ID);
      ok((await getJson(`${st.url}/counter`))["counter"] === 1, "data removed without --purge");
      await h.uninstall(ID, { purge: true });
      await h.install(ctx.app());
      st = await h.start(ID);
      ok((await getJson(`${st.url}/counter`))["counter"] === 0, "data kept after --purge");
    },
  },
  {
    id: "C20",
    title: "separate APP_DATA_DIR per id; an app cannot write another app's data",
    clause: "§13",
    run: async (ctx) => {
      const h = ctx.host();
      await h.install(ctx.app());
      await h.install(ctx.app({ id: "other-app" }));
      const a = await h.start(ID);
      const b = await h.start("other-app");
      const da = ((await getJson(`${a.url}/env`))["env"] as Record<string, string>)["APP_DATA_DIR"];
      const db = ((await getJson(`${b.url}/env`))["env"] as Record<string, string>)["APP_DATA_DIR"];
      ok(da !== db, "shared data dir");
      const w = await getJson(`${a.url}/probe/write?path=${encodeURIComponent(join(db!, "intrusion"))}`);
      ok(w["ok"] === false, "app wrote into another app's data dir");
    },
  },
  {
    id: "C21",
    title: 'network "none"/"loopback": no route out of the app\'s own loopback',
    clause: "§9.1, §13",
    run: async (ctx) => {
      for (const network of ["none", "loopback"]) {
        const h = ctx.host({}, join(ctx.root, `h-${network}`));
        await h.install(ctx.app({ permissions: { network, filesystem: "data-only" } }));
        const st = await h.start(ID);
        const hostLoopback = await ctx.listen("127.0.0.1");
        const r1 = await getJson(`${st.url}/probe/connect?host=127.0.0.1&port=${hostLoopback}`);
        ok(r1["ok"] === false, `${network}: reached a service on the host's loopback`);
        const ext = nonLoopbackAddress();
        if (ext !== null) {
          const p = await ctx.listen(ext);
          const r2 = await getJson(`${st.url}/probe/connect?host=${ext}&port=${p}`);
          ok(r2["ok"] === false, `${network}: reached ${ext}`);
        }
        await h.stop(ID);
      }
    },
  },
  {
    id: "C22",
    title: 'network "allow" needs explicit consent, and is refused where this host cannot enforce it',
    clause: "§9.1, §13",
    run: async (ctx) => {
      const h = ctx.host();
      await h.install(ctx.app({ permissions: { network: "allow", filesystem: "data-only" } }));
      await rejects(h.start(ID), "harp.network_consent_required");
      const caps = probeSandbox();
      if (caps.network.includes("allow")) {
        await h.start(ID, { allowNetwork: true });
      } else {
        const msg = await rejects(h.start(ID, { allowNetwork: true }), "harp.permission_unenforceable");
        ok(msg.includes("allow"), `the refusal must say why: ${msg}`);
        ok(!h.isRunning(ID), "started anyway");
      }
    },
  },
  {
    id: "C23",
    title: 'filesystem "data-only": writes only to APP_DATA_DIR, APP_CACHE_DIR and TMPDIR',
    clause: "§8.2, §9.2, §13",
    run: async (ctx) => {
      const h = ctx.host();
      await h.install(ctx.app());
      const st = await h.start(ID);
      const probe = async (p: string) => (await getJson(`${st.url}/probe/write?path=${encodeURIComponent(p)}`))["ok"];
      for (const d of [h.layout.data(ID), h.layout.cache(ID), h.layout.tmp(ID)])
        ok((await probe(join(d, "w"))) === true, `cannot write ${d}`);
      const outside = [
        join(ctx.root, "outside"),
        join(tmpdir(), `yaoc-harp-escape-${process.pid}`),
        join(h.layout.root, "logs", "forged.log"),
        join(h.layout.root, "runtimes.json"),
      ];
      for (const p of outside) ok((await probe(p)) === false, `wrote outside the data dirs: ${p}`);
      const n = ctx.app({ permissions: { network: "loopback", filesystem: "none" } });
      const h2 = ctx.host({}, join(ctx.root, "h-none"));
      await h2.install(n);
      const s2 = await h2.start(ID);
      const w = await getJson(`${s2.url}/probe/write?path=${encodeURIComponent(join(h2.layout.data(ID), "w"))}`);
      ok(w["ok"] === false, 'filesystem "none" still allowed writes to APP_DATA_DIR');
    },
  },
  {
    id: "C24",
    title: "omitted permissions are enforced as loopback + data-only",
    clause: "§9.3",
    run: async (ctx) => {
      const h = ctx.host();
      await h.install(ctx.app({ permissions: undefined }));
      const st = await h.start(ID);
      ok(st.network === "loopback" && st.filesystem === "data-only", `got ${st.network}/${st.filesystem}`);
      ok(
        (await getJson(`${st.url}/probe/write?path=${encodeURIComponent(join(ctx.root, "x"))}`))["ok"] === false,
        "default data-only not enforced",
      );
    },
  },
  {
    id: "C25",
    title: "a permission the host cannot enforce refuses the start with a reason",
    clause: "§9, §13",
    run: async (ctx) => {
      const none: SandboxCapabilities = {
        platform: process.platform,
        tools: null,
        mode: null,
        network: [],
        filesystem: [],
        properties: {},
        limits: { memory: null, pids: null, cpu: null },
        cgroupBases: {},
        notes: ["simulated: no sandbox (bubblewrap missing)"],
      };
      const h = ctx.host({ sandbox: none });
      await h.install(ctx.app());
      const msg = await rejects(h.start(ID), "harp.permission_unenforceable");
      ok(msg.includes("cannot be enforced"), "no reason given");
      ok(!h.isRunning(ID), "started anyway");
    },
  },
  {
    id: "C26",
    title: "manifest secrets, absolute paths and home directories are flagged",
    clause: "§9.4, §17",
    run: async (ctx) => {
      ok(
        (await validationCodes(ctx, { "x-a": { apiKey: "sk-abcdefghijklmnopqrstuvwxyz" } })).includes(
          "harp.secret_in_manifest",
        ),
        "secret accepted",
      );
      ok(
        (await validationCodes(ctx, { "x-a": { dir: "/var/lib/app" } })).includes("harp.absolute_path"),
        "absolute path accepted",
      );
      ok(
        (await validationCodes(ctx, { "x-a": { dir: "/home/alice/app" } })).includes("harp.home_directory"),
        "home dir accepted",
      );
    },
  },
  {
    id: "C27",
    title: "restart recovers mutable state only from APP_DATA_DIR",
    clause: "§14, §8.2",
    run: async (ctx) => {
      const h = ctx.host();
      await h.install(ctx.app());
      let st = await h.start(ID);
      await fetch(`${st.url}/counter`, { method: "POST" });
      await fetch(`${st.url}/counter`, { method: "POST" });
      await h.stop(ID);
      st = await h.start(ID);
      ok((await getJson(`${st.url}/counter`))["counter"] === 2, "state not recovered after restart");
    },
  },
  {
    id: "C28",
    title: "starts without entrypoints; UI URL is http://HOST:PORT{path}",
    clause: "§10",
    run: async (ctx) => {
      const h = ctx.host();
      await h.install(ctx.app({ entrypoints: undefined, health: undefined }));
      const st = await h.start(ID);
      ok(st.uiUrl === `http://127.0.0.1:${st.port}/`, st.uiUrl);
      ok((await fetch(st.uiUrl)).status === 200, "UI not reachable");
    },
  },
  {
    id: "C29",
    title: "inbound connections only on loopback",
    clause: "§9.1",
    run: async (ctx) => {
      const ext = nonLoopbackAddress();
      const h = ctx.host();
      await h.install(ctx.app());
      const st = await h.start(ID);
      if (ext === null) return; // nothing but loopback on this machine: trivially satisfied
      let reached = true;
      try {
        await fetch(`http://${ext}:${st.port}/health`, { signal: AbortSignal.timeout(1_500) });
      } catch {
        reached = false;
      }
      ok(!reached, `the app answered on ${ext}`);
    },
  },
  {
    id: "C30",
    title: "capability set is truthful: nothing is claimed that a fresh probe does not measure",
    clause: "§12, §13",
    run: async (ctx) => {
      const caps = ctx.host().capabilities();
      resetSandboxProbe();
      const over = overClaims(caps, probeSandbox());
      ok(over.length === 0, `claims more than this machine enforces: ${over.join("; ")}`);
      ok(JSON.stringify(caps["runtimeKinds"]) === '["http"]', "runtimeKinds must be exactly http");
      // The check itself must catch an over-claiming host configuration.
      const claimsAll: SandboxCapabilities = {
        ...probeSandbox(),
        network: ["none", "loopback", "allow"],
        limits: { memory: "cgroup-v1", pids: "cgroup-v1", cpu: "cgroup-v1" },
        properties: { ...probeSandbox().properties, unprivilegedUid: true },
      };
      const fake = ctx.host({ sandbox: claimsAll }).capabilities();
      ok(
        overClaims(fake, {
          ...probeSandbox(),
          network: ["none"],
          limits: { memory: null, pids: null, cpu: null },
          properties: { unprivilegedUid: false },
        }).length >= 3,
        "an over-claiming configuration was not caught",
      );
    },
  },
];

/**
 * What a capability set claims beyond a measurement of this machine: permission values, limit
 * mechanisms and isolation properties (`x-yaoc.isolation`) the probe did not see in effect.
 */
export function overClaims(caps: Record<string, unknown>, measured: SandboxCapabilities): string[] {
  const out: string[] = [];
  const perms = (caps["permissions"] ?? {}) as { network?: string[]; filesystem?: string[] };
  for (const n of perms.network ?? [])
    if (!(measured.network as readonly string[]).includes(n)) out.push(`network "${n}"`);
  for (const f of perms.filesystem ?? [])
    if (!(measured.filesystem as readonly string[]).includes(f)) out.push(`filesystem "${f}"`);
  const x = (caps["x-yaoc"] ?? {}) as {
    isolation?: Record<string, boolean>;
    limits?: Record<string, { mechanism?: string } | null>;
  };
  for (const [k, v] of Object.entries(x.isolation ?? {}))
    if (v && measured.properties[k] !== true) out.push(`isolation ${k}`);
  const lim = x.limits ?? {};
  const pairs: [string, string | null][] = [
    ["memory", measured.limits.memory],
    ["processes", measured.limits.pids],
    ["cpu", measured.limits.cpu],
  ];
  for (const [k, m] of pairs) {
    const claimed = lim[k]?.mechanism ?? null;
    if (claimed !== null && claimed !== m) out.push(`${k} limit by ${claimed}`);
  }
  return out;
}

export const ALL_CASES: readonly Case[] = [...CASES, ...SANDBOX_CASES];

export interface RunOptions {
  readonly only?: readonly string[];
  /** Called as each case finishes (the CLI prints one line per case). */
  readonly onResult?: (r: ConformanceResult) => void;
  /** Abort (Ctrl-C): the running case is cleaned up, no further case starts. */
  readonly signal?: AbortSignal;
}

/** Run the suite (or `only` some cases) and return one result per case that ran. */
export async function runConformance(opts: RunOptions = {}): Promise<ConformanceResult[]> {
  const results: ConformanceResult[] = [];
  const shared = new Shared();
  try {
    for (const c of ALL_CASES) {
      if (opts.only !== undefined && !opts.only.includes(c.id)) continue;
      if (opts.signal?.aborted) break;
      const r = await runCase(c, shared, opts.signal);
      results.push(r);
      opts.onResult?.(r);
    }
  } finally {
    await shared.close();
  }
  return results;
}

const CASE_TIMEOUT_MS = 120_000;

export async function runCase(
  c: Case,
  shared: Shared = new Shared(),
  signal?: AbortSignal,
): Promise<ConformanceResult> {
  const ctx = new Ctx(shared);
  const t0 = Date.now();
  const done = (passed: boolean, detail: string): ConformanceResult => ({
    id: c.id,
    title: c.title,
    clause: c.clause,
    passed,
    detail,
    ms: Date.now() - t0,
  });
  const running = c.run(ctx).then(
    () => done(true, ""),
    (e: unknown) => done(false, e instanceof Error ? e.message : String(e)),
  );
  let stopWaiting: () => void = () => undefined;
  const interrupted = new Promise<ConformanceResult>((resolve) => {
    const timer = setTimeout(
      () => resolve(done(false, `did not finish within ${CASE_TIMEOUT_MS / 1000} s`)),
      CASE_TIMEOUT_MS,
    );
    const onAbort = () => resolve(done(false, "interrupted"));
    signal?.addEventListener("abort", onAbort, { once: true });
    stopWaiting = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
  });
  try {
    const r = await Promise.race([running, interrupted]);
    if (r.passed || r.detail !== "interrupted") return r;
    // Interrupted: stop what the case started, let it notice, then stop anything it started since.
    await ctx.cleanup();
    await Promise.race([running, new Promise((res) => setTimeout(res, 10_000))]);
    return r;
  } finally {
    stopWaiting();
    await ctx.cleanup();
  }
}

/** The published fixture files must match the embedded copy (checked by the tests). */
export function fixtureMatches(dir: string): boolean {
  return (
    readFileSync(join(dir, "server.mjs"), "utf8") === FIXTURE_SERVER_MJS &&
    readFileSync(join(dir, "harp.json"), "utf8") === FIXTURE_MANIFEST_JSON
  );
}
