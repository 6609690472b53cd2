import { Command } from "commander";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { registerHcpCommands, runHcpDigest, runHcpLint } from "../../src/cli/hcp.js";

const fixtures = join(resolve(dirname(fileURLToPath(import.meta.url)), "../.."), "fixtures/hcp");

describe("yaoc hcp", () => {
  it("lint prints the common result shape as JSON and exits 1 on an invalid pack", async () => {
    let out = "";
    const status = await runHcpLint([join(fixtures, "valid"), join(fixtures, "surface-id-mismatch")], { json: true }, (t) => (out += t));
    expect(status).toBe(1);
    const [valid, invalid] = out.trim().split("\n").map((l) => JSON.parse(l));
    expect(Object.keys(valid).slice(0, 5)).toEqual(["path", "kind", "valid", "identity", "diagnostics"]);
    expect(valid).toMatchObject({ kind: "hcp", valid: true, pack_id: "acme.tickets" });
    expect(valid.identity).toBe(valid.digest);
    expect(invalid.valid).toBe(false);
    expect(invalid.identity).toBeNull();
    expect(invalid.diagnostics[0].code).toBe("hcp.identity.surface_id_mismatch");
  });

  it("lint prints located text with hints and notes", async () => {
    let out = "";
    const status = await runHcpLint([join(fixtures, "surface-id-mismatch")], { json: false }, (t) => (out += t));
    expect(status).toBe(1);
    expect(out).toContain("policy.json:2:17: error[hcp.identity.surface_id_mismatch]");
    expect(out).toContain("  hint: Set surface_id");
    expect(out).toContain("surface.json:2:9: the pack_id is declared here");
    expect(out).toMatch(/invalid HCP pack \(1 error, 0 warnings\)\n$/);
  });

  it("digest prints the digest, or the problems when files are missing", async () => {
    let out = "";
    let err = "";
    expect(await runHcpDigest(join(fixtures, "valid"), (t) => (out += t), (t) => (err += t))).toBe(0);
    expect(out).toMatch(/^sha256:[0-9a-f]{64}\n$/);
    expect(await runHcpDigest(join(fixtures, "missing-harness-md"), (t) => (out += t), (t) => (err += t))).toBe(1);
    expect(err).toContain("hcp.pack.missing_file");
  });

  it("registers lint and digest under `hcp`", () => {
    const program = new Command();
    registerHcpCommands(program);
    const hcp = program.commands.find((c) => c.name() === "hcp")!;
    expect(hcp.commands.map((c) => c.name())).toEqual(["lint", "digest"]);
  });
});
