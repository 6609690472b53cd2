/**
 * The OKF contract JSON cases of reference §5.1 (okf_bundle_contracts.rs) as one table, run over a
 * contract and the bundle it describes: ours (fixtures/a3s/okf/bundle-v02.contract.json and the
 * atlas bundle, test/a3s/okf.test.ts) and the reference's core fixture
 * (test/reference/a3s-okf.test.ts, skipped with a reason without the reference). Issue 33 item 5.
 */
import { expect, test } from "vitest";
import { parseOkfContractJson } from "../../src/a3s/okf/bundle.js";
import { inspectOkfBundleFiles, verifyInspection } from "../../src/a3s/okf/inspect.js";

type BundleFile = { path: string; bytes: Uint8Array };

/** Edits of the contract and the code each must be refused with. */
const REFUSED: [string, (o: Record<string, any>) => void, string][] = [
  ["extra executor field", (o) => (o["executor"] = "tool:index"), "use.okf.contract_invalid"],
  ["root ../knowledge", (o) => (o["root"] = "../knowledge"), "use.okf.path_escape"],
  ["maxFiles 1", (o) => (o["limits"]["maxFiles"] = 1), "use.okf.contract_invalid"],
];

export function okfContractCasesOn(which: string, raw: Uint8Array, bundle: readonly BundleFile[]): void {
  const edit = (f: (o: Record<string, any>) => void) => {
    const o = JSON.parse(new TextDecoder().decode(raw));
    f(o);
    return new TextEncoder().encode(JSON.stringify(o));
  };
  test(`${which}: the contract parses, and the bundle matches it`, () => {
    expect(bundle.length).toBeGreaterThan(0);
    const c = parseOkfContractJson(raw);
    if (!c.ok) throw new Error(c.error.message);
    const i = inspectOkfBundleFiles(bundle, c.contract.limits);
    if (!i.ok) throw new Error(JSON.stringify(i.errors));
    expect(verifyInspection(c.contract, i.inspection)).toBeNull();
  });
  test.each(REFUSED)(`${which}: %s`, (_name, change, code) =>
    expect(parseOkfContractJson(edit(change))).toMatchObject({ ok: false, error: { code } }),
  );
}
