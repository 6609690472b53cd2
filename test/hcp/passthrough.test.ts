/**
 * The pass-through table of docs/hcp.md (§2.3.4): for each row a verb that must be reported and a
 * near miss that must stay clean. Packs are built in memory; each case changes one verb of a
 * conforming pack.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { checkHcp } from "../../src/hcp/index.js";
import { REPO_ROOT } from "../support/repo.js";

/** The row names of the pass-through table in docs/hcp.md, so a row without fixtures fails. */
const DOC_ROWS = (() => {
  const doc = readFileSync(join(REPO_ROOT, "docs/hcp.md"), "utf8").split("\n");
  const start = doc.findIndex((l) => l.trim().startsWith("| Row | Reported when"));
  const rows: string[] = [];
  for (const line of doc.slice(start + 2)) {
    const m = /^\s*\| ([^|]+?) \|/.exec(line);
    if (m === null) break;
    rows.push(m[1]!);
  }
  return rows;
})();

const VERBS = ["t.list", "t.show", "t.make", "t.edit", "t.drop"];
const base = Object.fromEntries(VERBS.map((v) => [v, { argv: [v] }]));

async function check(verb: unknown, bin?: string) {
  const surface = { id: "acme", ...(bin === undefined ? {} : { wrap: { bin } }), verbs: { ...base, "t.run": verb } };
  const policy = { surface_id: "acme", verbs: Object.fromEntries([...VERBS, "t.run"].map((v) => [v, {}])) };
  const fs = MemoryFs.from({
    "/p/surface.json": JSON.stringify(surface, null, 2),
    "/p/policy.json": JSON.stringify(policy),
    "/p/HARNESS.md": "# acme\n",
  });
  return (await checkHcp(fs, "/p")).diagnostics.filter((d) => d.code === "hcp.verb.passthrough");
}

const str = (name: string, extra: object = {}) => ({ name, type: "string", ...extra });

/** [row, evasion, verb declaration, pointer of the reported node] */
const FAIL: [string, string, unknown, string][] = [
  ["passthrough flag", "declared", { passthrough: true }, "/verbs/t.run/passthrough"],
  ["all-arguments splice", 'whole element "$@"', { argv: ["$@"] }, "/verbs/t.run/argv/0"],
  ["all-arguments splice", "inside an element", { argv: ["sh", "-c", 'tickets "$@"'] }, "/verbs/t.run/argv/2"],
  ["all-arguments splice", "$* inside a flag", { argv: ["tickets", "--query=$*"] }, "/verbs/t.run/argv/1"],
  ["all-arguments splice", "${@} braces", { argv: ["tickets", "${@}"] }, "/verbs/t.run/argv/1"],
  ["all-arguments splice", "${@:2} slice", { argv: ["run", "x${@:2}"] }, "/verbs/t.run/argv/1"],
  ["shell -c", "code from the caller", { argv: ["sh", "-c"], args: [str("cmd")] }, "/verbs/t.run/argv/1"],
  [
    "shell -c",
    "bash -lc, code from the caller",
    { argv: ["/bin/bash", "-lc"], args: [str("cmd", { pattern: "^.*$" })] },
    "/verbs/t.run/argv/1",
  ],
  [
    "shell -c",
    "zsh, fixed code reads $1",
    { argv: ["zsh", "-c", "tickets show $1", "x"], args: [str("id", { pattern: "^[0-9]+$" })] },
    "/verbs/t.run/argv/2",
  ],
  [
    "shell -c",
    "dash, fixed code, open argument",
    { argv: ["dash", "-c", "tickets list"], args: [str("x")] },
    "/verbs/t.run/args/0",
  ],
  ["shell -c", "fish", { argv: ["fish", "-c"] }, "/verbs/t.run/argv/1"],
  ["interpreter -e/-c", "python -c", { argv: ["python3", "-c"], args: [str("code")] }, "/verbs/t.run/argv/1"],
  [
    "interpreter -e/-c",
    "python reads sys.argv",
    { argv: ["python", "-c", "import os,sys; os.system(sys.argv[1])"], args: [str("c", { enum: ["a"] })] },
    "/verbs/t.run/argv/2",
  ],
  ["interpreter -e/-c", "node -e", { argv: ["node", "-e"] }, "/verbs/t.run/argv/1"],
  ["interpreter -e/-c", "perl -e", { argv: ["/usr/bin/perl", "-e"] }, "/verbs/t.run/argv/1"],
  ["interpreter -e/-c", "ruby -e", { argv: ["ruby", "-e"] }, "/verbs/t.run/argv/1"],
  [
    "env",
    "no command of its own",
    { argv: ["env", "LANG=C", "-i"], args: [str("cmd", { enum: ["ls"] })] },
    "/verbs/t.run/argv/0",
  ],
  ["xargs", "any use", { argv: ["xargs", "tickets", "close"] }, "/verbs/t.run/argv/0"],
  [
    "open list argument",
    "variadic",
    { argv: ["tickets", "tag"], args: [{ name: "tags", variadic: true }] },
    "/verbs/t.run/args/0",
  ],
  [
    "open list argument",
    "type argv",
    { argv: ["tickets"], args: [{ name: "rest", type: "argv" }] },
    "/verbs/t.run/args/0",
  ],
  [
    "open list argument",
    "type array with no item constraint",
    { argv: ["tickets", "tag"], args: [{ name: "tags", type: "array" }] },
    "/verbs/t.run/args/0",
  ],
  [
    "open list argument",
    "type array with an open items schema",
    { argv: ["tickets", "tag"], args: { tags: { type: "array", items: { type: "string" } } } },
    "/verbs/t.run/args/tags",
  ],
  ["command position", "open string and no argv", { args: [str("sub")] }, "/verbs/t.run/args/0"],
  ["command position", "untyped argument and empty argv", { argv: [], args: [{ name: "sub" }] }, "/verbs/t.run/args/0"],
];

