/**
 * Damage the catalog cannot be trusted to survive silently (issue 14), on a real directory through
 * the CLI: an object replaced by a symlink, a directory, a FIFO, an oversized (sparse) file or an
 * unreadable file. `verify` names the damaged package as catalog.corrupt, goes on with the others
 * and exits 1; re-installing repairs every kind. A read-only catalog gives catalog.read_only. A
 * package that `export` could not write as one loadable file is refused at install.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  cpSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  ftruncateSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { objectPath } from "../../src/catalog/layout.js";
import { openCatalog } from "../../src/catalog/node-store.js";
import { examples, repo, smallPackage, tempDir, writePackage } from "./helpers.js";
import { AS_ROOT as asRoot, NO_NOBODY_RUN, NOBODY } from "../support/unprivileged.js";
import { skipUnless } from "../support/skip.js";

const BIN = join(repo, "bin", "yaoc.js");

/** Run the CLI; `unprivileged` drops to nobody when the tests run as root (root ignores file modes). */
function yaoc(args: string[], unprivileged = false): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: "utf8",
    cwd: "/",
    env: { ...process.env, NO_COLOR: "1" },
    ...(unprivileged && asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
    timeout: 120_000,
  });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

function mkfifo(path: string): boolean {
  return spawnSync("mkfifo", [path]).status === 0;
}

interface Setup {
  readonly cat: string;
  readonly review: string;
  readonly other: string;
  readonly reviewObject: string;
}

function setup(): Setup {
  const dir = tempDir();
  chmodSync(dir, 0o755);
  const cat = join(dir, "cat");
  const other = writePackage(join(dir, "o"), "other.hns", smallPackage("acme.other", "2.0.0"));
  const review = join(examples, "review.hns");
  const r = yaoc(["catalog", "install", "--catalog", cat, review, other]);
  expect(r.code, r.err).toBe(0);
  const identity = /installed acme\.review@1\.0\.0 (sha256:[0-9a-f]{64})/.exec(r.out)![1]!;
  return { cat, review, other, reviewObject: join(cat, objectPath(identity)) };
}

const damages: Array<[string, (object: string) => boolean]> = [
  [
    "a symlink (even to identical bytes)",
    (o) => {
      cpSync(o, `${o}.copy`);
      rmSync(o);
      symlinkSync(`${o}.copy`, o);
      return true;
    },
  ],
  [
    "a directory",
    (o) => {
      rmSync(o);
      mkdirSync(o);
      writeFileSync(join(o, "x"), "x");
      return true;
    },
  ],
  [
    "a FIFO",
    (o) => {
      rmSync(o);
      return mkfifo(o);
    },
  ],
  [
    "a 1.5 GB sparse file",
    (o) => {
      const fd = openSync(o, "r+");
      ftruncateSync(fd, 1.5 * 1024 * 1024 * 1024);
      closeSync(fd);
      return true;
    },
  ],
];

describe("verify reports every damaged object by package and continues; re-install repairs it", () => {
  it.for(damages)("an object replaced by %s", { timeout: 120_000 }, ([_label, damage], ctx) => {
    const s = setup();
    skipUnless(ctx, damage(s.reviewObject), "this damage needs mkfifo, which this system lacks");
    const v = yaoc(["catalog", "verify", "--catalog", s.cat]);
    expect(v.code, v.out + v.err).toBe(1);
    expect(v.err).toMatch(/catalog\.corrupt/);
    expect(v.err).toContain("acme.review@1.0.0");
    // It went on: the undamaged package was verified too.
    expect(v.out).toContain("ok acme.other@2.0.0");
    expect(v.out).toContain("corrupt acme.review@1.0.0");
    expect(v.out).toContain("2 packages verified: 1 ok, 1 corrupt");
    // Re-installing the exact package repairs it.
    const again = yaoc(["catalog", "install", "--catalog", s.cat, s.review]);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain("unchanged acme.review@1.0.0");
    const after = yaoc(["catalog", "verify", "--catalog", s.cat]);
    expect(after.code, after.out + after.err).toBe(0);
  });

  it.skipIf(NO_NOBODY_RUN !== null)(
    "an unreadable object (mode 000) is catalog.corrupt for its package; re-install repairs it (skipped where the CLI cannot run as nobody)",
    () => {
      const s = setup();
      // The catalog belongs to the (unprivileged) user who verifies and re-installs it.
      if (asRoot) spawnSync("chown", ["-R", `${NOBODY}:${NOBODY}`, s.cat]);
      chmodSync(s.reviewObject, 0o000);
      const v = yaoc(["catalog", "verify", "--catalog", s.cat], true);
      expect(v.code, v.out + v.err).toBe(1);
      expect(v.err).toMatch(/catalog\.corrupt/);
      expect(v.err).toContain("acme.review@1.0.0");
      expect(v.out).toContain("ok acme.other@2.0.0");
      const again = yaoc(["catalog", "install", "--catalog", s.cat, s.review], true);
      expect(again.code, again.err).toBe(0);
      expect(yaoc(["catalog", "verify", "--catalog", s.cat], true).code).toBe(0);
    },
    120_000,
  );

  it("an oversized object is refused from its size, before it is read (bounded memory)", async () => {
    const s = setup();
    const fd = openSync(s.reviewObject, "r+");
    ftruncateSync(fd, 1.5 * 1024 * 1024 * 1024);
    closeSync(fd);
    const before = process.memoryUsage().rss;
    const report = await openCatalog(s.cat).verify();
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024);
    expect(report.ok).toBe(false);
    const d = report.diagnostics.find((x) => x.code === "catalog.corrupt")!;
    expect(d.message).toContain("acme.review@1.0.0");
    expect(d.message).toMatch(/1610612736 bytes/);
  }, 120_000);
});

