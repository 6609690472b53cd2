/**
 * Help pages: `yaoc help <group> <command>` shows that command's page (commander's own `help`
 * only goes one level deep), and every page ends with examples and the exit-code table.
 */
import type { Command } from "commander";
import { EXIT_CODE_TABLE } from "./io.js";

/** Examples per command path (`"hcp lint"`); every command yaoc registers has an entry (tested). */
export const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  "": [
    "yaoc check",
    "yaoc check examples/review.hns --format json",
    "yaoc explain yao.unclosed_list",
    "yaoc help hcp lint",
  ],
  check: [
    "yaoc check                                   # every package under the working directory",
    "yaoc check examples/review.hns pkgs/         # a package and a folder of packages",
    "yaoc check 'pkgs/**/*.hns' --quiet           # a glob (quoted), errors only",
    "cat pkg.hns | yaoc check - --stdin-filename pkg.hns",
    "yaoc check . --format sarif > yaoc.sarif     # for code scanning",
    "yaoc check . --format github --max-warnings 0",
  ],
  hash: ["yaoc hash examples/review-dir.hns", "yaoc hash fixtures/harp/valid-full"],
  explain: [
    "yaoc explain                                 # the forms, types and codes",
    "yaoc explain get                             # a form: signature, meaning, example",
    "yaoc explain Option                          # a type",
    "yaoc explain yao.unclosed_list               # a diagnostic code",
  ],
  fmt: [
    "yaoc fmt examples/review.hns                 # print the formatted source",
    "yaoc fmt --check examples/ fixtures/fmt/     # list files that would change; exit 1 if any",
    "yaoc fmt --diff examples/review-dir.hns      # show the changes as a unified diff",
    "yaoc fmt --write pkg.hns                     # rewrite in place, atomically",
    "cat pkg.yao | yaoc fmt -",
  ],
  new: [
    "yaoc new my-harness                          # my-harness.hns, one file",
    "yaoc new my-harness --dir                    # my-harness.hns/ with manifest.yao, functions/, programs/",
  ],
  init: ["mkdir notes.hns && cd notes.hns && yaoc init   # the directory form, in place"],
  lsp: ["yaoc lsp --stdio                             # started by an editor (editors/vscode does it)"],
  ir: ["yaoc ir examples/review.hns", "yaoc ir program.yao --tools tools.json --hash-only"],
  profile: ["yaoc profile examples/review.hns"],
  admit: ["yaoc admit program.yao --package examples/review.hns"],
  run: [
    "yaoc run program.yao                         # a pure program: prints its value",
    "yaoc run examples/review.hns --format json   # value, failure, or requests with the state",
    "yaoc run tool.yao --tools tools.json --state-out s1.json",
    "yaoc run --resume s1.json --completion answer.json --state-out s2.json",
  ],
  catalog: ["yaoc catalog install examples/review.hns", "yaoc catalog list", "yaoc catalog verify --format json"],
  "catalog install": [
    "yaoc catalog install examples/review.hns examples/review-dir.hns",
    "yaoc catalog install pkg.hns --catalog /tmp/catalog --format json",
  ],
  "catalog list": ["yaoc catalog list", "yaoc catalog list --format json"],
  "catalog show": ["yaoc catalog show acme.review@1.0.0"],
  "catalog export": ["yaoc catalog export acme.review@1.0.0 review.hns", "yaoc catalog export acme.review@1.0.0 -"],
  "catalog verify": ["yaoc catalog verify", "yaoc catalog verify --format sarif > catalog.sarif"],
  "catalog gc": ["yaoc catalog gc", "yaoc catalog gc --grace 0"],
  harp: ["yaoc harp validate fixtures/harp/valid-full", "yaoc harp run ./my-app"],
  "harp validate": ["yaoc harp validate ./my-app", "yaoc harp validate ./my-app --format github"],
  "harp hash": ["yaoc harp hash ./my-app"],
  "harp install": ["yaoc harp install ./my-app"],
  "harp upgrade": ["yaoc harp upgrade ./my-app --id com.example.app"],
  "harp uninstall": ["yaoc harp uninstall com.example.app --purge"],
  "harp start": ["yaoc harp start com.example.app --timeout 10000"],
  "harp stop": ["yaoc harp stop com.example.app"],
  "harp status": ["yaoc harp status", "yaoc harp status --format json"],
  "harp logs": ["yaoc harp logs com.example.app -n 50"],
  "harp run": ["yaoc harp run ./my-app"],
  "harp capabilities": ["yaoc harp capabilities"],
  "harp conformance": ["yaoc harp conformance", "yaoc harp conformance --only C01,C15 --format json"],
  a3s: ["yaoc a3s check ./pkg", "yaoc a3s readiness ./pkg"],
  "a3s model": ["yaoc a3s model ./pkg", "yaoc a3s model ./pkg/a3s-use-extension.acl --format github"],
  "a3s readiness": ["yaoc a3s readiness ./pkg", "yaoc a3s readiness ./pkg --unavailable tool:search --format json"],
  "a3s check": ["yaoc a3s check ./pkg", "yaoc a3s check ./pkg --format sarif"],
  "a3s resolve": ["yaoc a3s resolve acme.pkg@1.0.0 --registry ./records --target linux-x86_64 --use-version 0.3.0"],
  "a3s lock": ["yaoc a3s lock verify plugin-package-lock.json"],
  "a3s lock verify": ["yaoc a3s lock verify plugin-package-lock.json --json"],
  okf: ["yaoc okf check ./bundle"],
  "okf check": ["yaoc okf check ./bundle", "yaoc okf check ./bundle --contract contract.json --format json"],
  hcp: ["yaoc hcp lint ./pack", "yaoc hcp digest ./pack"],
  "hcp lint": ["yaoc hcp lint ./pack ./other-pack", "yaoc hcp lint ./pack --format json"],
  "hcp digest": ["yaoc hcp digest ./pack"],
  golden: ["yaoc golden verify", "yaoc golden freeze"],
  "golden freeze": ["yaoc golden freeze"],
  "golden verify": ["yaoc golden verify", "yaoc golden verify --git --format json"],
  attest: ["yaoc attest --out reports"],
  evidence: ["yaoc evidence receipt examples/review.hns", "yaoc evidence table"],
  "evidence receipt": ["yaoc evidence receipt examples/review.hns --evidence-class simulated"],
  "evidence canon": ["yaoc evidence canon receipt.json", "cat receipt.json | yaoc evidence canon"],
  "evidence hash": ["yaoc evidence hash receipt.json"],
  "evidence table": ["yaoc evidence table"],
};