/** [row, near miss, verb declaration] */
const CLEAN: [string, string, unknown][] = [
  ["passthrough flag", "passthrough false", { passthrough: false, argv: ["tickets", "list"] }],
  ["all-arguments splice", "a literal dollar that is not a splice", { argv: ["tickets", "--price=$5", "$HOME"] }],
  [
    "shell -c",
    "fixed code, constrained argument",
    { argv: ["sh", "-c", "tickets list --json"], args: [str("queue", { enum: ["a", "b"] })] },
  ],
  [
    "shell -c",
    "a shell without -c runs a fixed script file",
    { argv: ["sh", "./scripts/list.sh"], args: [str("queue", { pattern: "^[a-z]+$" })] },
  ],
  [
    "interpreter -e/-c",
    "python runs a module",
    { argv: ["python3", "-m", "tickets", "list"], args: [str("q", { pattern: "^[a-z]+$" })] },
  ],
  ["env", "env with its own command", { argv: ["env", "LANG=C", "tickets", "list"], args: [str("body")] }],
  ["xargs", "a flag merely named after it", { argv: ["tickets", "--xargs", "list"] }],
  [
    "open list argument",
    "variadic with enum",
    { argv: ["tickets", "tag"], args: [{ name: "tags", variadic: true, enum: ["bug", "ops"] }] },
  ],
  [
    "open list argument",
    "array whose items have a pattern",
    {
      argv: ["tickets", "tag"],
      args: [{ name: "tags", type: "array", items: { type: "string", pattern: "^[a-z]+$" } }],
    },
  ],
  ["command position", "open string after a fixed subcommand", { argv: ["comment"], args: [str("body")] }],
  [
    "command position",
    "no argv, first argument constrained",
    { args: [str("sub", { enum: ["list", "show"] }), str("body")] },
  ],
];

/** [row, evasion, the pack's wrap.bin, verb declaration, pointer of the reported node] */
const WRAPPED_FAIL: [string, string, string, unknown, string][] = [
  [
    "wrapped binary",
    "wrap.bin sh, argv -c, code from the caller",
    "sh",
    { argv: ["-c"], args: [str("cmd")] },
    "/verbs/t.run/argv/0",
  ],
  [
    "wrapped binary",
    "wrap.bin /bin/bash, fixed code reads $1",
    "/bin/bash",
    { argv: ["-c", "tickets show $1"], args: [str("id", { pattern: "^[0-9]+$" })] },
    "/verbs/t.run/argv/1",
  ],
  ["wrapped binary", "wrap.bin python3, argv -c", "python3", { argv: ["-c"] }, "/verbs/t.run/argv/0"],
  ["wrapped binary", "wrap.bin env, only assignments", "/usr/bin/env", { argv: ["LANG=C"] }, "/wrap/bin"],
  ["wrapped binary", "wrap.bin xargs", "xargs", { argv: ["tickets", "close"] }, "/wrap/bin"],
];

/** [row, near miss, the pack's wrap.bin, verb declaration] */
const WRAPPED_CLEAN: [string, string, string, unknown][] = [
  [
    "wrapped binary",
    "wrap.bin sh runs a fixed script file",
    "sh",
    { argv: ["./scripts/list.sh"], args: [str("queue", { pattern: "^[a-z]+$" })] },
  ],
  ["wrapped binary", "wrap.bin env with its own command", "env", { argv: ["LANG=C", "tickets", "list"] }],
  ["wrapped binary", "a pack binary merely named like a shell flag", "./bin/tickets", { argv: ["-c", "list"] }],
];

describe("HCP pass-through rows (docs/hcp.md)", () => {
  it.each(WRAPPED_FAIL)("%s: %s is reported", async (_row, _evasion, bin, verb, pointer) => {
    // A wrapped xargs makes every verb of the pack a pass-through; this case is about t.run.
    const ds = (await check(verb, bin)).filter((d) => d.message.includes('verb "t.run"'));
    expect(ds.map((d) => d.pointer)).toEqual([pointer]);
    expect(ds[0]!.message).toContain("(the pack's wrap.bin)");
  });
  it.each(WRAPPED_CLEAN)("%s: near miss (%s) stays clean", async (_row, _miss, bin, verb) => {
    expect(await check(verb, bin)).toEqual([]);
  });

  it.each(FAIL)("%s: %s is reported", async (_row, _evasion, verb, pointer) => {
    const ds = await check(verb);
    expect(ds.map((d) => d.pointer)).toEqual([pointer]);
    expect(ds[0]!.span).toBeDefined();
  });
  it.each(CLEAN)("%s: near miss (%s) stays clean", async (_row, _miss, verb) => {
    expect(await check(verb)).toEqual([]);
  });
  it("every row of the table has a failing case and a near miss", () => {
    const failing = new Set([...FAIL.map((f) => f[0]), ...WRAPPED_FAIL.map((f) => f[0])]);
    expect(failing).toEqual(new Set([...CLEAN.map((c) => c[0]), ...WRAPPED_CLEAN.map((c) => c[0])]));
    expect(failing).toEqual(new Set(DOC_ROWS));
  });
});
