/**
 * Every entry counts (issue 14): a name that is not valid UTF-8 makes the package invalid with a
 * clear code in every frontend — never skipped, never merged with another name. Built at test time
 * on a real disk (git cannot hold such names portably), checked through the CLI.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { decodeName, encodeName, isUndecodableName } from "../../src/fs/names.js";
import { NodeFs } from "../../src/fs/node-fs.js";
import { SnapshotFs } from "../../src/fs/snapshot.js";
import { readPackageSnapshot } from "../../src/fs/node-snapshot.js";

const REPO = resolve(__dirname, "..", "..");
const BIN = join(REPO, "bin", "yaoc.js");
const work = mkdtempSync(join(tmpdir(), "yaoc-names-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A path under `dir` whose last component is `prefix` + raw `bytes` + `suffix`. */
function rawPath(dir: string, bytes: number[], suffix: string): Buffer {
  return Buffer.concat([Buffer.from(`${dir}/`), Buffer.from(bytes), Buffer.from(suffix)]);
}

function copyOf(fixture: string, name: string): string {
  const dst = join(work, name);
  cpSync(join(REPO, fixture), dst, { recursive: true });
  return dst;
}

function check(
  path: string,
  extra: string[] = ["check", "--format", "json"],
): { code: number; codes: string[]; out: string } {
  const r = spawnSync(process.execPath, [BIN, ...extra, path], {
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  let codes: string[] = [];
  try {
    const doc = JSON.parse(r.stdout) as { results?: { diagnostics: { code: string }[] }[] };
    codes = (doc.results ?? []).flatMap((x) => x.diagnostics.map((d) => d.code));
  } catch {
    codes = [...`${r.stdout}${r.stderr}`.matchAll(/\b([a-z0-9]+(?:\.[a-z0-9_]+)+)\b/g)].map((m) => m[1]!);
  }
  return { code: r.status ?? -1, codes, out: r.stdout + r.stderr };
}

describe("surrogate-escaped names", () => {
  it("decoding is injective and reversible on arbitrary bytes; only non-UTF-8 names are flagged", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), fc.uint8Array({ maxLength: 24 }), (a, b) => {
        const da = decodeName(a);
        expect(encodeName(da)).toEqual(a);
        if (Buffer.compare(Buffer.from(a), Buffer.from(b)) !== 0) expect(decodeName(b)).not.toBe(da);
        let valid = true;
        try {
          new TextDecoder("utf-8", { fatal: true }).decode(a);
        } catch {
          valid = false;
        }
        expect(isUndecodableName(da)).toBe(!valid);
      }),
      { numRuns: 2000 },
    );
  });

  it("NodeFs and the snapshot keep \\xff.sh and \\xfe.sh apart (a lossy decode would merge them)", async () => {
    const dir = join(work, "two");
    mkdirSync(dir);
    writeFileSync(rawPath(dir, [0xff], ".sh"), "one");
    writeFileSync(rawPath(dir, [0xfe], ".sh"), "two");
    const names = (await new NodeFs().readdir(dir)).sort();
    expect(names).toHaveLength(2);
    expect(names[0]).not.toBe(names[1]);
    const snap = new SnapshotFs(await readPackageSnapshot(dir));
    expect(snap.undecodableEntries()).toHaveLength(2);
    // Both are readable by their escaped names, with their own bytes.
    const texts = await Promise.all(
      names.map(async (n) => new TextDecoder().decode(await snap.readFile(`${dir}/${n}`, 10))),
    );
    expect(texts.sort()).toEqual(["one", "two"]);
  });
});

describe("a non-UTF-8 name makes the package invalid in every frontend", () => {
  it("HNS directory package: a stray \\xff-payload.sh at the root → hns.non_utf8_name (exit 1, no identity)", () => {
    const pkg = copyOf("examples/review-dir.hns", "stray.hns");
    writeFileSync(rawPath(pkg, [0xff], "-payload.sh"), "#!/bin/sh\n");
    const r = check(pkg);
    expect(r.code).toBe(1);
    expect(r.codes).toContain("hns.non_utf8_name");
    expect(check(pkg, ["hash"]).code).toBe(1);
  });

  it("HNS: functions/\\xfe.yao → hns.non_utf8_name", () => {
    const pkg = copyOf("examples/review-dir.hns", "fn.hns");
    writeFileSync(rawPath(join(pkg, "functions"), [0xfe], ".yao"), "(fn x)\n");
    expect(check(pkg).codes).toContain("hns.non_utf8_name");
  });

  it.each([
    ["a file \\xff-payload.sh", (d: string) => writeFileSync(rawPath(d, [0xff], "-payload.sh"), "#!/bin/sh\n")],
    ["a directory \\xfe-dir/", (d: string) => mkdirSync(rawPath(d, [0xfe], "-dir"))],
  ])("HARP app with %s → harp.non_utf8_name; harp hash and check refuse it", (label, add) => {
    const app = copyOf("fixtures/harp/valid-full", `harp-${label.length}-${Math.random().toString(36).slice(2)}`);
    const before = check(app, ["hash"]);
    expect(before.code).toBe(0);
    add(app);
    const r = check(app);
    expect(r.code).toBe(1);
    expect(r.codes).toContain("harp.non_utf8_name");
    const h = check(app, ["hash"]);
    expect(h.code).toBe(1);
    expect(h.out).not.toContain(before.out.trim());
  });

  it("A3S package with \\xff-payload.sh → a3s.package.non_utf8_name (no fingerprint)", () => {
    const pkg = copyOf("fixtures/a3s/packages/valid-okf", "a3s-pkg");
    expect(check(pkg).code).toBe(0);
    writeFileSync(rawPath(pkg, [0xff], "-payload.sh"), "x");
    const r = check(pkg);
    expect(r.code).toBe(1);
    expect(r.codes).toContain("a3s.package.non_utf8_name");
  });

  it("OKF bundle with \\xff.md → a3s.okf.non_utf8_name (yaoc okf check)", () => {
    const bundle = copyOf("fixtures/a3s/okf/bundle-v02", "okf-bundle");
    expect(check(bundle, ["okf", "check"]).code).toBe(0);
    writeFileSync(rawPath(bundle, [0xff], ".md"), "# x\n");
    const r = check(bundle, ["okf", "check"]);
    expect(r.code).toBe(1);
    expect(r.out).toContain("a3s.okf.non_utf8_name");
  });

  it("HCP pack with \\xff-payload.sh → hcp.pack.non_utf8_name, although the digest would not cover it", () => {
    const pack = copyOf("fixtures/hcp/valid", "hcp-pack");
    expect(check(pack).code).toBe(0);
    writeFileSync(rawPath(pack, [0xff], "-payload.sh"), "x");
    const r = check(pack);
    expect(r.code).toBe(1);
    expect(r.codes).toContain("hcp.pack.non_utf8_name");
  });
});
