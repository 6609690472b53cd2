/** `yaoc ir` and `yaoc profile` on the Morphz reference packages (our own: test/yao/cli.test.ts). */
import { Command } from "commander";
import { join } from "node:path";
import { afterEach, expect, it, vi } from "vitest";
import { registerYaoCommands } from "../../src/cli/yao.js";
import { describeReference, MORPHZ, REPO } from "./reference.js";

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

const PKG = join(MORPHZ, "inline/morphz/src/harness_package.rs@fda7137");

describeReference("yaoc ir / profile on the Morphz packages", () => {
  it("ir reports file:line:col for an invalid program", async () => {
    const r = await run(["ir", join(MORPHZ, "inline/yao/src/sema.rs@70e0787/reject_heterogeneous_dict.yao")]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/reject_heterogeneous_dict\.yao:4:11: error\[yao\.type_mismatch\]: dict field 'note'/);
  });

  it("profile prints exported interfaces only, without bodies", async () => {
    const r = await run(["profile", join(PKG, "single_with_functions.hns")]);
    expect(r.err).toBe("");
    expect(r.out).toContain("(fn load-file");
    expect(r.out).not.toContain("private-normalize");
    expect(r.out).not.toContain("(body");
  });

  it("static tool arguments are checked against --tools schemas; without them the tool is dynamic", async () => {
    const dir = join(MORPHZ, "inline/morphz/src/harness_authoring.rs@70e0787");
    expect((await run(["ir", "--hash-only", join(dir, "schema_literal_check.hns")])).code).toBe(0);
    const r = await run([
      "ir",
      "--tools",
      join(REPO, "fixtures/yao/tools/schema_literal_check.tools.json"),
      join(dir, "schema_literal_check.hns"),
    ]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("yao.type_mismatch");
  });

  it("reference packages whose function bodies are ill-typed are rejected at load, naming file, line and function", async () => {
    const dir = join(MORPHZ, "inline/morphz/src/harness_authoring.rs@70e0787");
    const single = await run(["ir", join(dir, "check_wrong_fn.hns")]);
    expect(single.err).toMatch(
      /check_wrong_fn\.hns:3:\d+: error\[yao\.type_mismatch\]: in fn 'wrong': expected Int, found String/,
    );
    const directory = await run(["ir", join(dir, "dir-check/test.hns")]);
    expect(directory.err).toMatch(
      /functions\/wrong\.yao:4:\d+: error\[yao\.type_mismatch\]: in fn 'outer': in fn 'wrong'/,
    );
  });
});
