/**
 * HNS §7: a contract must not repeat the package version or declare its own, must not grant
 * capabilities, and must not assert by declaration that verification happened. Each rule has
 * fixtures in both forms under fixtures/hns/failure/hns.contract_* (run by golden.test.ts); here,
 * the package with both version forms, every independent error at once, and the near
 * misses that stay valid. And §7/§9.4: contracts, functions and effects grant nothing.
 */
import { describe, expect, it } from "vitest";
import { checkSource, loadFromSource } from "../../src/index.js";

const pkg = (contract: string, entry = '(eval (requires (tools read)) (call read (path "a")))', fns = "") =>
  `(manifest (id x) (version "2.0.0") (title "T") (capabilities (tools read)))
${contract}
${fns}
${entry}`;

function errors(text: string) {
  const r = loadFromSource("p.hns", text);
  return r.ok
    ? []
    : r.diagnostics
        .filter((d) => d.severity === "error")
        .map((d) => [d.code, d.span?.start.line, d.span?.start.column]);
}

describe("contract rules (HNS §7)", () => {
  it("the issue's contract is rejected twice, each at its subform", () => {
    expect(errors(pkg('(contract (version "2.0.0") (contract-version "7") (purpose "x"))'))).toEqual([
      ["hns.contract_version", 2, 11],
      ["hns.contract_version", 2, 29],
    ]);
  });

  it("a contract that declares and grants and claims gets one error per subform, with the reference's own error in position order", () => {
    const text = `(manifest (id x) (version "1") (title "T"))
(contract (tools exec) (verified "yes"))
(eval (requires (tools read)) 1)`;
    expect(errors(text).map((e) => e[0])).toEqual([
      "hns.contract_grant",
      "hns.contract_claim",
      "hns.tool_not_in_manifest",
    ]);
    // The fail-fast reference reports the entry's tool first: still the first error detected.
    const r = loadFromSource("p.hns", text);
    expect(r.ok ? undefined : r.firstError.code).toBe("hns.tool_not_in_manifest");
  });

  it.each([
    ["version", '(version "1")'],
    ["contract-version", '(contract-version "7")'],
    ["capabilities", "(capabilities (tools exec))"],
    ["tools", "(tools exec)"],
    ["skills", "(skills rust)"],
    ["requires", "(requires (tools exec))"],
    ["grants", "(grants exec)"],
    ["permissions", "(permissions (write all))"],
    ["verified", '(verified "by CI")'],
    ["attested", "(attested true)"],
    ["evidence", '(evidence (kind "k") (value 1))'],
    ["outcome", "(outcome (status done))"],
  ])("(%s …) is rejected", (_head, sub) => {
    expect(errors(pkg(`(contract (purpose "x") ${sub})`))).toHaveLength(1);
  });

  it.each([
    ["an open subform", '(purpose "x") (rules (rule "cite sources"))'],
    [
      "a head that only starts like a forbidden one",
      '(version-policy "semver") (tool-guidance read) (verification-steps "x")',
    ],
    ["a namespaced extension", '(acme.version "2") (acme.evidence (kind "k")) (acme.tools exec)'],
    ["a forbidden word as an atom or string", '(purpose version) (note "verified tools")'],
    ["a forbidden head nested deeper", '(rules (version "1") (tools read))'],
  ])("near miss: %s stays valid", (_name, body) => {
    expect(errors(pkg(`(contract ${body})`))).toEqual([]);
  });
});

describe("contracts, functions and effects grant nothing (HNS §7, §9.4)", () => {
  const exec = '(eval (call exec (cmd "x")))';

  it("a contract naming a tool does not make it callable", async () => {
    const r = await checkSource("p.hns", pkg('(contract (purpose "x") (tool-guidance exec))', exec));
    expect(r.diagnostics.map((d) => d.code)).toEqual(["yao.unknown_name"]);
    const granted = await checkSource(
      "p.hns",
      pkg('(contract (purpose "x") (tool-guidance exec))', exec).replace("(tools read)", "(tools read exec)"),
    );
    expect(granted.valid).toBe(true);
  });

  it("a function declaring (effects (tool exec)) does not grant exec to the package", async () => {
    const fn = `(fn g (visibility exported) (description "d") (params) (returns Json) (effects (tool exec)) (body (call exec (cmd "x"))))`;
    const r = await checkSource("p.hns", pkg('(contract (purpose "x"))', "(eval (requires (tools read)) (g))", fn));
    expect(r.valid).toBe(false);
    expect(r.diagnostics.map((d) => d.code)).toContain("yao.unknown_name");
  });

  it("an entry's (requires (effects (tool exec))) does not grant exec", async () => {
    const r = await checkSource(
      "p.hns",
      pkg('(contract (purpose "x"))', '(eval (requires (effects (tool exec))) (call exec (cmd "x")))'),
    );
    expect(r.valid).toBe(false);
    expect(r.diagnostics.map((d) => d.code)).toEqual(["yao.unknown_name"]);
  });
});
