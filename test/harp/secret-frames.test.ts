/**
 * Secrets in human code frames (HARP §9.4): a value the secret scan flags never reaches a code
 * frame — its own or that of another diagnostic on the same line — as it never reaches a message
 * or the JSON output. The frames are drawn from the manifest text with the flagged values masked,
 * scalar for scalar at the same display width, so every column stays the file's.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { measureLine } from "../../src/diagnostics/display-width.js";
import { renderHuman } from "../../src/diagnostics/render.js";
import { DisplayColumnCache } from "../../src/diagnostics/text-positions.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { checkHarp } from "../../src/harp/index.js";
import { renderJson } from "../../src/output/format-json.js";
import { yaoc } from "../support/cli.js";
import { harpJson } from "../support/harp-manifest.js";

const TOKEN = `ghp_${"a".repeat(36)}`;
// Wide characters and an emoji ZWJ sequence (one 2-column picture of several scalars).
const PASSWORD = "密码hunter2👩‍👩‍👧x";
const URL = "postgres://user:s3cretpw@db.example/notes";
const secrets = [TOKEN, PASSWORD, URL];

// Everything on one line, with a plain value after the secrets that stays as it is.
const manifest = harpJson(
  {
    start: { argv: ["node", "server.mjs", "--token", TOKEN] },
    "x-acme": { password: PASSWORD, note: URL, plain: "visible-42" },
    extra: 1,
  },
  { compact: true },
);

const check = (text: string) =>
  checkHarp(MemoryFs.from({ "/p/harp.json": text, "/p/server.mjs": "" }), "/p", { digest: false });

describe("secrets in human code frames", () => {
  it("are masked in every frame of their line; the other values are shown", async () => {
    const r = await check(manifest);
    const flagged = r.diagnostics.filter((d) => d.code === "harp.secret_in_manifest");
    expect(flagged.map((d) => d.pointer).sort()).toEqual(["/start/argv/3", "/x-acme/note", "/x-acme/password"]);
    const human = renderHuman([r], { color: false });
    expect(human).toContain('"plain":"visible-42"');
    expect(human).toContain(`"--token","${"*".repeat(TOKEN.length)}"`);
    for (const s of [...secrets, "s3cretpw", "hunter2", "密码"]) expect(human).not.toContain(s);
  });

  it("keep the line's geometry: display columns and JSON columns are the original file's", async () => {
    const r = await check(manifest);
    const masked = r.sources?.get("/p/harp.json");
    expect(masked).toBeDefined();
    expect(masked).not.toBe(manifest);
    expect([...masked!].length).toBe([...manifest].length);
    expect(measureLine(masked!)).toEqual(measureLine(manifest));
    // The JSON columns, as computed from the masked text, are those of the file on disk.
    const original = new DisplayColumnCache(new Map([["/p/harp.json", manifest]]));
    const json = JSON.parse(renderJson([r])).results[0].diagnostics as { column: number; end_column: number }[];
    const withSpans = r.diagnostics.filter((d) => d.span !== undefined);
    // The unknown member comes after every secret on the line: its columns depend on their widths.
    expect(withSpans.map((d) => d.code)).toContain("harp.unknown_field");
    const expected = r.diagnostics.map((d) =>
      d.span === undefined
        ? [null, null]
        : [original.column(d.file, d.span.start), original.column(d.file, d.span.end)],
    );
    expect(json.map((d) => [d.column, d.end_column])).toEqual(expected);
  });

  it("are masked past the cap too, where the finding is only counted", async () => {
    const members: Record<string, unknown> = {};
    for (let i = 0; i < 250; i++) members[`x-s${i}`] = { token: `ghp_${String(i).padStart(36, "b")}` };
    const r = await check(harpJson(members));
    expect(r.diagnostics.at(-1)?.code).toBe("harp.diagnostic_limit");
    const masked = r.sources!.get("/p/harp.json")!;
    for (let i = 0; i < 250; i++) expect(masked).not.toContain(`ghp_${String(i).padStart(36, "b")}`);
  });

  it("near miss: a manifest without secrets is drawn from its own text", async () => {
    const text = harpJson({ "x-acme": { note: "ghp_short", password: "$PASSWORD" } });
    const r = await check(text);
    expect(r.diagnostics.map((d) => d.code)).not.toContain("harp.secret_in_manifest");
    expect(r.sources?.get("/p/harp.json")).toBe(text);
  });
});

describe("yaoc check on a manifest with secrets", () => {
  const root = mkdtempSync(join(tmpdir(), "yaoc-secret-frames-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const pkg = join(root, "app");
  it("prints no secret, and its result cache holds none", () => {
    mkdirSync(pkg);
    writeFileSync(join(pkg, "harp.json"), manifest);
    writeFileSync(join(pkg, "server.mjs"), "");
    const r = yaoc(["check", "--cache", "app"], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.out).toContain("harp.secret_in_manifest");
    const files: string[] = [];
    const walk = (d: string) => {
      for (const n of readdirSync(d)) {
        const f = join(d, n);
        if (statSync(f).isDirectory()) walk(f);
        else files.push(f);
      }
    };
    walk(join(root, ".yaoc-cache"));
    expect(files.length).toBeGreaterThan(0);
    const cached = files.map((f) => readFileSync(f, "latin1")).join("\n");
    // The cache keeps the text frames are drawn from (the plain value is in it), masked.
    expect(cached).toContain("visible-42");
    for (const s of [TOKEN, "s3cretpw", "hunter2"]) {
      expect(r.out).not.toContain(s);
      expect(cached).not.toContain(s);
    }
  });
});
