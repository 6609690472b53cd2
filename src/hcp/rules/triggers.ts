/** Triggers (§2.4): every `stimulusTriggers[].ref` has a policy stimuli entry; no polling-only triggers. */
import { at, member, pointerOf, quote } from "../json-access.js";
import type { JsonObject, JsonString } from "../json-reader.js";
import type { JsonDoc, PackReporter } from "../report.js";

export interface DeclaredTrigger {
  readonly ref: string;
  readonly node: JsonString;
  readonly pointer: string;
}

/** The words that say "polling" in an observation value, in any case. */
const POLLING_WORDS = new Set(["poll", "polls", "polled", "polling", "poller"]);

/**
 * The marker a manifest uses to say a condition can only be observed by polling is its trigger's
 * `"observation"` (see docs/hcp.md). §2.4.3 forbids the condition, not one spelling of it: an observation value is polling when any of
 * its words — split at case changes and at anything not a letter, so `"Poll"`, `"polling"`,
 * `"poll:30s"`, `"long-poll"` and `"longPoll"` all are — is a form of "poll". `"push"`, `"pollen"`
 * and `"webhook"` are not.
 */
export function isPollingObservation(value: string): boolean {
  const words = value
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z]+/);
  return words.some((w) => POLLING_WORDS.has(w));
}

/** The declared triggers with a usable ref; null when `stimulusTriggers` is not an array. */
export function checkTriggers(surface: JsonDoc, report: PackReporter): DeclaredTrigger[] | null {
  const m = member(surface.root, "stimulusTriggers");
  if (m === undefined) return [];
  if (m.value.kind !== "array") {
    report.atValue(
      "hcp.field.wrong_type",
      surface,
      m.value,
      "/stimulusTriggers",
      `${at(surface, "/stimulusTriggers")}: stimulusTriggers must be an array of trigger objects, each with a "ref" (HCP §2.4.1).`,
    );
    return null;
  }
  const triggers: DeclaredTrigger[] = [];
  m.value.items.forEach((item, i) => {
    const pointer = pointerOf("/stimulusTriggers", i);
    if (item.kind !== "object") {
      report.atValue(
        "hcp.field.wrong_type",
        surface,
        item,
        pointer,
        `${at(surface, pointer)}: a trigger must be an object with a "ref".`,
      );
      return;
    }
    const ref = member(item, "ref");
    if (ref === undefined || ref.value.kind !== "string" || ref.value.value === "") {
      const node = ref === undefined ? null : ref.value;
      const message = `${at(surface, pointer)}: trigger has no ${node === null ? '"ref"' : 'non-empty string "ref"'}; every trigger names the stimulus it raises (HCP §2.4.1).`;
      if (node === null) report.atObject("hcp.trigger.missing_ref", surface, item, pointer, message);
      else report.atValue("hcp.trigger.missing_ref", surface, node, pointerOf(pointer, "ref"), message);
    } else {
      triggers.push({ ref: ref.value.value, node: ref.value, pointer: pointerOf(pointer, "ref") });
    }
    checkPolling(surface, item, pointer, ref?.value.kind === "string" ? ref.value.value : null, report);
  });
  return triggers;
}

function checkPolling(
  surface: JsonDoc,
  trigger: JsonObject,
  pointer: string,
  ref: string | null,
  report: PackReporter,
): void {
  const observation = member(trigger, "observation");
  if (observation === undefined) return;
  const p = pointerOf(pointer, "observation");
  if (observation.value.kind !== "string") {
    report.atValue(
      "hcp.field.wrong_type",
      surface,
      observation.value,
      p,
      `${at(surface, p)}: observation must be a string such as "push" or "poll".`,
    );
    return;
  }
  if (isPollingObservation(observation.value.value)) {
    report.atValue(
      "hcp.trigger.polling",
      surface,
      observation.value,
      p,
      `${at(surface, p)}: trigger${ref === null ? "" : ` ${quote(ref)}`} is for a condition the pack can only observe by polling; a pack must not declare such a trigger (HCP §2.4.3).`,
      "Remove the trigger and expose the condition as a verb the agent can call, or observe it through a push source.",
    );
  }
}

/** §2.4.2: each ref has an entry in policy `stimuli`; entries no trigger refers to are flagged. */
export function checkStimulusPolicy(
  surface: JsonDoc,
  policy: JsonDoc,
  triggers: readonly DeclaredTrigger[],
  report: PackReporter,
): void {
  const section = member(policy.root, "stimuli");
  let entries: JsonObject | null = null;
  if (section !== undefined) {
    if (section.value.kind === "object") entries = section.value;
    else {
      report.atValue(
        "hcp.field.wrong_type",
        policy,
        section.value,
        "/stimuli",
        `${at(policy, "/stimuli")}: policy stimuli must be an object keyed by trigger ref.`,
      );
      return;
    }
  }
  const seen = new Set<string>();
  for (const t of triggers) {
    if (seen.has(t.ref)) continue;
    seen.add(t.ref);
    const entry = entries?.byKey.get(t.ref);
    if (entry === undefined) {
      report.atValue(
        "hcp.policy.missing_stimulus_entry",
        surface,
        t.node,
        t.pointer,
        `${at(surface, t.pointer)}: trigger ref ${quote(t.ref)} has no policy stimuli entry; ${policy.name} must have "stimuli": {${JSON.stringify(t.ref)}: {…}} (HCP §2.4.2).`,
        `Add an entry for ${quote(t.ref)} under "stimuli" in ${policy.name}.`,
      );
    } else if (entry.value.kind !== "object") {
      const p = pointerOf("/stimuli", t.ref);
      report.atValue(
        "hcp.field.wrong_type",
        policy,
        entry.value,
        p,
        `${at(policy, p)}: the policy stimuli entry of ${quote(t.ref)} must be an object.`,
      );
    }
  }
  if (entries === null) return;
  for (const em of entries.members) {
    if (!seen.has(em.key) && entries.byKey.get(em.key) === em) {
      const p = pointerOf("/stimuli", em.key);
      report.atKey(
        "hcp.policy.unknown_stimulus",
        policy,
        em,
        p,
        `${at(policy, p)}: stimuli entry ${quote(em.key)} is not the ref of any trigger in ${surface.name}.`,
        "Remove the stale entry or declare the trigger.",
      );
    }
  }
}
