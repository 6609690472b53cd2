/** Commands (§2.3): verb_key syntax, the recommended count, pass-through commands, policy entries. */
import { at, hasUpperCase, member, pointerOf, quote } from "../json-access.js";
import type { JsonMember, JsonNode, JsonObject } from "../json-reader.js";
import type { JsonDoc, PackReporter } from "../report.js";
import { findPassThrough, type ArgSpec, type WrappedBin } from "./passthrough.js";

export const RECOMMENDED_MIN_VERBS = 5;
export const RECOMMENDED_MAX_VERBS = 12;

export interface DeclaredVerb {
  readonly key: string;
  readonly member: JsonMember;
  readonly pointer: string;
  /** The verb declaration when it is an object. */
  readonly decl: JsonObject | null;
}

/**
 * Reads `verbs`, checks every key and declaration, and returns the declared verbs; null when `verbs`
 * is not an object, so cross-checks do not call every policy entry stale.
 */
export function checkVerbs(surface: JsonDoc, report: PackReporter): DeclaredVerb[] | null {
  const m = member(surface.root, "verbs");
  if (m === undefined) return [];
  if (m.value.kind !== "object") {
    report.atValue(
      "hcp.field.wrong_type",
      surface,
      m.value,
      "/verbs",
      `${at(surface, "/verbs")}: verbs must be an object mapping each verb_key to its declaration (HCP §2.3.1).`,
    );
    return null;
  }
  const verbs: DeclaredVerb[] = [];
  for (const vm of m.value.members) {
    // A duplicated key is reported by the reader; checking it twice would only repeat diagnostics.
    if (m.value.byKey.get(vm.key) !== vm) continue;
    const pointer = pointerOf("/verbs", vm.key);
    checkVerbKey(surface, vm, pointer, report);
    let decl: JsonObject | null = null;
    if (vm.value.kind === "object") {
      decl = vm.value;
      checkPassThrough(surface, vm.key, decl, pointer, report);
    } else {
      report.atValue(
        "hcp.field.wrong_type",
        surface,
        vm.value,
        pointer,
        `${at(surface, pointer)}: the declaration of verb ${quote(vm.key)} must be an object.`,
      );
    }
    verbs.push({ key: vm.key, member: vm, pointer, decl });
  }
  checkVerbCount(surface, m.value, verbs.length, report);
  return verbs;
}

function checkVerbKey(surface: JsonDoc, vm: JsonMember, pointer: string, report: PackReporter): void {
  const key = vm.key;
  const where = `${at(surface, pointer)}`;
  if (key === "") {
    report.atKey("hcp.verb.empty_key", surface, vm, pointer, `${where}: a verb_key must not be empty (HCP §2.3.2).`);
    return;
  }
  if (hasUpperCase(key)) {
    report.atKey(
      "hcp.verb.key_not_lowercase",
      surface,
      vm,
      pointer,
      `${where}: verb_key ${quote(key)} must be lower-case (HCP §2.3.2).`,
      `Use ${quote(key.toLowerCase())}.`,
    );
  }
  if (/\s/u.test(key)) {
    report.atKey(
      "hcp.verb.key_whitespace",
      surface,
      vm,
      pointer,
      `${where}: verb_key ${quote(key)} must not contain whitespace (HCP §2.3.2).`,
      "Use '.' to separate a verb family, e.g. \"ticket.list\".",
    );
  }
  if (key.includes("/")) {
    report.atKey(
      "hcp.verb.key_slash",
      surface,
      vm,
      pointer,
      `${where}: verb_key ${quote(key)} must not contain '/' (HCP §2.3.2).`,
      `Use '.' as the family separator: ${quote(key.replace(/\//g, "."))}.`,
    );
  }
  if (key.split(".").some((segment) => segment === "")) {
    report.atKey(
      "hcp.verb.empty_family",
      surface,
      vm,
      pointer,
      `${where}: verb_key ${quote(key)} has an empty family segment; '.' separates non-empty parts such as "ticket.list".`,
    );
  }
}

function checkVerbCount(surface: JsonDoc, verbs: JsonObject, count: number, report: PackReporter): void {
  if (count < RECOMMENDED_MIN_VERBS) {
    report.atValue(
      "hcp.verbs.too_few",
      surface,
      verbs,
      "/verbs",
      `${at(surface, "/verbs")}: the pack declares ${count} command${count === 1 ? "" : "s"}; between ${RECOMMENDED_MIN_VERBS} and ${RECOMMENDED_MAX_VERBS} is recommended (HCP §2.3.3). Fewer is allowed.`,
    );
  } else if (count > RECOMMENDED_MAX_VERBS) {
    report.atValue(
      "hcp.verbs.too_many",
      surface,
      verbs,
      "/verbs",
      `${at(surface, "/verbs")}: the pack declares ${count} commands; more than ${RECOMMENDED_MAX_VERBS} should be split into several packs (HCP §2.3.3).`,
    );
  }
}