/** The command path of `cmd` below the program, e.g. "hcp lint"; "" for the program itself. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c !== null && c.parent !== null; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

export function helpFooter(path: string): string {
  const examples = EXAMPLES[path] ?? [];
  const lines = examples.length > 0 ? ["", "Examples:", ...examples.map((e) => `  ${e}`)] : [];
  return [...lines, "", EXIT_CODE_TABLE].join("\n");
}

/** Append the examples and the exit-code table to the help of `cmd` and every command under it. */
export function addHelpFooters(cmd: Command): void {
  cmd.addHelpText("after", () => helpFooter(commandPath(cmd)));
  for (const sub of cmd.commands) addHelpFooters(sub);
}

/** `yaoc help A B…` → `yaoc A B… --help`, so help reaches any depth; other command lines unchanged. */
export function helpArgv(argv: readonly string[]): string[] {
  const [node = "", script = "", ...rest] = argv;
  if (rest[0] !== "help" || rest.length < 2 || rest.slice(1).some((a) => a.startsWith("-"))) return [...argv];
  return [node, script, ...rest.slice(1), "--help"];
}

/** For `yaoc help A B…`: the first name that is not a command at its level, or undefined. */
export function unknownHelpTopic(program: Command, argv: readonly string[]): string | undefined {
  const rest = argv.slice(2);
  if (rest[0] !== "help" || rest.slice(1).some((a) => a.startsWith("-"))) return undefined;
  let cmd = program;
  for (const name of rest.slice(1)) {
    const sub = cmd.commands.find((c) => c.name() === name || c.aliases().includes(name));
    if (sub === undefined) return name;
    cmd = sub;
  }
  return undefined;
}
