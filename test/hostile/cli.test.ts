/**
 * Every hostile input of issue 12 through the real command line (`node bin/yaoc.js`, built by
 * `npm run build`): each must end with a diagnostic and exit 1 (invalid input) or 2 (usage or
 * I/O), never a stack trace (`    at ` frames) or "internal error", within a generous bound that
 * only a hang or a super-linear blow-up would exceed. Big inputs are generated here, at test time.
 * The HARP host commands are covered by the HARP suites.
 */
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/shared.js";

const BIN = join(REPO_ROOT, "bin", "yaoc.js");
const BOUND_MS = 120_000;
/** The vitest timeout of each test: above the bound, so a slow run fails on the bound's message. */
const TEST_MS = 2 * BOUND_MS;
const root = mkdtempSync(join(tmpdir(), "yaoc-hostile-cli-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

interface RunOptions {
  readonly cwd?: string;
  readonly env?: Record<string, string>;
  readonly stdin?: string;
  /** Close our end of the child's stdout at once, as `| head -c 0` would. */
  readonly closeStdout?: boolean;
}

function yaoc(args: readonly string[], options: RunOptions = {}): Promise<Run> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ...options.env };
    delete env.FORCE_COLOR;
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? root,
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), BOUND_MS);
    let stdout = "";
    let stderr = "";
    if (options.closeStdout) child.stdout.destroy();
    else child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.stdin.on("error", () => {});
    child.stdin.end(options.stdin ?? "");
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

/** The common promise: the expected exit code, no stack frame, no internal error, in bounded time. */
function expectClean(r: Run, code: number): void {
  expect(r.stderr, r.stderr.slice(0, 2000)).not.toMatch(/^ {4}at /m);
  expect(r.stderr).not.toContain("internal error");
  expect(r.stdout).not.toMatch(/^ {4}at .*\(.*:\d+:\d+\)$/m);
  expect(r.ms).toBeLessThan(BOUND_MS);
  expect(r.code, `${r.stderr.slice(0, 1000)}\n${r.stdout.slice(0, 1000)}`).toBe(code);
}

function dir(name: string, files: Record<string, string>): string {
  const d = join(root, name);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(d, rel, ".."), { recursive: true });
    writeFileSync(join(d, rel), text);
  }
  return d;
}

const copyFixture = (from: string, name: string): string => {
  const d = join(root, name);
  cpSync(join(REPO_ROOT, from), d, { recursive: true });
  return d;
};

const HARP_HEAD =
  '{"schemaVersion":1,"id":"notes","name":"Notes","version":"1.0.0","description":"x","runtime":{"kind":"http"},"start":{"argv":["node"';

describe("HCP packs with a lone surrogate escape", () => {
  const packs: [string, (s: string, p: string) => [string, string]][] = [
    [
      "surface id",
      (s, p) => [
        s.replace('"id": "acme.tickets"', '"id": "\\ud800"'),
        p.replace('"surface_id": "acme.tickets"', '"surface_id": "\\ud800"'),
      ],
    ],
    ["verb key", (s, p) => [s.replace('"ticket.list": {', '"\\ud800": {'), p]],
    ["policy key", (s, p) => [s, p.replace('"ticket.list": {', '"ticket.list\\udc00": {')]],
  ];
  it.each(packs)(
    "%s: check (human and JSON) and evidence receipt say hcp.json.lone_surrogate and exit 1",
    async (label, edit) => {
      const d = copyFixture("fixtures/hcp/valid", `hcp-${label.replace(/ /g, "-")}`);
      const [s, p] = edit(readFileSync(join(d, "surface.json"), "utf8"), readFileSync(join(d, "policy.json"), "utf8"));
      expect(s + p).toMatch(/\\u[dD][89a-fA-F]/);
      writeFileSync(join(d, "surface.json"), s);
      writeFileSync(join(d, "policy.json"), p);
      const [human, json, receipt] = await Promise.all([
        yaoc(["check", d]),
        yaoc(["check", "--format", "json", d]),
        yaoc(["evidence", "receipt", d]),
      ]);
      expectClean(human, 1);
      expect(human.stdout).toContain("error[hcp.json.lone_surrogate]");
      expect(human.stdout).toContain(": invalid (hcp)");
      expectClean(json, 1);
      const doc = JSON.parse(json.stdout) as { results: { valid: boolean; diagnostics: { code: string }[] }[] };
      expect(doc.results[0]!.valid).toBe(false);
      expect(doc.results[0]!.diagnostics.map((x) => x.code)).toContain("hcp.json.lone_surrogate");
      expectClean(receipt, 1);
      expect(receipt.stdout).toContain("hcp.json.lone_surrogate");
    },
    TEST_MS,
  );
});