/**
 * §2.3.4. A verb forwards an arbitrary argv when it says so with `"passthrough": true`, or when one
 * of the rows of src/hcp/rules/passthrough.ts (docs/hcp.md) matches its argv template and arguments.
 */
function checkPassThrough(
  surface: JsonDoc,
  key: string,
  decl: JsonObject,
  pointer: string,
  report: PackReporter,
): void {
  const flag = member(decl, "passthrough");
  if (flag !== undefined && flag.value.kind === "boolean" && flag.value.value) {
    reportPassThrough(
      surface,
      key,
      flag.value,
      pointerOf(pointer, "passthrough"),
      'it is declared with "passthrough": true',
      report,
    );
    return;
  }
  const args = member(decl, "args");
  const specs: ArgSpec[] = [];
  const argsPointer = pointerOf(pointer, "args");
  if (args !== undefined) {
    if (args.value.kind === "array") {
      args.value.items.forEach((node, i) => {
        const name = node.kind === "object" ? member(node, "name")?.value : undefined;
        specs.push({ node, pointer: pointerOf(argsPointer, i), name: name?.kind === "string" ? name.value : `#${i}` });
      });
    } else if (args.value.kind === "object") {
      for (const am of args.value.members)
        specs.push({ node: am.value, pointer: pointerOf(argsPointer, am.key), name: am.key });
    } else {
      report.atValue(
        "hcp.field.wrong_type",
        surface,
        args.value,
        argsPointer,
        `${at(surface, argsPointer)}: args must be an array of argument declarations or an object keyed by argument name.`,
      );
      return;
    }
  }
  const found = findPassThrough(member(decl, "argv")?.value, pointerOf(pointer, "argv"), specs, wrappedBin(surface));
  if (found !== null) reportPassThrough(surface, key, found.node, found.pointer, found.why, report);
}

/** The manifest's `wrap.bin` when it is a string; its type is reported by the manifest-path rule. */
function wrappedBin(surface: JsonDoc): WrappedBin | undefined {
  const wrap = member(surface.root, "wrap")?.value;
  if (wrap?.kind !== "object") return undefined;
  const bin = member(wrap, "bin")?.value;
  if (bin?.kind !== "string") return undefined;
  return { value: bin.value, node: bin, pointer: "/wrap/bin" };
}

function reportPassThrough(
  surface: JsonDoc,
  key: string,
  node: JsonNode,
  pointer: string,
  why: string,
  report: PackReporter,
): void {
  report.atValue(
    "hcp.verb.passthrough",
    surface,
    node,
    pointer,
    `${at(surface, pointer)}: verb ${quote(key)} is a generic pass-through command: ${why}. A pack must not expose one (HCP §2.3.4).`,
    "Declare one verb per operation with named, constrained arguments instead of forwarding an argv.",
  );
}

/** §2.3.5: every verb_key has an entry in policy `verbs`; entries for undeclared verbs are flagged. */
export function checkVerbPolicy(
  surface: JsonDoc,
  policy: JsonDoc,
  verbs: readonly DeclaredVerb[],
  report: PackReporter,
): void {
  const section = member(policy.root, "verbs");
  let entries: JsonObject | null = null;
  if (section !== undefined) {
    if (section.value.kind === "object") entries = section.value;
    else
      report.atValue(
        "hcp.field.wrong_type",
        policy,
        section.value,
        "/verbs",
        `${at(policy, "/verbs")}: policy verbs must be an object keyed by verb_key.`,
      );
  }
  if (section !== undefined && entries === null) return;
  for (const verb of verbs) {
    const entry = entries?.byKey.get(verb.key);
    if (entry === undefined) {
      report.emit(
        "hcp.policy.missing_verb_entry",
        `${at(surface, verb.pointer)}: verb ${quote(verb.key)} has no policy entry; ${policy.name} must have "verbs": {${JSON.stringify(verb.key)}: {…}} (HCP §2.3.5).`,
        {
          file: surface.file,
          span: surface.positions.span(verb.member.keyStart, verb.member.keyEnd),
          pointer: verb.pointer,
          hint: `Add a policy entry for ${quote(verb.key)} under "verbs" in ${policy.name}.`,
        },
      );
    } else if (entry.value.kind !== "object") {
      const p = pointerOf("/verbs", verb.key);
      report.atValue(
        "hcp.field.wrong_type",
        policy,
        entry.value,
        p,
        `${at(policy, p)}: the policy entry of verb ${quote(verb.key)} must be an object.`,
      );
    }
  }
  if (entries === null) return;
  const declared = new Set(verbs.map((v) => v.key));
  for (const em of entries.members) {
    if (!declared.has(em.key) && entries.byKey.get(em.key) === em) {
      report.atKey(
        "hcp.policy.unknown_verb",
        policy,
        em,
        pointerOf("/verbs", em.key),
        `${at(policy, pointerOf("/verbs", em.key))}: policy entry for verb ${quote(em.key)}, which ${surface.name} does not declare.`,
        "Remove the stale entry or declare the verb in surface.json.",
      );
    }
  }
}