describe("a read-only catalog", () => {
  it.skipIf(NO_NOBODY_RUN !== null)(
    "gc and install say catalog.read_only (exit 2); list and verify still work; a gc with nothing to do succeeds (skipped where the CLI cannot run as nobody)",
    () => {
      const s = setup();
      const dirs = [s.cat, join(s.cat, "objects"), join(s.cat, "bindings"), join(s.cat, "tmp")];
      const mode = (m: number): void => {
        for (const d of dirs) {
          try {
            chmodSync(d, m);
          } catch {
            /* tmp may not exist */
          }
        }
      };
      mode(0o555);
      const clean = yaoc(["catalog", "gc", "--catalog", s.cat, "--grace", "0"], true);
      mode(0o755);
      expect(clean.code, clean.out + clean.err).toBe(0);
      // An unreferenced object gc would have to move, and a temp file it would have to remove.
      const extra = writePackage(join(s.cat, "..", "x"), "extra.hns", smallPackage("acme.extra", "1.0.0"));
      const scratch = join(s.cat, "..", "scratch");
      expect(yaoc(["catalog", "install", "--catalog", scratch, extra]).code).toBe(0);
      cpSync(join(scratch, "objects"), join(s.cat, "objects"), { recursive: true });
      rmSync(join(s.cat, "trash"), { recursive: true, force: true });
      for (const d of [s.cat, join(s.cat, "objects"), join(s.cat, "bindings"), join(s.cat, "tmp")]) {
        try {
          chmodSync(d, 0o555);
        } catch {
          /* tmp may not exist */
        }
      }
      try {
        const gc = yaoc(["catalog", "gc", "--catalog", s.cat, "--grace", "0"], true);
        expect(gc.code, gc.out + gc.err).toBe(2);
        expect(gc.err).toContain("catalog.read_only");
        expect(gc.err).toContain("read-only");
        expect(gc.err).not.toMatch(/ENOENT/);
        const inst = yaoc(["catalog", "install", "--catalog", s.cat, extra], true);
        expect(inst.code, inst.out + inst.err).toBe(2);
        expect(inst.err).toContain("catalog.read_only");
        expect(yaoc(["catalog", "list", "--catalog", s.cat], true).code).toBe(0);
        expect(yaoc(["catalog", "verify", "--catalog", s.cat], true).code).toBe(0);
      } finally {
        for (const d of [s.cat, join(s.cat, "objects"), join(s.cat, "bindings"), join(s.cat, "tmp")]) {
          try {
            chmodSync(d, 0o755);
          } catch {
            /* absent */
          }
        }
      }
    },
    120_000,
  );
});

describe("export keeps its promise for every installed package", () => {
  it("a 400 KB directory package (200 KB contract + 200 KB mind) is refused at install with catalog.export_limit", () => {
    const dir = tempDir();
    const pkg = join(dir, "big.hns");
    cpSync(join(examples, "review-dir.hns"), pkg, { recursive: true });
    const filler = "x".repeat(200 * 1024);
    writeFileSync(join(pkg, "contract.yao"), `(contract (purpose "big") (rules "${filler}"))\n`);
    writeFileSync(join(pkg, "mind.yao"), `(mind (frame (id big/notes) (notes "${filler}")))\n`);
    expect(yaoc(["check", pkg]).code).toBe(0); // a valid package…
    const cat = join(dir, "cat");
    const r = yaoc(["catalog", "install", "--catalog", cat, pkg]);
    expect(r.code, r.out + r.err).toBe(1); // …that the catalog refuses, naming the limit
    expect(r.err).toContain("catalog.export_limit");
    expect(r.err).toContain("262144");
    expect(yaoc(["catalog", "list", "--catalog", cat]).out).not.toContain("acme.review");
  }, 120_000);

  it("every package the catalog accepts exports to one file that `yaoc hash` reloads to its identity", () => {
    const s = setup();
    const out = join(s.cat, "..", "exported.hns");
    expect(yaoc(["catalog", "export", "--catalog", s.cat, "acme.review@1.0.0", out]).code).toBe(0);
    expect(yaoc(["hash", out]).out).toBe(yaoc(["hash", s.review]).out);
    expect(readFileSync(out).length).toBeLessThanOrEqual(262_144);
  }, 120_000);
});