describe("inputs that overflowed the stack or were quadratic", () => {
  it(
    "harp.json of 250 KB with 125,000 non-string start.argv items: 200 diagnosed, the other 124,801 counted (harp.diagnostic_limit)",
    async () => {
      const d = dir("harp-argv", { "harp.json": `${HARP_HEAD}${",1".repeat(125_000)}]}}`, "server.mjs": "" });
      const r = await yaoc(["check", d]);
      expectClean(r, 1);
      expect(r.stdout).toContain("info[harp.diagnostic_limit]: 124801 more diagnostics not shown (124801 errors)");
      expect(r.stdout).toContain("200 errors");
    },
    TEST_MS,
  );

  it(
    "an A3S ACL of 961 KB with 240,000 `x=1` lines: diagnosed, the human form capped",
    async () => {
      const d = copyFixture("fixtures/a3s/packages/valid-okf", "a3s-big");
      writeFileSync(join(d, "a3s-use-extension.acl"), `extension "acme/knowledge" {\n${"x=1\n".repeat(240_000)}}\n`);
      const r = await yaoc(["check", d]);
      expectClean(r, 1);
      expect(r.stdout).toMatch(/more diagnostics not shown/);
      expect(r.stdout.length).toBeLessThan(2_000_000);
    },
    TEST_MS,
  );

  it.each([
    ["eyJ- repeated", "eyJ-"],
    ["a JWT-looking prefix and no dots", "eyJa"],
  ])(
    "a 1 MiB harp.json of %s is judged by validate, check and hash in bounded time",
    async (_label, unit) => {
      const text = `${HARP_HEAD},"server.mjs"]},"x-acme":{"note":"${unit.repeat(Math.floor((1024 * 1024 - 300) / unit.length))}"}}`;
      expect(text.length).toBeLessThan(1024 * 1024);
      const d = dir(`harp-secret-${unit}`, { "harp.json": text, "server.mjs": "" });
      const runs = await Promise.all([yaoc(["harp", "validate", d]), yaoc(["check", d]), yaoc(["hash", d])]);
      for (const r of runs) expectClean(r, 0);
    },
    TEST_MS,
  );
});

describe("golden verify and attest with a malformed golden file", () => {
  it(
    "name the broken file, still compare the rest and still write the report",
    async () => {
      const groot = join(root, "golden-root");
      mkdirSync(join(groot, "examples"), { recursive: true });
      mkdirSync(join(groot, "golden", "evidence"), { recursive: true });
      cpSync(join(REPO_ROOT, "examples", "review.hns"), join(groot, "examples", "review.hns"));
      cpSync(join(REPO_ROOT, "examples", "review-dir.hns"), join(groot, "examples", "review-dir.hns"), {
        recursive: true,
      });
      cpSync(
        join(REPO_ROOT, "golden", "evidence", "examples__review-dir.hns.json"),
        join(groot, "golden", "evidence", "examples__review-dir.hns.json"),
      );
      writeFileSync(join(groot, "golden", "evidence", "examples__review.hns.json"), "{broken");
      const verify = await yaoc(["golden", "verify"], { cwd: groot });
      expectClean(verify, 1);
      expect(verify.stderr).toContain("evidence.golden_unreadable");
      expect(verify.stderr).toContain("golden/evidence/examples__review.hns.json");
      expect(verify.stdout).toContain("golden verify: 1/2 match");
      const out = join(groot, "reports");
      const attest = await yaoc(["attest", "--no-git", "--out", out], { cwd: groot });
      expectClean(attest, 1);
      const report = readFileSync(join(out, "attestation.md"), "utf8");
      expect(report).toContain("evidence.golden_unreadable");
      expect(report).toContain("examples__review.hns.json");
      expect(readFileSync(join(out, "attestation.jsonl"), "utf8").length).toBeGreaterThan(0);
    },
    TEST_MS,
  );
});

