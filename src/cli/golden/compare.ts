/**
 * Compare the records a golden suite recomputed (in a fresh process) with the files under its
 * folder: every difference is a finding naming the file, with the JSON pointers that differ (or the
 * first differing line of a text record); a file that is not JSON where JSON is expected is
 * `evidence.golden_unreadable`; a record with no file is `golden_missing`; a file no record
 * accounts for is `golden_stale`. Never throws on a malformed file.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { diagnostic } from "../../codes/evidence.js";
import { jsonDiff } from "../../evidence/golden.js";
import { parseHarpJson as parseStrictJson } from "../../harp/json.js";
import { filesUnder } from "./suites.js";

export interface SuiteComparison {
  readonly folder: string;
  readonly records: number;
  readonly matched: number;
  readonly findings: readonly Diagnostic[];
}

const SHOWN_POINTERS = 8;

/** The 1-based number of the first line where two texts differ. */
function firstDifferentLine(a: string, b: string): number {
  const la = a.split("\n");
  const lb = b.split("\n");
  let i = 0;
  while (i < la.length && i < lb.length && la[i] === lb[i]) i++;
  return i + 1;
}

function lenient(text: string): { ok: true; json: { value: unknown } } | undefined {
  try {
    return { ok: true, json: { value: JSON.parse(text) as unknown } };
  } catch {
    return undefined;
  }
}

/** One record against its file. Undefined when they agree. */
function compareRecord(shown: string, expected: string, actual: string): Diagnostic | undefined {
  if (expected === actual) return undefined;
  if (shown.endsWith(".json")) {
    const strict = parseStrictJson(actual);
    // The strict reader stops at 64 levels; a deep IR record is still JSON, compared as such.
    const parsed = !strict.ok && strict.error.kind === "too_deep" ? (lenient(actual) ?? strict) : strict;
    if (!parsed.ok) {
      const at = parsed.error.span ? ` at ${parsed.error.span.start.line}:${parsed.error.span.start.column}` : "";
      return diagnostic(
        "evidence.golden_unreadable",
        `golden file ${shown} is not JSON${at}: ${parsed.error.message}`,
        { file: shown, hint: "restore it from git or regenerate it, then commit with [golden]" },
      );
    }
    const pointers = jsonDiff(JSON.parse(expected) as unknown, parsed.json.value);
    const where =
      pointers.length === 0
        ? "in formatting only (same JSON value)"
        : `at ${pointers.slice(0, SHOWN_POINTERS).join(", ")}${pointers.length > SHOWN_POINTERS ? ` and ${pointers.length - SHOWN_POINTERS} more` : ""}`;
    return diagnostic("evidence.golden_mismatch", `${shown}: the recomputed record differs ${where}`, {
      file: shown,
      ...(pointers[0] !== undefined ? { pointer: pointers[0] === "/" ? "" : pointers[0] } : {}),
    });
  }
  return diagnostic(
    "evidence.golden_mismatch",
    `${shown}: the recomputed record differs from line ${firstDifferentLine(expected, actual)}`,
    { file: shown },
  );
}

/** `records` (relative to `folder`) against the files under `root/folder`. */
export function compareSuite(root: string, folder: string, records: ReadonlyMap<string, string>): SuiteComparison {
  const findings: Diagnostic[] = [];
  let matched = 0;
  for (const [rel, expected] of [...records].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const shown = `${folder}/${rel}`;
    const file = join(root, folder, rel);
    if (!existsSync(file)) {
      findings.push(diagnostic("evidence.golden_missing", `${shown}: no golden file for this record`, { file: shown }));
      continue;
    }
    let actual: string;
    try {
      actual = readFileSync(file, "utf8");
    } catch (e) {
      findings.push(
        diagnostic(
          "evidence.golden_unreadable",
          `golden file ${shown} cannot be read (${e instanceof Error ? e.message : String(e)})`,
          { file: shown },
        ),
      );
      continue;
    }
    const d = compareRecord(shown, expected, actual);
    if (d === undefined) matched++;
    else findings.push(d);
  }
  const dir = join(root, folder);
  for (const rel of existsSync(dir) ? filesUnder(dir) : []) {
    if (!records.has(rel))
      findings.push(
        diagnostic("evidence.golden_stale", `${folder}/${rel} is not a record of any fixture`, {
          file: `${folder}/${rel}`,
          hint: "delete it, or add the fixture it records",
        }),
      );
  }
  return { folder, records: records.size, matched, findings };
}
