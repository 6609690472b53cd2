/** `yaoc explain CODE`, `yaoc help <group> <command>`, and the footer every help page ends with. */
import { describe, expect, it } from "vitest";
import { checkPaths } from "../../src/cli/check-command.js";
import { anchor, explainPage, languagePage, runExplain } from "../../src/cli/explain.js";
import { FORMS, TYPES } from "../../src/yao/forms.js";
import { commandPath, EXAMPLES, helpArgv } from "../../src/cli/help.js";
import { EXIT_CODE_TABLE } from "../../src/cli/io.js";
import { CODE_EXAMPLES } from "../../src/diagnostics/code-examples.js";
import { ALL_CODES } from "../../src/codes/registry.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import type { Command } from "commander";
import { buildProgram, groupsFor, loadGroups } from "../../src/cli/main.js";
import { yaoc } from "../support/cli.js";

describe("yaoc explain", () => {
  it("every code has a page with its meaning, spec clause and reason code", () => {
    for (const row of ALL_CODES) {
      const page = explainPage(row.code)!;
      expect(page.startsWith(`${row.code} (${row.severity})\n`)).toBe(true);
      expect(page).toContain(row.summary);
      expect(page).toContain(`Enforces:    ${row.clause}`);
      expect(page).toContain(row.reason);
    }
  });

  it("every example is a real code, gets that code, and its fix does not", async () => {
    const codes = new Set(ALL_CODES.map((r) => r.code));
    expect(Object.keys(CODE_EXAMPLES).length).toBeGreaterThanOrEqual(10);
    for (const [code, ex] of Object.entries(CODE_EXAMPLES)) {
      expect(codes.has(code), code).toBe(true);
      const wrong = (await checkPaths(MemoryFs.from({ [ex.path]: ex.wrong }), [ex.path], { analyze: true }))
        .results[0]!;
      expect(
        wrong.diagnostics.map((d) => d.code),
        code,
      ).toContain(code);
      const fixPath = ex.path.endsWith(".hns") ? ex.path : "demo.hns"; // hns.bad_suffix: the fix is the name
      const fixed = (await checkPaths(MemoryFs.from({ [fixPath]: ex.fix }), [fixPath], { analyze: true })).results[0]!;
      expect(
        fixed.diagnostics.map((d) => d.code),
        code,
      ).not.toContain(code);
      expect(fixed.valid, `${code}: ${JSON.stringify(fixed.diagnostics)}`).toBe(true);
      expect(explainPage(code)).toContain(ex.wrong.trimEnd().split("\n").pop()!);
    }
  });

  it("an unknown code is a usage error with close matches", () => {
    let err = "";
    expect(
      runExplain(
        "unclosed_list",
        () => undefined,
        (t) => (err += t),
      ),
    ).toBe(2);
    expect(err).toContain("did you mean yao.unclosed_list");
  });

  it("explains every form and type of the language table, and alone lists them and the codes", () => {
    for (const f of FORMS) {
      const page = languagePage(f.name)!;
      expect(page).toContain(f.signature);
      expect(page).toContain(f.example);
      expect(page).toContain(`docs/language.md#${anchor(f.name)}`);
    }
    for (const t of TYPES) expect(languagePage(t.name)).toContain(t.meaning);
    let out = "";
    expect(
      runExplain(
        undefined,
        (t) => (out += t),
        () => undefined,
      ),
    ).toBe(0);
    for (const name of [...FORMS.map((f) => f.name), ...TYPES.map((t) => t.name), "yao.unclosed_list"])
      expect(out).toContain(name);
    let err = "";
    expect(
      runExplain(
        "gett",
        () => undefined,
        (t) => (err += t),
      ),
    ).toBe(2);
    expect(err).toContain("did you mean get");
  });

  it("runs from the command line", () => {
    const get = yaoc(["explain", "get"]);
    expect(get.code).toBe(0);
    expect(get.out).toContain("(get E FIELD)");
    expect(get.out).toContain("(decode TYPE E)");
    expect(yaoc(["explain", "Option"]).out).toContain("(Option T)");
    expect(yaoc(["explain"]).code).toBe(0);
    const r = yaoc(["explain", "yao.unknown_operator"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("(eval (add 1 2))");
    expect(yaoc(["explain", "no.such_code"]).code).toBe(2);
  });
});

describe("help pages", () => {
  it("every command has examples, and its help page ends with them and the exit-code table", async () => {
    const program = buildProgram(await loadGroups(groupsFor(["node", "yaoc", "help"])));
    const seen: string[] = [];
    const visit = (cmd: Command): void => {
      const path = commandPath(cmd);
      seen.push(path);
      expect(EXAMPLES[path], `examples for '${path}'`).toBeDefined();
      let text = "";
      cmd.configureOutput({ writeOut: (s) => (text += s) });
      cmd.outputHelp();
      expect(text.trimEnd().endsWith(EXIT_CODE_TABLE), path).toBe(true);
      expect(text).toContain(`Examples:\n  ${EXAMPLES[path]![0]}`);
      cmd.commands.forEach(visit);
    };
    visit(program);
    expect(seen.length).toBeGreaterThan(40);
    // No examples for commands that do not exist.
    for (const path of Object.keys(EXAMPLES)) expect(seen, path).toContain(path);
  });

  it("yaoc help <group> <command> shows that command's page", () => {
    expect(helpArgv(["node", "yaoc", "help", "hcp", "lint"])).toEqual(["node", "yaoc", "hcp", "lint", "--help"]);
    expect(helpArgv(["node", "yaoc", "check", "help"])).toEqual(["node", "yaoc", "check", "help"]);
    const r = yaoc(["help", "hcp", "lint"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("Usage: yaoc hcp lint [options] <dirs...>");
    expect(r.out).toContain("yaoc hcp lint ./pack --format json");
    expect(r.out.trimEnd().endsWith(EXIT_CODE_TABLE)).toBe(true);
    expect(yaoc(["help", "a3s", "lock", "verify"]).out).toContain("Usage: yaoc a3s lock verify");
    const unknown = yaoc(["help", "hcp", "lnit"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("unknown command 'lnit'");
  });
});
