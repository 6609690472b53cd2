/**
 * `yaoc check --jobs N`: packages checked on worker threads give byte-for-byte the output and exit
 * code of `--jobs 1` in every format, and a failing worker becomes a `cli.worker` diagnostic (exit 2)
 * instead of taking the CLI down.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { runCheck } from "../../src/cli/check-command.js";
import { NodeFs } from "../../src/fs/node-fs.js";
import { yaoc } from "../support/cli.js";
import { REPO_ROOT } from "../support/shared.js";

/** Valid and invalid packages of every kind, plus a glob that matches nothing (a usage error). */
const MIXED = [
  "fixtures/hns/failure",
  "fixtures/harp",
  "fixtures/hcp",
  "examples",
  "fixtures/a3s/packages",
  "no-such-dir/*.hns",
];

describe("check --jobs N", () => {
  for (const format of ["human", "json", "sarif", "github"]) {
    it(`prints the same bytes and exits the same for --jobs 1, 2 and 4 (--format ${format})`, () => {
      const one = yaoc(["check", "--format", format, "--jobs", "1", ...MIXED]);
      expect(one.code).toBe(2);
      expect(one.out.length).toBeGreaterThan(1000);
      for (const jobs of ["2", "4"]) {
        const many = yaoc(["check", "--format", format, "--jobs", jobs, ...MIXED]);
        expect(many.code).toBe(one.code);
        expect(many.out).toBe(one.out);
      }
    });
  }

  it("rejects --jobs 0 as a usage error", () => {
    const r = yaoc(["check", "--jobs", "0", "examples"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--jobs/);
  });

  it("documents --jobs in the help", () => {
    expect(yaoc(["check", "--help"]).out).toMatch(
      /-j, --jobs <n>[\s\S]*n - 1 worker threads[\s\S]*default: 1; this\s+machine\s+has\s+\d+\s+cores/,
    );
  });
});

describe("a failing worker", () => {
  let tmp: string;
  let out: string;
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), "yaoc-jobs-"));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  afterEach(() => vi.restoreAllMocks());

  async function checkWith(workerSource: string, jobs = 2, count = 3): Promise<number> {
    const file = join(tmp, `worker-${Math.random().toString(36).slice(2)}.mjs`);
    writeFileSync(file, workerSource);
    out = "";
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    const paths = ["examples/review.hns", "examples/review-dir.hns", "fixtures/harp/valid-minimal"]
      .slice(0, count)
      .map((p) => join(REPO_ROOT, p));
    return runCheck(new NodeFs(), paths, { format: "json", analyze: true, jobs, workerUrl: pathToFileURL(file) });
  }

  it("is never started for one package or --jobs 1 (they are checked in-process)", async () => {
    const broken = `throw new Error("a worker was started");`;
    for (const [jobs, count] of [
      [4, 1],
      [1, 3],
    ] as const) {
      expect(await checkWith(broken, jobs, count)).toBe(0);
      const doc = JSON.parse(out) as { results: { valid: boolean }[] };
      expect(doc.results.map((r) => r.valid)).toEqual(new Array(count).fill(true));
    }
  });

  it("that throws on start gives the path it took a cli.worker diagnostic and exit 2; this thread checks the rest", async () => {
    const code = await checkWith(`throw new Error("boom at start");`);
    expect(code).toBe(2);
    const doc = JSON.parse(out) as { results: { valid: boolean; diagnostics: { code: string; message: string }[] }[] };
    expect(doc.results).toHaveLength(3);
    // The worker is started first and takes the first path; replacements may take more.
    expect(doc.results[0]!.diagnostics[0]!.code).toBe("cli.worker");
    expect(doc.results[0]!.diagnostics[0]!.message).toMatch(/boom at start/);
    for (const r of doc.results.slice(1)) {
      if (r.valid) expect(r.diagnostics.filter((d) => d.code === "cli.worker")).toEqual([]);
      else expect(r.diagnostics[0]!.code).toBe("cli.worker");
    }
    expect(doc.results.some((r) => r.valid)).toBe(true);
  });

  it("that exits mid-check loses only the path it held; a fresh worker checks the rest", async () => {
    // The worker given the first path dies; its replacement (and this thread) check the rest.
    const code = await checkWith(`
      import { parentPort } from "node:worker_threads";
      parentPort.on("message", (t) => {
        if (t.index === 0) process.exit(3);
        parentPort.postMessage({ index: t.index, result: { path: t.path, kind: "hns", valid: true, identity: null, diagnostics: [] }, ioError: false });
      });`);
    expect(code).toBe(2);
    const doc = JSON.parse(out) as {
      results: { path: string; valid: boolean; diagnostics: { code: string; message: string }[] }[];
    };
    expect(doc.results.map((r) => r.valid)).toEqual([false, true, true]);
    expect(doc.results[0]!.diagnostics[0]!.code).toBe("cli.worker");
    expect(doc.results[0]!.diagnostics[0]!.message).toMatch(/exited with code 3/);
  });

  it("that answers the two tasks it holds out of order still puts each result at its own path", async () => {
    // The pool gives a worker a second task while it checks the first (check-pool.ts); replies are
    // matched by index, never by arrival order.
    const code = await checkWith(`
      import { parentPort } from "node:worker_threads";
      const held = [];
      const reply = (t) => parentPort.postMessage({ index: t.index, result: { path: t.path, kind: "hns", valid: true, identity: "sha256:" + t.index, diagnostics: [] }, ioError: false });
      parentPort.on("message", (t) => {
        held.push(t);
        if (held.length === 2) { reply(held[1]); reply(held[0]); held.length = 0; }
      });`);
    expect(code).toBe(0);
    const doc = JSON.parse(out) as { results: { path: string; identity: string | null }[] };
    expect(doc.results.map((r) => r.path)).toEqual(
      ["examples/review.hns", "examples/review-dir.hns", "fixtures/harp/valid-minimal"].map((p) => join(REPO_ROOT, p)),
    );
    // The worker took the first two paths (indexes 0 and 1) and answered them in reverse.
    expect(doc.results.slice(0, 2).map((r) => r.identity)).toEqual(["sha256:0", "sha256:1"]);
  });

  it("that dies holding two tasks fails only the one it was checking; the other is checked elsewhere", async () => {
    const code = await checkWith(`
      import { parentPort } from "node:worker_threads";
      const held = [];
      parentPort.on("message", (t) => {
        held.push(t);
        if (held[0].index === 0) { if (held.length === 2) process.exit(3); return; }
        parentPort.postMessage({ index: t.index, result: { path: t.path, kind: "hns", valid: true, identity: null, diagnostics: [] }, ioError: false });
      });`);
    expect(code).toBe(2);
    const doc = JSON.parse(out) as { results: { valid: boolean; diagnostics: { code: string; message: string }[] }[] };
    expect(doc.results.map((r) => r.valid)).toEqual([false, true, true]);
    expect(doc.results[0]!.diagnostics[0]!.message).toMatch(/exited with code 3/);
    expect(doc.results.slice(1).flatMap((r) => r.diagnostics)).toEqual([]);
  });
});
