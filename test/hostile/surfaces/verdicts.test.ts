/**
 * Issue 35 item 1, the surfaces that read packages from disk besides the language server: the
 * hostile corpus (corpus.ts, shared with lsp.test.ts) goes through the built CLI as its users run
 * it — `yaoc check`, `yaoc catalog install` and `yaoc evidence receipt` — and each tree must get
 * `check`'s verdict, findings and exit code from the other two:
 *
 * - `catalog install` installs exactly the trees `check` finds valid and of kind HNS, with
 *   `check`'s identity; it refuses every other tree with `check`'s own diagnostics, word for word,
 *   followed by one `catalog.rejected` that says why, and stores nothing. Its exit code is
 *   `check`'s (2 when the tree could not be read), and 1 for a valid package of another kind.
 * - `evidence receipt` wraps `check`'s result: the same verdict, kind, identity, program hash,
 *   codes and reason codes, the ReproHash `check --format json` prints, and `check`'s exit code.
 *
 * No run ends in exit 70 or a stack trace. The library catalog as a browser or a runtime holds it
 * (a MemoryCatalogStore, installing from a MemoryFs) installs and refuses the same trees, with the
 * codes `check` gives on disk.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryCatalogStore, openCatalogStore } from "../../../src/catalog/index.js";
import { check } from "../../../src/check/check.js";
import { MemoryFs } from "../../../src/fs/memory-fs.js";
import { NodeFs } from "../../../src/fs/node-fs.js";
import { type CliRun, yaoc } from "../../support/cli.js";
import { fillMemoryTree, hostileCorpus } from "./corpus.js";
import { writeTree } from "./corpus-disk.js";

const root = mkdtempSync(join(tmpdir(), "yaoc-surfaces-verdicts-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface JsonDiagnostic {
  readonly code: string;
  readonly severity: string;
  readonly reason: string;
  readonly message: string;
  readonly help: string | null;
}

interface CheckJson {
  readonly kind: string;
  readonly valid: boolean;
  readonly identity: string | null;
  readonly id?: string | null;
  readonly version?: string | null;
  readonly program_hash?: string | null;
  readonly diagnostics: readonly JsonDiagnostic[];
  readonly repro_hash: string;
}

interface InstallJson {
  readonly status: string;
  readonly id: string | null;
  readonly version: string | null;
  readonly identity: string | null;
  readonly diagnostics: readonly JsonDiagnostic[];
}

/** Exit 0, 1 or 2 — never 70 (an internal error) — and no stack trace on stderr. */
function expectClean(run: CliRun, what: string): void {
  expect([0, 1, 2], `${what}: exit ${run.code}\n${run.err}`).toContain(run.code);
  expect(run.err, what).not.toMatch(/internal error|\n\s+at /);
}

const codes = (ds: readonly JsonDiagnostic[]) => ds.map((d) => `${d.code}/${d.reason}`);

