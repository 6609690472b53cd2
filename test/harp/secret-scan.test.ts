/**
 * The secret scan's rules, one case per row of the table in docs/harp.md ("Secret scan"), each with
 * a near miss that stays clean, and a 1 MiB input per rule that must complete (a hang guard for a
 * regression to backtracking; there is no timing assertion).
 */
import { describe, expect, it } from "vitest";
import { validateManifestText } from "../../src/harp/index.js";

const base = {
  schemaVersion: 1,
  id: "notes",
  name: "Notes",
  version: "1.0.0",
  runtime: { kind: "http" },
  start: { argv: ["node", "server.mjs"] },
};
const secretsIn = (x: object) =>
  validateManifestText(JSON.stringify({ ...base, "x-acme": x }, null, 2))
    .diagnostics.filter((d) => d.code === "harp.secret_in_manifest")
    .map((d) => d.pointer);

/** [row, flagged member value, near miss that stays clean] */
const ROWS: [string, object, object][] = [
  ["PEM private key", { note: "-----BEGIN EC PRIVATE KEY-----\nMHc" }, { note: "-----BEGIN CERTIFICATE-----" }],
  ["AWS access key id", { note: "AKIAABCDEFGHIJKLMNOP" }, { note: "AKIAABCDEFGHIJKLMNO" }],
  ["GitHub token", { note: `ghp_${"a".repeat(36)}` }, { note: "ghp_short" }],
  ["GitHub fine-grained token", { note: `github_pat_${"a".repeat(22)}` }, { note: "github_pat_x" }],
  ["sk- API key", { note: `sk-${"A".repeat(24)}` }, { note: "sk-learn" }],
  ["Slack token", { note: "xoxb-1234567890-abc" }, { note: "xoxb-1" }],
  ["Google API key", { note: `AIza${"B".repeat(35)}` }, { note: "AIzaShort" }],
  [
    "JSON Web Token",
    { note: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlX3g" },
    { note: "eyJhbGciOiJIUzI1NiJ9" },
  ],
  ["password-named member, any length", { password: "abc" }, { password: "$NOTES_PASSWORD" }],
  ["password-named member (passwd, passphrase, db_password)", { db_password: "x1" }, { password: "" }],
  ["other secret-named member, 8+ characters", { apiKey: "0123456789" }, { apiKey: "short" }],
  [
    "password assignment inside a value, any length",
    { note: "mysql://u?password=pw1" },
    { note: "password: <ask the user>" },
  ],
  ["secret assignment inside a value, 8+ characters", { note: "--token=abcdef0123456789" }, { note: "token = short" }],
];

describe("secret scan rows (docs/harp.md)", () => {
  it.each(ROWS)("%s", (_row, flagged, clean) => {
    expect(secretsIn(flagged)).toHaveLength(1);
    expect(secretsIn(clean)).toEqual([]);
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
  ])("1 MiB of %s completes", (_label, x) => {
    expect(Array.isArray(secretsIn(x))).toBe(true);
  });
});
