/**
 * §2.3.4 "a generic pass-through command (a command whose arguments are forwarded as an arbitrary
 * argv)". A verb is one when any argv element or argument lets the caller supply a command, code for
 * an interpreter, or an arbitrary argument list. The rows below are the table in docs/hcp.md (one
 * fixture each in test/hcp/passthrough.test.ts); the first row that matches is reported.
 *
 * Declared arguments are appended to the argv template in order, so the first argument is in
 * "command position" when the template is empty or missing (it picks the subcommand of the wrapped
 * program) or ends with an interpreter's code flag or an `env` with no command of its own.
 *
 * The runtime runs the manifest's `wrap.bin` with the verb's argv after it, so a wrapped binary is
 * judged as the argv's element 0: `wrap.bin: "sh"` with `argv: ["-c"]` is `sh -c`, and a pack
 * wrapping `env` or `xargs` hands every verb's arguments to whatever they name.
 */
import { member, pointerOf, quote } from "../json-access.js";
import type { JsonNode, JsonObject } from "../json-reader.js";

export interface ArgSpec {
  readonly node: JsonNode;
  readonly pointer: string;
  readonly name: string;
}

export interface PassThroughFinding {
  readonly node: JsonNode;
  readonly pointer: string;
  readonly why: string;
}

/** `$@`, `$*`, `${@}`, `${*}`, `${@:2}`, `${*%x}`: every caller argument, anywhere in an element. */
const ALL_ARGUMENTS = /\$(?:[@*]|\{[@*][^}]*\})/;
/** Positional parameters and argument vectors a fixed script can read the caller's values through. */
const READS_ARGUMENTS = /\$(?:[0-9]|\{[0-9]+\})|\bsys\.argv\b|\bprocess\.argv\b|@?ARGV\b/;

const SHELLS = /^(?:sh|bash|zsh|dash|fish|ksh|mksh|ash|busybox)$/;
const INTERPRETERS = /^(?:python[0-9.]*|node|nodejs|perl[0-9.]*|ruby[0-9.]*)$/;

const baseName = (s: string) => s.slice(s.lastIndexOf("/") + 1);

/** The flag that makes the next element (or the next argument) code, for the program `prog`. */
function isCodeFlag(prog: string, flag: string): boolean {
  if (SHELLS.test(prog)) return /^-[a-zA-Z]*c[a-zA-Z]*$/.test(flag) || flag === "--command";
  if (/^python/.test(prog)) return flag === "-c";
  if (/^node/.test(prog)) return flag === "-e" || flag === "--eval" || flag === "-p" || flag === "--print";
  if (/^perl/.test(prog)) return flag === "-e" || flag === "-E";
  if (/^ruby/.test(prog)) return flag === "-e";
  return false;
}

/** The program the runtime runs ahead of every verb's argv: the manifest's `wrap.bin`. */
export interface WrappedBin {
  readonly value: string;
  readonly node: JsonNode;
  readonly pointer: string;
}

interface Element {
  readonly value: string;
  readonly node: JsonNode;
  readonly pointer: string;
  /** How a message names the program: `"sh"`, or `"sh" (the pack's wrap.bin)`. */
  readonly shown: string;
}

function elements(wrapped: WrappedBin | undefined, argv: JsonNode | undefined, argvPointer: string): Element[] {
  const out: Element[] = [];
  if (wrapped !== undefined) out.push({ ...wrapped, shown: `${JSON.stringify(wrapped.value)} (the pack's wrap.bin)` });
  if (argv === undefined || argv.kind !== "array") return out;
  argv.items.forEach((node, i) => {
    if (node.kind === "string")
      out.push({ value: node.value, node, pointer: pointerOf(argvPointer, i), shown: JSON.stringify(node.value) });
  });
  return out;
}

function constrains(spec: JsonObject): boolean {
  return (
    member(spec, "enum") !== undefined || member(spec, "pattern") !== undefined || member(spec, "const") !== undefined
  );
}

/** An argument whose value is an open-ended list: variadic, `type: argv` or `type: array`. */
function isList(spec: JsonObject): boolean {
  const variadic = member(spec, "variadic");
  const type = member(spec, "type")?.value;
  return (
    (variadic !== undefined && variadic.value.kind === "boolean" && variadic.value.value) ||
    (type?.kind === "string" && (type.value === "argv" || type.value === "array"))
  );
}

