/**
 * The secret scan's rules, one case per row of the table in docs/harp.md ("Secret scan"), each with
 * a near miss that stays clean, and a 1 MiB input per rule that must complete (a hang guard for a
 * regression to backtracking; there is no timing assertion).
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { validateManifestText } from "../../src/harp/index.js";
import { harpJson } from "../support/harp-manifest.js";
import { REPO } from "./helpers.js";

const secretsIn = (x: object) =>
  validateManifestText(harpJson({ "x-acme": x }))
    .diagnostics.filter((d) => d.code === "harp.secret_in_manifest")
    .map((d) => d.pointer);

/** [row, flagged member value, near miss that stays clean] */
const ROWS: [string, object, object][] = [
  ["PEM private key", { note: "-----BEGIN EC PRIVATE KEY-----\nMHc" }, { note: "-----BEGIN CERTIFICATE-----" }],
  ["AWS access key id", { note: "AKIAABCDEFGHIJKLMNOP" }, { note: "AKIAABCDEFGHIJKLMNO" }],
  [
    "AWS secret access key",
    { note: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" },
    // A SHA-1 in hex is 40 characters of one case; 39 characters are not the shape either.
    { sha: "da39a3ee5e6b4b0d3255bfef95601890afd80709", note: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKE" },
  ],
  ["GitHub token", { note: `ghp_${"a".repeat(36)}` }, { note: "ghp_short" }],
  ["GitHub fine-grained token", { note: `github_pat_${"a".repeat(22)}` }, { note: "github_pat_x" }],
  ["GitHub token (gho_)", { note: `gho_${"b".repeat(36)}` }, { note: "gho_short" }],
  ["GitLab token", { note: `glpat-${"x1".repeat(10)}` }, { note: "glpat-short" }],
  ["Hugging Face token", { note: `hf_${"aB3".repeat(12)}` }, { note: "hf_hub_download" }],
  ["sk- API key", { note: `sk-${"A".repeat(24)}` }, { note: "sk-learn" }],
  ["Slack token", { note: "xoxb-1234567890-abc" }, { note: "xoxb-1" }],
  ["Slack token (xoxa, xoxp)", { note: "xoxp-1234567890-abc" }, { note: "xoxz-1234567890-abc" }],
  ["Google API key", { note: `AIza${"B".repeat(35)}` }, { note: "AIzaShort" }],
  [
    "JSON Web Token",
    { note: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlX3g" },
    { note: "eyJhbGciOiJIUzI1NiJ9" },
  ],
  [
    "Bearer credentials",
    { argv: "Authorization: Bearer 4f9c2a7e1b3d5f60" },
    { note: "Bearer $API_TOKEN, Bearer <token>; Bearer authentication" },
  ],
  [
    "Basic credentials",
    { header: `Authorization: Basic ${btoa("alice:s3cret")}` },
    { note: "Basic authentication, Basic usage" },
  ],
  [
    "credentials in a URL",
    { db: "postgres://user:password@db.example/notes" },
    { db: "postgres://user@db.example/notes", other: "postgres://user:${DB_PASSWORD}@db.example:5432/notes" },
  ],
  ["password-named member, any length", { password: "abc" }, { password: "$NOTES_PASSWORD" }],
  ["password-named member (passwd, passphrase, db_password)", { db_password: "x1" }, { password: "" }],
  ["other secret-named member, 8+ characters", { apiKey: "0123456789" }, { apiKey: "short" }],
  ["other secret-named member: bearer", { bearer: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b" }, { bearer: "$BEARER" }],
  [
    "random-looking value under a key-named member",
    { signingKey: "q8Xv2LpZ7tRk4NwYb9Hs", hmac_key: "9f86d081884c7d659a2f" },
    { signingKey: "production-signing-key-2024", key: "notes-primary-storage", keyboard: "q8Xv2LpZ7tRk4NwYb9Hs" },
  ],
  [
    "password assignment in a value, any length",
    { note: "mysql://u?password=pw1" },
    { note: "password: <ask the user>" },
  ],
  ["secret assignment in a value, 8+ characters", { note: "--token=abcdef0123456789" }, { note: "token = short" }],
];

describe("secret scan rows (docs/harp.md)", () => {
  it.each(ROWS)("%s", (_row, flagged, clean) => {
    expect(secretsIn(flagged)).toHaveLength(Object.keys(flagged).length);
    expect(secretsIn(clean)).toEqual([]);
  });

  it("every row of the table in docs/harp.md has a case here, and every case a row", () => {
    const doc = readFileSync(join(REPO, "docs/harp.md"), "utf8");
    const table = doc.slice(doc.indexOf("**Secret scan**"), doc.indexOf("Every pattern is linear"));
    const documented = [...table.matchAll(/^\s*\| ([^|]+?) \|/gm)]
      .map((m) => m[1]!)
      .filter((r) => r !== "Row" && r !== "---");
    const tested = new Set(ROWS.map(([row]) => row.split(/[,(:]/)[0]!.trim()));
    expect(documented.length).toBeGreaterThan(0);
    for (const row of documented) expect(tested.has(row), row).toBe(true);
    for (const row of tested) expect(documented.includes(row), row).toBe(true);
  });

  it("the five secrets of issue 27 in one manifest are each reported, and no message echoes one", () => {
    const secrets = {
      header: "Bearer 4f9c2a7e1b3d5f60a1b2",
      bearer: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
      hub: `hf_${"aB3".repeat(12)}`,
      aws: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      db: "postgres://user:password@db.example/notes",
    };
    const text = harpJson({ start: { argv: ["node", "server.mjs", "--header", secrets.header] }, "x-acme": secrets });
    const found = validateManifestText(text).diagnostics.filter((d) => d.code === "harp.secret_in_manifest");
    expect(found.map((d) => d.pointer).sort()).toEqual(
      ["/start/argv/3", "/x-acme/aws", "/x-acme/bearer", "/x-acme/db", "/x-acme/header", "/x-acme/hub"].sort(),
    );
    const words = JSON.stringify(found.map((d) => [d.message, d.hint, d.label]));
    for (const v of Object.values(secrets)) expect(words).not.toContain(v);
    expect(words).not.toContain("password@");
    expect(words).not.toContain("4f9c2a7e");
  });

  it("a secret in a path-like or invalid value is not echoed by the other diagnostics either", () => {
    const token = `ghp_${"c".repeat(36)}`;
    const r = validateManifestText(harpJson({ id: token, start: { argv: ["node", `/${token}`] } }));
    expect(r.diagnostics.map((d) => d.code)).toEqual(
      expect.arrayContaining(["harp.invalid_value", "harp.argv_path_escapes", "harp.secret_in_manifest"]),
    );
    for (const d of r.diagnostics) expect(JSON.stringify([d.message, d.hint, d.label]), d.code).not.toContain(token);
  });

  it("a short password is flagged at its member", () => {
    expect(secretsIn({ password: "hunter2" })).toEqual(["/x-acme/password"]);
    expect(secretsIn({ passwd: "a" })).toEqual(["/x-acme/passwd"]);
    expect(secretsIn({ passphrase: "two words" })).toEqual(["/x-acme/passphrase"]);
  });

  it("members merely containing the letters are not passwords", () => {
    expect(secretsIn({ passthrough: "yes", bypass: "no", compass: "north", pass: "through" })).toEqual([]);
    expect(secretsIn({ note: "tests pass: all green" })).toEqual([]);
  });

  // Hang guard: 1 MiB built to make each rule backtrack if it could. Completing is the assertion.
  const MiB = 1024 * 1024;
  const fill = (unit: string) => unit.repeat(Math.floor((MiB - 400) / unit.length));
  it.each([
    ["password assignments without a value", { note: fill("password= ") }],
    ["password assignments with spaces", { note: fill("password \t ") }],
    ["secret assignments one short", { note: fill("token=abcdefg ") }],
    ["password-named member of 1 MiB", { password: fill("a") }],
    ["secret-named member of 1 MiB with spaces", { secret: fill("a ") }],
    ["Bearer prefixes without digits", { note: fill("Bearer abcdefgh ") }],
    ["Basic prefixes that do not decode", { note: fill("Basic QUJD ") }],
    ["Basic with a long run and a third '='", { note: `Basic ${fill("QUJD")}===` }],
    ["URL schemes without a password", { note: fill("a://b:c") }],
    ["URL user parts without '@'", { note: `x://u:${fill("p:")}` }],
    ["base64 runs one short of an AWS key", { note: fill("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKE ") }],
    ["a key-named member of 1 MiB", { signingKey: fill("aB3+") }],
  ])("1 MiB of %s completes", (_label, x) => {
    expect(Array.isArray(secretsIn(x))).toBe(true);
  });
});