describe("one hostile corpus: yaoc check, catalog install and evidence receipt give one verdict", () => {
  const corpus = hostileCorpus();

  it("covers valid and invalid HNS trees, a tree that cannot be read, and a valid package of another kind", () => {
    // What the comparison below is worth depends on these cases being in the corpus.
    expect(corpus.length).toBeGreaterThan(0);
    expect(corpus.some((t) => t.valid && t.root.endsWith(".hns"))).toBe(true);
    expect(corpus.some((t) => !t.valid && t.root.endsWith(".hns"))).toBe(true);
    expect(corpus.some((t) => t.valid && !t.root.endsWith(".hns"))).toBe(true);
    expect(corpus.some((t) => t.name === "nested-past-depth-limit")).toBe(true);
  });

  for (const tree of corpus) {
    it(tree.name, () => {
      const base = join(root, tree.name);
      mkdirSync(base);
      writeTree(base, tree);
      const pkg = join(base, tree.root);

      const checkRun = yaoc(["check", "--format", "json", pkg]);
      expectClean(checkRun, "check");
      const checked = (JSON.parse(checkRun.out) as { results: CheckJson[] }).results;
      expect(checked).toHaveLength(1);
      const c = checked[0]!;
      expect(c.valid, "the corpus records check's verdict").toBe(tree.valid);
      expect(checkRun.code === 0).toBe(c.valid);

      // catalog install
      const catalogDir = join(root, `catalog-${tree.name}`);
      const installRun = yaoc(["catalog", "install", "--catalog", catalogDir, "--format", "json", pkg]);
      expectClean(installRun, "catalog install");
      const installed = (JSON.parse(installRun.out) as { results: InstallJson[] }).results;
      expect(installed).toHaveLength(1);
      const i = installed[0]!;
      const listRun = yaoc(["catalog", "list", "--catalog", catalogDir, "--format", "json"]);
      expectClean(listRun, "catalog list");
      const stored = (JSON.parse(listRun.out) as { packages: { identity: string }[] }).packages;
      if (c.valid && c.kind === "hns") {
        expect(installRun.code).toBe(0);
        expect(i).toMatchObject({ status: "installed", identity: c.identity, id: c.id, version: c.version });
        expect(i.diagnostics).toEqual(c.diagnostics);
        expect(stored.map((p) => p.identity)).toEqual([c.identity]);
      } else {
        // check's own findings, word for word, then the one reason the catalog adds.
        expect(i.diagnostics.slice(0, -1)).toEqual(c.diagnostics);
        const why = i.diagnostics.at(-1)!;
        expect(why.code).toBe("catalog.rejected");
        expect(i.identity).toBeNull();
        expect(stored).toEqual([]);
        if (c.valid) {
          // A valid package of another kind: the catalog holds HNS packages only, and says so.
          expect(installRun.code).toBe(1);
          expect(i.status).toBe("rejected");
          expect(why.message).toMatch(/the catalog holds HNS packages only/);
        } else {
          expect(installRun.code, installRun.err).toBe(checkRun.code);
          expect(i.status).toBe(checkRun.code === 2 ? "error" : "rejected");
        }
      }

      // evidence receipt
      const receiptRun = yaoc(["evidence", "receipt", pkg]);
      expectClean(receiptRun, "evidence receipt");
      expect(receiptRun.code, receiptRun.err).toBe(checkRun.code);
      const receipts = (JSON.parse(receiptRun.out) as { receipts: { result: CheckJson; repro_hash: string }[] })
        .receipts;
      expect(receipts).toHaveLength(1);
      const r = receipts[0]!;
      expect({
        valid: r.result.valid,
        kind: r.result.kind,
        identity: r.result.identity,
        program_hash: r.result.program_hash,
        codes: codes(r.result.diagnostics),
      }).toEqual({
        valid: c.valid,
        kind: c.kind,
        identity: c.identity,
        program_hash: c.program_hash,
        codes: codes(c.diagnostics),
      });
      expect(r.repro_hash, "the receipt's ReproHash is the one check --format json prints").toBe(c.repro_hash);
    });
  }
});

describe("the library catalog over a MemoryFs (browsers, runtimes) installs what yaoc check on disk finds valid and HNS", () => {
  const corpus = hostileCorpus();
  const base = join(root, "library");

  it("on every tree of the corpus, with check's codes and identity", async () => {
    expect(corpus.length).toBeGreaterThan(0);
    const codesOf = (ds: readonly { code: string }[]) => ds.map((d) => d.code);
    for (const tree of corpus) {
      const onDisk = join(base, tree.name);
      mkdirSync(onDisk, { recursive: true });
      writeTree(onDisk, tree);
      const disk = await check(new NodeFs(), join(onDisk, tree.root));
      expect(disk.valid, `${tree.name}: yaoc check`).toBe(tree.valid);
      const fs = fillMemoryTree(new MemoryFs(), tree);
      const catalog = openCatalogStore(new MemoryCatalogStore());
      const outcome = await catalog.install(fs, `/work/${tree.root}`);
      const stored = (await catalog.list()).entries.map((e) => e.identity);
      if (disk.valid && disk.kind === "hns") {
        expect({ status: outcome.status, identity: outcome.identity }, tree.name).toEqual({
          status: "installed",
          identity: disk.identity,
        });
        expect(stored).toEqual([disk.identity]);
      } else {
        expect(outcome.status, tree.name).toBe(disk.ioError ? "error" : "rejected");
        expect(codesOf(outcome.diagnostics), tree.name).toEqual([...codesOf(disk.diagnostics), "catalog.rejected"]);
        expect(stored).toEqual([]);
      }
    }
  });
});