/** A list argument constrains its items when it, or its `items` schema, has `enum`/`pattern`/`const`. */
function listIsConstrained(spec: JsonObject): boolean {
  if (constrains(spec)) return true;
  const items = member(spec, "items")?.value;
  return items?.kind === "object" && constrains(items);
}

/** A string (or untyped) scalar argument that accepts any value. */
function isOpenScalar(spec: JsonObject): boolean {
  const type = member(spec, "type")?.value;
  return (
    !isList(spec) && (type === undefined || (type.kind === "string" && type.value === "string")) && !constrains(spec)
  );
}

export function findPassThrough(
  argvNode: JsonNode | undefined,
  argvPointer: string,
  args: readonly ArgSpec[],
  wrapped?: WrappedBin,
): PassThroughFinding | null {
  const argv = elements(wrapped, argvNode, argvPointer);
  // Command position is about the verb's own template: the wrapped binary is the program, and the
  // first argument still picks its subcommand when the verb adds nothing before it.
  const templateLength = argv.length - (wrapped === undefined ? 0 : 1);
  const specs = args.filter((a): a is ArgSpec & { node: JsonObject } => a.node.kind === "object");
  const first = specs[0];
  const anyOpen = specs.find((a) => (isList(a.node) ? !listIsConstrained(a.node) : !constrains(a.node)));

  // Row 1: a splice of every caller argument anywhere inside an element.
  for (const e of argv) {
    const m = ALL_ARGUMENTS.exec(e.value);
    if (m !== null)
      return {
        node: e.node,
        pointer: e.pointer,
        why: `its argv template forwards every caller argument with ${quote(e.value)}`,
      };
  }
  for (let k = 0; k < argv.length; k++) {
    const prog = baseName(argv[k]!.value);
    // Rows 2 and 3: a shell or interpreter given code with -c / -e.
    if (SHELLS.test(prog) || INTERPRETERS.test(prog)) {
      const flagAt = argv.findIndex((e, j) => j > k && isCodeFlag(prog, e.value));
      if (flagAt < 0) continue;
      const flag = argv[flagAt]!;
      const code = argv[flagAt + 1];
      const what = `${argv[k]!.shown} ${flag.value}`;
      if (code === undefined)
        return {
          node: flag.node,
          pointer: flag.pointer,
          why: `it runs ${what} with the code taken from the caller's arguments`,
        };
      if (READS_ARGUMENTS.test(code.value))
        return {
          node: code.node,
          pointer: code.pointer,
          why: `it runs ${what} with code that reads the caller's arguments`,
        };
      if (anyOpen !== undefined)
        return {
          node: anyOpen.node,
          pointer: anyOpen.pointer,
          why: `it runs ${what} and hands it the unconstrained argument ${JSON.stringify(anyOpen.name)}`,
        };
      continue;
    }
    // Row 4: env runs whatever command follows its assignments and options.
    if (prog === "env") {
      const command = argv
        .slice(k + 1)
        .find((e) => !e.value.startsWith("-") && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(e.value));
      if (command === undefined)
        return {
          node: argv[k]!.node,
          pointer: argv[k]!.pointer,
          why: `it runs ${argv[k]!.shown} with the command taken from the caller's arguments`,
        };
      continue;
    }
    // Row 5: xargs turns its input into the arguments (or the command) of what it runs.
    if (prog === "xargs")
      return {
        node: argv[k]!.node,
        pointer: argv[k]!.pointer,
        why: `it runs ${argv[k]!.shown}, which forwards caller-supplied input as arguments`,
      };
  }
  // Row 6: a variadic, argv or array argument with no item enum or pattern.
  for (const a of specs) {
    if (isList(a.node) && !listIsConstrained(a.node))
      return {
        node: a.node,
        pointer: a.pointer,
        why: `its argument ${quote(a.name)} is variadic and accepts any values (no "enum" or "pattern"), so the caller chooses the argv`,
      };
  }
  // Row 7: an open string argument that picks the subcommand (no argv template before it).
  if (templateLength === 0 && first !== undefined && isOpenScalar(first.node)) {
    return {
      node: first.node,
      pointer: first.pointer,
      why: `its first argument ${quote(first.name)} accepts any string and stands in command position (the verb has no argv template)`,
    };
  }
  return null;
}