describe("evidence canon and evidence hash on bad documents", () => {
  const cases: [string, string, string][] = [
    ["invalid JSON", "{broken", "evidence.input_not_json"],
    ["a lone surrogate", '{"a":"\\ud800"}', "evidence.input_not_json"],
    ["a lone low surrogate in a key", '{"\\udc00":1}', "evidence.input_not_json"],
    ["a duplicate member", '{"a":1,"b":{"c":1,"c":2}}', "evidence.input_duplicate_key"],
    ["a number outside binary64", "[1e400]", "evidence.input_not_json"],
  ];
  it.each(cases)(
    "%s: a diagnostic with a code frame, exit 1, from stdin and from a file",
    async (label, text, code) => {
      const file = join(root, `canon-${label.replace(/ /g, "-")}.json`);
      writeFileSync(file, text);
      const runs = await Promise.all([
        yaoc(["evidence", "canon"], { stdin: text }),
        yaoc(["evidence", "hash", file]),
        yaoc(["evidence", "canon", file]),
      ]);
      for (const r of runs) {
        expectClean(r, 1);
        expect(r.stderr).toContain(`error[${code}]`);
        expect(r.stderr).toMatch(/^1 \| /m);
        expect(r.stdout).toBe("");
      }
    },
    TEST_MS,
  );

  it(
    "still canonicalizes and hashes a good document",
    async () => {
      const [canon, hash] = await Promise.all([
        yaoc(["evidence", "canon"], { stdin: '{"b":2,"a":[1.50,"é"]}' }),
        yaoc(["evidence", "hash"], { stdin: '{"a":[1.5,"é"],"b":2}' }),
      ]);
      expectClean(canon, 0);
      expect(canon.stdout).toBe('{"a":[1.5,"é"],"b":2}');
      expectClean(hash, 0);
      expect(hash.stdout).toMatch(/^[0-9a-f]{16}\n$/);
    },
    TEST_MS,
  );

  it(
    "a file that cannot be read is exit 2",
    async () => {
      const [missing, directory] = await Promise.all([
        yaoc(["evidence", "canon", join(root, "nope.json")]),
        yaoc(["evidence", "hash", root]),
      ]);
      expectClean(missing, 2);
      expect(missing.stderr).toContain("no such file");
      expectClean(directory, 2);
    },
    TEST_MS,
  );
});

describe("a closed output pipe", () => {
  const env = { YAOC_CATALOG: join(root, "catalog") };
  it(
    "catalog list and verify end quietly with the exit code they would have had",
    async () => {
      const install = await yaoc(
        [
          "catalog",
          "install",
          join(REPO_ROOT, "examples", "review.hns"),
          join(REPO_ROOT, "examples", "review-dir.hns"),
        ],
        { env },
      );
      expectClean(install, 0);
      for (const args of [
        ["catalog", "list"],
        ["catalog", "verify"],
      ]) {
        const r = await yaoc(args, { env, closeStdout: true });
        expectClean(r, 0);
        expect(r.stderr).not.toContain("EPIPE");
      }
    },
    TEST_MS,
  );

  it(
    "check --format json of many packages, valid and invalid, keeps exit 0 and 1 apart",
    async () => {
      const valid = Array.from({ length: 40 }, () => join(REPO_ROOT, "examples", "review.hns"));
      const ok = await yaoc(["check", "--format", "json", ...valid], { closeStdout: true });
      expectClean(ok, 0);
      expect(ok.stderr).toBe("");
      const bad = await yaoc(["check", "--format", "json", ...valid, join(REPO_ROOT, "fixtures", "hcp", "id-empty")], {
        closeStdout: true,
      });
      expectClean(bad, 1);
      expect(bad.stderr).toBe("");
    },
    TEST_MS,
  );
});
