import { Command } from "commander";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { registerHcpCommands, runHcpDigest, runHcpLint } from "../../src/cli/hcp.js";

const fixtures = join(resolve(dirname(fileURLToPath(import.meta.url)), "../.."), "fixtures/hcp");

describe("yaoc hcp", () => {
  it("lint --format json prints one {results} document in the common result shape, exit 1 on an invalid pack", async () => {
    {
      let out = "";
      const status = await runHcpLint(
        [join(fixtures, "valid"), join(fixtures, "surface-id-mismatch")],
        { format: "json" },
        (t) => (out += t),
      );
      expect(status).toBe(1);
      expect(out.trimEnd().includes("\n")).toBe(false);
      const [valid, invalid] = (JSON.parse(out) as { results: Record<string, unknown>[] }).results as [
        Record<string, unknown>,
        { valid: boolean; identity: unknown; diagnostics: { code: string }[] },
      ];
      expect(Object.keys(valid).slice(0, 4)).toEqual(["path", "kind", "valid", "identity"]);
      expect(Object.keys(valid).at(-1)).toBe("diagnostics");
      expect(valid).toMatchObject({ kind: "hcp", valid: true, pack_id: "acme.tickets" });
      expect(valid["identity"]).toBe(valid["digest"]);
      expect(invalid.valid).toBe(false);
      expect(invalid.identity).toBeNull();
      expect(invalid.diagnostics[0]!.code).toBe("hcp.identity.surface_id_mismatch");
    }
  });

  it("lint prints the one human form: located diagnostics with a code frame, help and notes", async () => {
    let out = "";
    const status = await runHcpLint([join(fixtures, "surface-id-mismatch")], { format: "human" }, (t) => (out += t));
    expect(status).toBe(1);
    expect(out).toContain("policy.json:2:17: error[hcp.identity.surface_id_mismatch]");
    expect(out).toContain("  = help: Set surface_id");
    expect(out).toMatch(/::: \S*surface\.json:2:9\n[^]*?-+ the pack_id is declared here/);
    expect(out).toMatch(
      /surface-id-mismatch: invalid \(hcp\)\n1 package checked: 0 valid, 1 invalid; 1 error, 0 warnings\n$/,
    );
  });

  it("lint of a missing directory is an I/O error (exit 2)", async () => {
    let out = "";
    expect(await runHcpLint([join(fixtures, "no-such-pack")], { format: "human" }, (t) => (out += t))).toBe(2);
  });

  it("digest prints the digest, or the problems when files are missing", async () => {
    let out = "";
    let err = "";
    expect(
      await runHcpDigest(
        join(fixtures, "valid"),
        (t) => (out += t),
        (t) => (err += t),
      ),
    ).toBe(0);
    expect(out).toMatch(/^sha256:[0-9a-f]{64}\n$/);
    expect(
      await runHcpDigest(
        join(fixtures, "missing-harness-md"),
        (t) => (out += t),
        (t) => (err += t),
      ),
    ).toBe(1);
    expect(err).toContain("hcp.pack.missing_file");
  });

  it("registers lint and digest under `hcp`", () => {
    const program = new Command();
    registerHcpCommands(program);
    const hcp = program.commands.find((c) => c.name() === "hcp")!;
    expect(hcp.commands.map((c) => c.name())).toEqual(["lint", "digest"]);
  });
});
