/**
 * The catalog's promises with real processes: racing installers, installers killed with SIGKILL at
 * random moments, a flipped byte on disk, and a restart (a new process) that lists and reloads.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openCatalog } from "../../src/catalog/node-store.js";
import { NodeFs } from "../../src/fs/node-fs.js";
import { check } from "../../src/check/check.js";
import { loadFromSource } from "../../src/hns/load.js";
import { examples, runCatalog, smallPackage, tempDir, workerScript, writePackage, type Run } from "./helpers.js";

beforeAll(async () => {
  await workerScript();
}, 120_000);

function json(run: Run): any {
  return JSON.parse(run.stdout);
}

/**
 * Every file under objects/ and bindings/ is whole: objects reload to the identity they are named
 * by. Returns how many objects there are, for the callers to bound.
 */
function assertNoPartialFiles(dir: string): number {
  const objects = existsSync(join(dir, "objects")) ? readdirSync(join(dir, "objects")) : [];
  // may be empty: a run where every process was killed before writing; the callers bound the count
  for (const name of objects) {
    const text = readFileSync(join(dir, "objects", name), "utf8");
    const loaded = loadFromSource(name, text);
    expect(loaded.ok, `objects/${name} does not load`).toBe(true);
    if (loaded.ok) expect(loaded.package.identity).toBe(`sha256:${name.replace(/\.hns$/, "")}`);
  }
  const bindings = existsSync(join(dir, "bindings")) ? readdirSync(join(dir, "bindings")) : [];
  // may be empty: as objects above
  for (const name of bindings)
    expect(() => JSON.parse(readFileSync(join(dir, "bindings", name), "utf8"))).not.toThrow();
  return objects.length;
}

describe("racing installers", () => {
  it("8 processes installing different contents under one (id, version): exactly one wins, the rest get catalog.conflict", async () => {
    const dir = tempDir();
    const cat = join(dir, "cat");
    const paths = Array.from({ length: 8 }, (_, i) =>
      writePackage(join(dir, `p${i}`), "race.hns", smallPackage("race", "1.0.0", String(i))),
    );
    const startAt = String(Date.now() + 1500);
    const runs = await Promise.all(
      paths.map((p) =>
        runCatalog(["install", "--catalog", cat, "--format", "json", p], { env: { YAOC_TEST_START_AT: startAt } }),
      ),
    );
    const statuses = runs.map((r) => json(r).results[0].status);
    expect(statuses.filter((s) => s === "installed")).toHaveLength(1);
    expect(statuses.filter((s) => s === "conflict")).toHaveLength(7);
    const winner = runs.find((r) => json(r).results[0].status === "installed")!;
    const winnerIdentity = json(winner).results[0].identity;
    for (const r of runs) {
      const result = json(r).results[0];
      if (result.status === "installed") {
        expect(r.code).toBe(0);
        continue;
      }
      expect(r.code).toBe(1);
      expect(result.diagnostics.map((d: { code: string }) => d.code)).toEqual(["catalog.conflict"]);
      expect(result.diagnostics[0].message).toContain(winnerIdentity);
      expect(result.diagnostics[0].message).toContain(result.identity);
    }
    const verify = await runCatalog(["verify", "--catalog", cat, "--format", "json"]);
    expect(verify.code).toBe(0);
    expect(json(verify).packages).toEqual([
      expect.objectContaining({ id: "race", version: "1.0.0", identity: winnerIdentity, status: "ok" }),
    ]);
    expect(readdirSync(join(cat, "tmp"))).toEqual([]);
    expect(assertNoPartialFiles(cat)).toBeGreaterThan(0);
    const gc = await runCatalog(["gc", "--catalog", cat, "--format", "json"]);
    expect(gc.code).toBe(0);
    expect(readdirSync(join(cat, "objects"))).toEqual([`${winnerIdentity.slice(7)}.hns`]);
  });

  it("8 processes installing the same package at once: all succeed, one binding is created", async () => {
    const dir = tempDir();
    const cat = join(dir, "cat");
    const startAt = String(Date.now() + 1500);
    const sources = [join(examples, "review.hns"), join(examples, "review-dir.hns")];
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        runCatalog(["install", "--catalog", cat, "--format", "json", sources[i % 2]!], {
          env: { YAOC_TEST_START_AT: startAt },
        }),
      ),
    );
    expect(runs.map((r) => r.code)).toEqual(Array(8).fill(0));
    const statuses = runs.map((r) => json(r).results[0].status);
    expect(statuses.filter((s) => s === "installed")).toHaveLength(1);
    expect(statuses.filter((s) => s === "unchanged")).toHaveLength(7);
    expect(readdirSync(join(cat, "bindings"))).toHaveLength(1);
    expect(readdirSync(join(cat, "objects"))).toHaveLength(1);
    expect((await runCatalog(["verify", "--catalog", cat])).code).toBe(0);
  });
});

