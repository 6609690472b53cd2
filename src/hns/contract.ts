/**
 * The contract's own rules (HNS §7). The contract's subforms stay open in v0.1, but a contract
 *
 * - must not repeat the package version or declare a contract version of its own: the package
 *   evolves by the manifest's `version` and its content identity (`hns.contract_version`);
 * - must not grant capabilities (§7, §6.6, §9.4: requirements and permissions come from the
 *   manifest and the entry, never from the contract) (`hns.contract_grant`);
 * - must not assert by declaration alone that verification or an external side effect has
 *   happened (`hns.contract_claim`); evidence and verifier declarations are reserved for later
 *   profiles, which portable extensions reach through namespaced roots (`(acme.evidence …)`).
 *
 * Only the contract's top-level subforms are looked at: their heads say what they declare, and a
 * namespaced head (one with a `.`) is an extension these rules leave alone. The remaining §7
 * sentences — immutable for an exact identity, mounted from the exact bound package, compact
 * enough not to force every skill into each evaluation — are runtime duties or a SHOULD with no
 * fixed measure, so the loader has nothing to check for them.
 */
import type { SList } from "../syntax/tree.js";
import type { LoadContext } from "./context.js";

const VERSION_HEADS = new Set(["version", "contract-version", "contract_version"]);

/** The manifest's capability forms and the entry's requirements, and the words for granting them. */
const GRANT_HEADS = new Set(["capabilities", "tools", "skills", "requires", "grants", "permissions"]);

/** Declared results: a verification or attestation, and Yao's evidence and outcome constructors. */
const CLAIM_HEADS = new Set(["verified", "attested", "evidence", "outcome"]);

/** Records one error per offending subform; the contract is still read (it enters the identity as it is). */
export function checkContract(contract: SList, ctx: LoadContext): void {
  for (const item of contract.items.slice(1)) {
    if (item.kind !== "list") continue;
    const head = item.items[0];
    if (head?.kind !== "symbol") continue;
    const name = head.name;
    if (VERSION_HEADS.has(name)) {
      ctx.reportAt(
        "hns.contract_version",
        name === "version"
          ? "contract must not repeat the package version: remove (version ...)"
          : `contract must not declare a version of its own: remove (${name} ...)`,
        item,
        "the package version is the manifest's (version …); together with the content identity it identifies how the contract evolves",
        { label: "a version inside the contract" },
      );
    } else if (GRANT_HEADS.has(name)) {
      ctx.reportAt(
        "hns.contract_grant",
        `contract must not grant capabilities: remove (${name} ...)`,
        item,
        "tools and skills are declared in the manifest's (capabilities …) and narrowed by the entry's (requires (tools …)); a contract grants nothing",
        { label: "a contract cannot grant this" },
      );
    } else if (CLAIM_HEADS.has(name)) {
      ctx.reportAt(
        "hns.contract_claim",
        `contract must not assert by declaration that verification or a side effect has happened: remove (${name} ...)`,
        item,
        "evidence comes from what runs, not from the contract; an extension can use a namespaced root such as (acme.evidence …)",
        { label: "a declared claim" },
      );
    }
  }
}
