/**
 * Snapshots of the rendered human output (no colors) for representative errors of every frontend.
 * Each file under test/snapshots/<frontend>/ holds what `yaoc check PATH` prints for one package,
 * diagnostic by diagnostic (rendered with renderDiagnosticText, so the summary lines other work
 * changes do not churn them). The files are reviewed by reading them; after a deliberate change to
 * wording or layout, re-run with `UPDATE_GOLDEN=1 npx vitest run test/snapshots` and read the diff.
 */
import { describe, expect, it } from "vitest";
import { renderDiagnosticText } from "../../src/diagnostics/render.js";
import { checkPaths } from "../../src/cli/check-command.js";
import { NodeFs } from "../../src/fs/node-fs.js";

const HNS_FAILURE = "fixtures/hns/failure";

/** [snapshot name, package path relative to the repository root] */
const CASES: readonly (readonly [string, string])[] = [
  // HNS / Yao analysis: several independent errors per package.
  ["hns/four-mistakes", "fixtures/teaching/four-mistakes.hns"],
  ["hns/wide-characters", "test/snapshots/inputs/wide-characters.hns"],
  ["hns/effects", "test/snapshots/inputs/effects.hns"],
  ["hns/cycle", "test/snapshots/inputs/cycle.hns"],
  ["hns/records", "test/snapshots/inputs/records.hns"],
  ["hns/names", "test/snapshots/inputs/names.hns"],
  ["hns/clauses", "test/snapshots/inputs/clauses.hns"],
  ["hns/manifest-fields", "test/snapshots/inputs/manifest-fields.hns"],
  // HNS loader and reader: one per family.
  ["hns/unclosed-list", `${HNS_FAILURE}/yao.unclosed_list/single.hns`],
  ["hns/unexpected-close", `${HNS_FAILURE}/yao.unexpected_close/single.hns`],
  ["hns/invalid-utf8", `${HNS_FAILURE}/yao.invalid_utf8/single.hns`],
  ["hns/invalid-escape", `${HNS_FAILURE}/yao.invalid_escape/single.hns`],
  ["hns/bom", `${HNS_FAILURE}/yao.bom/single.hns`],
  ["hns/multiple-forms", `${HNS_FAILURE}/yao.multiple_top_level_forms/dir-function.hns`],
  ["hns/duplicate-manifest", `${HNS_FAILURE}/hns.duplicate_artifact/single-manifest.hns`],
  ["hns/duplicate-fn", `${HNS_FAILURE}/hns.duplicate_fn/single.hns`],
  ["hns/missing-id", `${HNS_FAILURE}/hns.missing_field/single-id.hns`],
  ["hns/bad-capabilities", `${HNS_FAILURE}/hns.bad_capabilities/single-atom-item.hns`],
  ["hns/entry-escape", `${HNS_FAILURE}/hns.entry_escape/dir-parent.hns`],
  ["hns/entry-not-yao", `${HNS_FAILURE}/hns.bad_entry_path/dir-not-yao.hns`],
  ["hns/tool-not-in-manifest", `${HNS_FAILURE}/hns.tool_not_in_manifest/single.hns`],
  ["hns/missing-requires", `${HNS_FAILURE}/hns.missing_requires/single.hns`],
  ["hns/unknown-artifact", `${HNS_FAILURE}/hns.unknown_artifact/single-prompt.hns`],
  ["hns/string-root", `${HNS_FAILURE}/hns.wrong_root/single-string-head.hns`],
  ["hns/malformed-fn", `${HNS_FAILURE}/hns.malformed_fn/single-no-body.hns`],
  // HARP apps.
  ["harp/json-syntax", "fixtures/harp/invalid-json-syntax"],
  ["harp/duplicate-key", "fixtures/harp/invalid-duplicate-key"],
  ["harp/missing-fields", "fixtures/harp/invalid-missing-fields"],
  ["harp/types", "fixtures/harp/invalid-types"],
  ["harp/unknown-field", "fixtures/harp/invalid-unknown-field"],
  ["harp/unknown-kind", "fixtures/harp/invalid-unknown-kind"],
  ["harp/argv-paths", "fixtures/harp/invalid-argv-paths"],
  ["harp/secrets", "fixtures/harp/invalid-secrets"],
  // HCP packs.
  ["hcp/json-duplicate-key", "fixtures/hcp/json-duplicate-key"],
  ["hcp/json-trailing-comma", "fixtures/hcp/json-syntax-trailing-comma"],
  ["hcp/id-uppercase", "fixtures/hcp/id-uppercase"],
  ["hcp/binding-mixed-modes", "fixtures/hcp/binding-mixed-modes"],
  ["hcp/id-missing", "fixtures/hcp/id-missing"],
  ["hcp/path-wrap-bin-dotdot", "fixtures/hcp/path-wrap-bin-dotdot"],
  ["hcp/passthrough-flag", "fixtures/hcp/passthrough-flag"],
  ["hcp/trigger-polling", "fixtures/hcp/trigger-polling"],
  // A3S packages.
  ["a3s/acl-unterminated-string", "fixtures/a3s/packages/acl-unterminated-string"],
  ["a3s/path-escape", "fixtures/a3s/packages/path-escape"],
  ["a3s/readme-missing", "fixtures/a3s/packages/readme-missing"],
  ["a3s/schema-reserved-route", "fixtures/a3s/packages/schema-reserved-route"],
  ["a3s/okf-contract-mismatch", "fixtures/a3s/packages/okf-contract-mismatch"],
];

async function rendered(path: string): Promise<string> {
  const { results } = await checkPaths(new NodeFs(), [path], { analyze: true });
  const out = [`$ yaoc check ${path}`];
  for (const r of results) {
    for (const d of r.diagnostics) out.push(renderDiagnosticText(d, r.sources));
    out.push(`${r.path}: ${r.valid ? "ok" : "invalid"} (${r.kind})`);
  }
  return `${out.join("\n")}\n`;
}

describe("rendered human diagnostics", () => {
  it("covers at least 40 packages across every frontend", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(CASES.map(([name]) => name.split("/")[0]))).toEqual(new Set(["hns", "harp", "hcp", "a3s"]));
  });

  it.each(CASES)("%s", async (name, path) => {
    const text = await rendered(path);
    expect(text).not.toContain("\x1b["); // no colors
    expect(text).toContain("error["); // every case is an invalid package
    await expect(text).toMatchFileSnapshot(`./${name}.txt`);
  });
});