describe("crash safety", () => {
  it("200 installs killed with SIGKILL at random moments: verify is always clean and every bound package reloads", async () => {
    const dir = tempDir();
    const cat = join(dir, "cat");
    // Packages overlap between processes: same content (idempotent), different content under the
    // same (id, version) (conflicts), and fresh keys.
    const pool: string[] = [];
    for (let k = 0; k < 12; k++) {
      for (let variant = 0; variant < 3; variant++) {
        pool.push(
          writePackage(
            join(dir, `k${k}v${variant}`),
            `k${k}.hns`,
            smallPackage(`crash.k${k}`, "1", String(variant * 100 + k)),
          ),
        );
      }
    }
    let seed = 12345;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const catalog = openCatalog(cat);
    const parallel = 8;
    const pick = (): string[] => Array.from({ length: 6 }, () => pool[Math.floor(random() * pool.length)]!);
    // Calibrate on this machine: how long does a batch take when nobody is killed?
    const t0 = Date.now();
    const calibration = await Promise.all(
      Array.from({ length: parallel }, () => runCatalog(["install", "--catalog", cat, ...pick()])),
    );
    const window = Math.max(200, Math.round((Date.now() - t0) * 1.2));
    for (const r of calibration) expect([0, 1]).toContain(r.code);
    let killed = 0;
    let finished = 0;
    const total = 200;
    for (let done = 0; done < total; done += parallel) {
      const batch = Array.from({ length: Math.min(parallel, total - done) }, () =>
        runCatalog(["install", "--catalog", cat, ...pick()], { killAfterMs: 20 + Math.floor(random() * window) }),
      );
      for (const r of await Promise.all(batch)) {
        if (r.signal === "SIGKILL") killed++;
        else {
          finished++;
          expect([0, 1]).toContain(r.code);
        }
      }
      const report = await catalog.verify();
      expect(report.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      expect(report.ok).toBe(true);
    }
    // Most processes die somewhere in startup, check or the write protocol; some finish.
    expect(killed).toBeGreaterThan(20);
    expect(finished).toBeGreaterThan(0);
    assertNoPartialFiles(cat);
    const listed = await catalog.list();
    expect(listed.entries.length).toBeGreaterThan(0);
    for (const entry of listed.entries) {
      const got = await catalog.get(entry.id, entry.version);
      expect(got.ok).toBe(true);
      if (got.ok) expect(got.package.identity).toBe(entry.identity);
    }
    // Leftover temp files from killed processes are ignored by readers and cleaned by gc.
    const gc = await runCatalog(["gc", "--catalog", cat, "--grace", "0", "--format", "json"]);
    expect(gc.code).toBe(0);
    expect(readdirSync(join(cat, "tmp"))).toEqual([]);
    const after = await runCatalog(["verify", "--catalog", cat, "--format", "json"]);
    expect(after.code).toBe(0);
    expect(json(after).unreferenced).toBe(0);
    expect(json(after).packages).toHaveLength(listed.entries.length);
  }, 300_000);

  it("a leftover temp file is ignored, and gc removes it only after the grace period", async () => {
    const dir = tempDir();
    const cat = join(dir, "cat");
    expect((await runCatalog(["install", "--catalog", cat, join(examples, "review.hns")])).code).toBe(0);
    writeFileSync(join(cat, "tmp", "leftover.tmp"), "(manifest (id acme.review) (vers");
    expect((await runCatalog(["verify", "--catalog", cat])).code).toBe(0);
    expect((await runCatalog(["list", "--catalog", cat])).stdout).toContain("acme.review@1.0.0");
    await runCatalog(["gc", "--catalog", cat]);
    expect(readdirSync(join(cat, "tmp"))).toEqual(["leftover.tmp"]);
    await runCatalog(["gc", "--catalog", cat, "--grace", "0"]);
    expect(readdirSync(join(cat, "tmp"))).toEqual([]);
  });
});

describe("the CLI", () => {
  it("detects a flipped byte in a stored object (verify exits 1 with catalog.corrupt)", async () => {
    const dir = tempDir();
    const cat = join(dir, "cat");
    expect((await runCatalog(["install", "--catalog", cat, join(examples, "review.hns")])).code).toBe(0);
    const [name] = readdirSync(join(cat, "objects"));
    const file = join(cat, "objects", name!);
    const bytes = readFileSync(file);
    const at = Math.floor(bytes.length / 2);
    bytes[at] = bytes[at]! ^ 0x04;
    writeFileSync(file, bytes);
    const verify = await runCatalog(["verify", "--catalog", cat]);
    expect(verify.code).toBe(1);
    expect(verify.stderr).toContain("error[catalog.corrupt]");
    expect(verify.stdout).toContain("corrupt acme.review@1.0.0");
    const show = await runCatalog(["show", "--catalog", cat, "acme.review@1.0.0"]);
    expect(show.code).toBe(1);
    expect(show.stderr).toContain("catalog.corrupt");
    // Re-installing the exact package repairs the object.
    expect((await runCatalog(["install", "--catalog", cat, join(examples, "review-dir.hns")])).stdout).toContain(
      "unchanged",
    );
    expect((await runCatalog(["verify", "--catalog", cat])).code).toBe(0);
  });

  it("a restart lists, shows and exports everything; the export hashes to the installed identity", async () => {
    const dir = tempDir();
    const cat = join(dir, "cat");
    const a = writePackage(dir, "a.hns", smallPackage("pkg.a", "1"));
    const b = writePackage(dir, "b.hns", smallPackage("pkg.b", "2.0"));
    const install = await runCatalog([
      "install",
      "--catalog",
      cat,
      "--format",
      "json",
      join(examples, "review-dir.hns"),
      a,
      b,
    ]);
    expect(install.code).toBe(0);
    const identities = new Map<string, string>(
      json(install).results.map((r: { id: string; version: string; identity: string }) => [
        `${r.id}@${r.version}`,
        r.identity,
      ]),
    );
    const list = await runCatalog(["list", "--catalog", cat, "--format", "json"]);
    expect(json(list).packages.map((p: { id: string; version: string }) => `${p.id}@${p.version}`)).toEqual([
      "acme.review@1.0.0",
      "pkg.a@1",
      "pkg.b@2.0",
    ]);
    const human = await runCatalog(["list"], { env: { YAOC_CATALOG: cat } });
    expect(human.stdout.split("\n").filter(Boolean)).toHaveLength(3);
    const show = await runCatalog(["show", "--catalog", cat, "--format", "json", "acme.review@1.0.0"]);
    expect(json(show)).toMatchObject({
      id: "acme.review",
      version: "1.0.0",
      identity: identities.get("acme.review@1.0.0"),
      owner: "runtime",
      tools: ["read", "search"],
    });
    const showHuman = await runCatalog(["show", "--catalog", cat, "acme.review@1.0.0"]);
    expect(showHuman.stdout).toContain("owner:     runtime");
    expect(showHuman.stdout).toContain("(fn load-change");
    for (const [ref, identity] of identities) {
      const out = join(dir, `${ref.replace("@", "-")}.hns`);
      const exp = await runCatalog(["export", "--catalog", cat, ref, out]);
      expect(exp.code).toBe(0);
      const checked = await check(new NodeFs(), out);
      expect(checked.identity).toBe(identity);
    }
    const xdg = await runCatalog(["list", "--format", "json"], {
      env: { YAOC_CATALOG: "", XDG_DATA_HOME: join(dir, "xdg") },
    });
    expect(json(xdg).catalog).toBe(join(dir, "xdg", "yaoc", "catalog"));
  });

  it("exit codes: conflict 1, invalid 1, missing path 2, unknown package 1, bad reference 2, bad export name 2", async () => {
    const dir = tempDir();
    const cat = join(dir, "cat");
    await runCatalog(["install", "--catalog", cat, writePackage(join(dir, "1"), "x.hns", smallPackage("x", "1", "1"))]);
    const conflict = await runCatalog([
      "install",
      "--catalog",
      cat,
      writePackage(join(dir, "2"), "x.hns", smallPackage("x", "1", "2")),
    ]);
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toContain("error[catalog.conflict]");
    expect(conflict.stderr).toMatch(
      /already installed with identity sha256:[0-9a-f]{64} and cannot be replaced by a different artifact with identity sha256:[0-9a-f]{64}/,
    );
    const invalid = await runCatalog([
      "install",
      "--catalog",
      cat,
      writePackage(dir, "bad.hns", '(manifest (id y) (version "1") (title T))\n(eval 1)'),
    ]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain("hns.missing_artifact");
    expect(invalid.stderr).toContain("catalog.rejected");
    expect((await runCatalog(["install", "--catalog", cat, join(dir, "missing.hns")])).code).toBe(2);
    expect((await runCatalog(["show", "--catalog", cat, "x@9"])).code).toBe(1);
    expect((await runCatalog(["show", "--catalog", cat, "x"])).code).toBe(2);
    expect((await runCatalog(["export", "--catalog", cat, "x@1", join(dir, "out.txt")])).code).toBe(2);
    expect((await runCatalog(["gc", "--catalog", cat, "--grace", "soon"])).code).toBe(2);
    const stdout = await runCatalog(["export", "--catalog", cat, "x@1", "-"]);
    expect(stdout.code).toBe(0);
    expect(stdout.stdout).toContain('(manifest (id "x")');
    const list = await runCatalog(["list", "--catalog", cat, "--format", "json"]);
    expect(json(list).packages).toHaveLength(1);
  }, 180_000); // eight CLI runs in sequence: a hang guard sized for a loaded 2-core machine
});
