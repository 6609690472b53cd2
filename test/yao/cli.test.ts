/** `yaoc ir`, `yaoc profile` and `yaoc admit` through commander, on our own packages (the reference's: test/reference/yao-cli.test.ts). */
import { Command } from "commander";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { registerYaoCommands } from "../../src/cli/yao.js";
import { REPO } from "./helpers.js";

async function run(args: string[]): Promise<{ out: string; err: string; code: number }> {
  let out = "";
  let err = "";
  vi.spyOn(process.stdout, "write").mockImplementation((s) => ((out += String(s)), true));
  vi.spyOn(process.stderr, "write").mockImplementation((s) => ((err += String(s)), true));
  process.exitCode = 0;
  const program = new Command().exitOverride();
  registerYaoCommands(program);
  await program.parseAsync(["node", "yaoc", ...args]);
  const code = Number(process.exitCode ?? 0);
  process.exitCode = 0;
  vi.restoreAllMocks();
  return { out, err, code };
}

afterEach(() => vi.restoreAllMocks());

const PKG = join(REPO, "fixtures/yao/packages");

describe("yaoc ir / profile / admit", () => {
  it("ir prints the linked program of a .yao file", async () => {
    const r = await run(["ir", join(REPO, "fixtures/yao/golden/record-box.yao")]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('"source_hash":"sha256:e3b9d98769ee07e641e90eab7921def82ce649f6a4ef9d6659b113534f3aaa9e"');
  });

  it("ir reports file:line:col for an invalid program", async () => {
    const r = await run(["ir", join(REPO, "fixtures/yao/sema/reject-heterogeneous-dict.yao")]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/reject-heterogeneous-dict\.yao:4:12: error\[yao\.type_mismatch\]: dict field 'score'/);
  });

  it("profile prints exported interfaces only, without bodies", async () => {
    const r = await run(["profile", join(REPO, "fixtures/hns/success/coding.hns")]);
    expect(r.err).toBe("");
    expect(r.out).toContain("(fn load-file");
    expect(r.out).not.toContain("normalize");
    expect(r.out).not.toContain("(body");
  });

  it("static tool arguments are checked against --tools schemas; without them the tool is dynamic", async () => {
    expect((await run(["ir", "--hash-only", join(PKG, "static-tool-argument.hns")])).code).toBe(0);
    const r = await run([
      "ir",
      "--tools",
      join(REPO, "fixtures/yao/tools/schema_literal_check.tools.json"),
      join(PKG, "static-tool-argument.hns"),
    ]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("yao.type_mismatch");
  });

  it("--tools: a package that does not load is reported as the loader says, before a --tools file that cannot be read; a schema that cannot be typed is a usage error", async () => {
    const missingTools = join(REPO, "fixtures/yao/tools/no-such-file.json");
    const broken = join(REPO, "fixtures/hns/failure/hns.missing_field/single-id-in-capabilities.hns");
    const notLoaded = await run(["ir", "--tools", missingTools, broken]);
    expect(notLoaded.code).toBe(1);
    expect(notLoaded.err).toContain("error[hns.missing_field]");
    expect(notLoaded.err).not.toContain("cannot read tool schemas");
    const good = join(REPO, "fixtures/hns/success/coding.hns");
    const unread = await run(["ir", "--tools", missingTools, good]);
    expect(unread.code).toBe(2);
    expect(unread.err).toMatch(/^yaoc: cannot read tool schemas .*no-such-file\.json/);
    const dir = mkdtempSync(join(tmpdir(), "yaoc-tools-"));
    try {
      const bad = join(dir, "tools.json");
      writeFileSync(bad, JSON.stringify({ read: { type: "string" } }));
      const untyped = await run(["ir", "--tools", bad, good]);
      expect(untyped.code).toBe(2);
      expect(untyped.err).toBe("yaoc: Tool 'read' needs an object JSON input schema with properties\n");
      // Not an object: a usage error in ir and admit, as in run, for a package and a lone program
      // alike (null crashed with a TypeError before).
      const program = join(REPO, "fixtures/yao/golden/record-box.yao");
      for (const value of ["null", "[1]", "5"]) {
        writeFileSync(bad, value);
        for (const args of [
          ["ir", "--tools", bad, good],
          ["ir", "--tools", bad, program],
          ["admit", "--tools", bad, "--package", good, program],
        ]) {
          const r = await run(args);
          expect(r.code, `${value}: ${args.join(" ")}`).toBe(2);
          expect(r.err).toMatch(/^yaoc: cannot read tool schemas .*tools\.json: expected a JSON object\n$/);
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("packages whose function bodies are ill-typed are rejected at load, naming file, line and function", async () => {
    const single = await run(["ir", join(PKG, "ill-typed-fn.hns")]);
    expect(single.code).toBe(1);
    expect(single.err).toMatch(
      /ill-typed-fn\.hns:4:\d+: error\[yao\.type_mismatch\]: in fn 'answer': expected Int, found String/,
    );
    const directory = await run(["ir", join(PKG, "ill-typed-dir.hns")]);
    expect(directory.code).toBe(1);
    expect(directory.err).toMatch(
      /functions\/value\.yao:5:\d+: error\[yao\.type_mismatch\]: in fn 'main-step': in fn 'value'/,
    );
  });

  describe("admit is bounded by the package entry and names the package", () => {
    const ADMIT = join(REPO, "fixtures/yao/admit");
    const admit = (pkg: string, prog: string) => run(["admit", "--package", join(ADMIT, pkg), join(ADMIT, prog)]);

    it.each([
      ["pure-entry.hns", "infer-exec.yao", "infer-pure.yao", "requires.tools names 'exec'"],
      ["read-entry.hns", "eval-exec.yao", "eval-read.yao", "tool 'exec' is outside the package entry"],
    ])("%s refuses %s and admits the control %s", async (pkg, refused, control, message) => {
      const no = await admit(pkg, refused);
      expect(no.code).toBe(1);
      expect(no.out).toBe("");
      expect(no.err).toContain("error[yao.effect_escape]");
      expect(no.err).toContain(message);
      expect(no.err).toMatch(/not admitted against acme\.\w+ 1\.0\.0 sha256:[0-9a-f]{64}\n$/);
      const yes = await admit(pkg, control);
      expect(yes.err).toBe("");
      expect(yes.code).toBe(0);
      const out = JSON.parse(yes.out) as { admitted: boolean; program_hash: string; package: Record<string, string> };
      expect(out.admitted).toBe(true);
      expect(out.program_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(out.package.id).toMatch(/^acme\./);
      expect(out.package.version).toBe("1.0.0");
      expect(out.package.identity).toMatch(/^sha256:[0-9a-f]{64}$/);
    });

    it("the identity it names is the package's", async () => {
      const { loadFromSource } = await import("../../src/index.js");
      const { readFileSync } = await import("node:fs");
      const loaded = loadFromSource("read-entry.hns", readFileSync(join(ADMIT, "read-entry.hns"), "utf8"));
      if (!loaded.ok) throw new Error("fixture does not load");
      const out = JSON.parse((await admit("read-entry.hns", "eval-read.yao")).out) as { package: { identity: string } };
      expect(out.package.identity).toBe(loaded.package.identity);
    });

    it("a package that fails its own analysis is reported, not admitted against", async () => {
      const r = await run([
        "admit",
        "--package",
        join(REPO, "fixtures/yao/tool-bound/nested-program-param.hns"),
        join(ADMIT, "eval-read.yao"),
      ]);
      expect(r.code).toBe(1);
      expect(r.out).toBe("");
      expect(r.err).toContain("nested-program-param.hns:4:1: error[yao.effect_escape]");
    });
  });

  it("a missing file is a usage error", async () => {
    const r = await run(["ir", join(REPO, "no-such.yao")]);
    expect(r.code).toBe(2);
  });
});
