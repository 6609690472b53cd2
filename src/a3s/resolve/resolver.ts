/**
 * The cognitive-package resolver (reference §3.3): bounded depth-first backtracking over verified
 * catalog records, Cargo-SemVer constraints, and the six failure kinds with A3S Use's codes and
 * messages. A success is frozen into an `a3s.use.plugin-package-lock.v1` lock (§3.4).
 */
import { CHANNEL_RANK, hostProblem, type Host, type VerifiedRecord } from "./verified-record.js";
import { canonicalDigest, type CJson } from "../package/cjson.js";
import { byteCompare } from "../manifest/schema.js";
import { compareVersions, parseVersion, reqMatches, type VersionReq } from "./semver.js";

export const LOCK_SCHEMA = "a3s.use.plugin-package-lock.v1";
export const MAX_CANDIDATES = 4096;
export const MAX_ATTEMPTS = 65_536;
export const MAX_PACKAGES = 512;
export const MAX_CONSTRAINED_IDS = 511;

export type FailureKind =
  | "missing"
  | "incompatible"
  | "registry_ambiguous"
  | "conflict"
  | "cycle"
  | "limit"
  | "invalid";

export interface ResolutionFailure {
  kind: FailureKind;
  /** A3S Use's error code. */
  referenceCode: string;
  /** A3S Use's message. */
  message: string;
  packageId?: string;
}

export function failure(kind: FailureKind, packageId?: string, detail?: string): ResolutionFailure {
  const id = packageId ?? "";
  switch (kind) {
    case "missing":
      return {
        kind,
        packageId,
        referenceCode: "use.plugin.package_dependency_missing",
        message: `No verified candidate exists for required cognitive package '${id}'.`,
      };
    case "incompatible":
      return {
        kind,
        packageId,
        referenceCode: "use.plugin.package_dependency_incompatible",
        message: `No verified release of cognitive package '${id}' is compatible with the selected host.`,
      };
    case "registry_ambiguous":
      return {
        kind,
        packageId,
        referenceCode: "use.plugin.package_registry_ambiguous",
        message: `Required cognitive package '${id}' is present in more than one registry.`,
      };
    case "conflict":
      return {
        kind,
        packageId,
        referenceCode: "use.plugin.package_dependency_conflict",
        message: `No version of cognitive package '${id}' satisfies the complete dependency constraint set.`,
      };
    case "cycle":
      return {
        kind,
        referenceCode: "use.plugin.package_dependency_cycle",
        message: "The cognitive-package dependency graph contains a cycle.",
      };
    case "limit":
      return {
        kind,
        referenceCode: "use.plugin.package_resolution_limit",
        message: "Cognitive-package resolution exceeded its package or search-attempt bound.",
      };
    case "invalid":
      return {
        kind,
        packageId,
        referenceCode: "use.plugin.package_resolution_invalid",
        message: detail ?? "The cognitive-package resolution input is invalid.",
      };
  }
}

export function hostCompatible(r: VerifiedRecord, host: Host): boolean {
  const use = parseVersion(host.useVersion);
  return (r.target === "any" || r.target === host.target) && use.ok && reqMatches(r.requiresUse, use.value);
}

/** Best first: highest version, stable < beta < nightly, exact target before `any`, then digest bytes. */
export function compareCandidates(a: VerifiedRecord, b: VerifiedRecord): number {
  return (
    compareVersions(b.version, a.version) ||
    CHANNEL_RANK[a.channel] - CHANNEL_RANK[b.channel] ||
    (a.target === "any" ? 1 : 0) - (b.target === "any" ? 1 : 0) ||
    byteCompare(a.catalogRecordDigest, b.catalogRecordDigest)
  );
}

export interface Resolution {
  ok: true;
  /** Selected records by package ID. */
  selected: Map<string, VerifiedRecord>;
  attempts: number;
}

class LimitAbort extends Error {}

function hasCycle(selected: Map<string, VerifiedRecord>): boolean {
  const state = new Map<string, 1 | 2>();
  const visit = (id: string): boolean => {
    const s = state.get(id);
    if (s === 2) return false;
    if (s === 1) return true;
    state.set(id, 1);
    for (const d of selected.get(id)!.dependencies) if (selected.has(d.packageId) && visit(d.packageId)) return true;
    state.set(id, 2);
    return false;
  };
  // Iterative deepening would avoid recursion, but the selected set is bounded at 512 packages.
  return [...selected.keys()].some((id) => visit(id));
}

export function resolve(
  host: Host,
  root: VerifiedRecord,
  candidates: readonly VerifiedRecord[],
): Resolution | ResolutionFailure {
  const hp = hostProblem(host);
  if (hp !== null) return failure("invalid", undefined, `The selected host is invalid: ${hp}.`);
  if (candidates.length > MAX_CANDIDATES) return failure("limit");
  const seen = new Set<string>();
  for (const c of candidates) {
    if (seen.has(c.verifiedDigest))
      return failure(
        "invalid",
        c.packageId,
        `Verified catalog record '${c.verifiedDigest}' for '${c.packageId}' is supplied more than once.`,
      );
    seen.add(c.verifiedDigest);
  }
  if (!hostCompatible(root, host) || root.withdrawn) return failure("incompatible", root.packageId);

  const byId = new Map<string, VerifiedRecord[]>();
  for (const c of candidates) byId.set(c.packageId, [...(byId.get(c.packageId) ?? []), c]);
  for (const list of byId.values()) list.sort(compareCandidates);

  let attempts = 0;
  const search = (selected: Map<string, VerifiedRecord>): Resolution | ResolutionFailure => {
    attempts++;
    if (attempts > MAX_ATTEMPTS || selected.size > MAX_PACKAGES) throw new LimitAbort();
    const constraints = new Map<string, VersionReq[]>();
    for (const s of selected.values())
      for (const d of s.dependencies) constraints.set(d.packageId, [...(constraints.get(d.packageId) ?? []), d.req]);
    if (constraints.size > MAX_CONSTRAINED_IDS) throw new LimitAbort();
    for (const [id, s] of selected) {
      const cs = constraints.get(id);
      if (cs !== undefined && !cs.every((r) => reqMatches(r, s.version))) return failure("conflict", id);
    }
    if (hasCycle(selected)) return failure("cycle");
    const next = [...constraints.keys()].sort(byteCompare).find((id) => !selected.has(id));
    if (next === undefined) return { ok: true, selected, attempts };
    const all = byId.get(next) ?? [];
    if (all.length === 0) return failure("missing", next);
    const registries = new Set(
      all.map((c) => JSON.stringify([c.registry.name, c.registry.url, c.registry.rootSha256])),
    );
    if (registries.size > 1) return failure("registry_ambiguous", next);
    const usable = all.filter((c) => !c.withdrawn && hostCompatible(c, host));
    if (usable.length === 0) return failure("incompatible", next);
    const reqs = constraints.get(next)!;
    const fitting = usable.filter((c) => reqs.every((r) => reqMatches(r, c.version)));
    if (fitting.length === 0) return failure("conflict", next);
    let first: ResolutionFailure | null = null;
    for (const c of fitting) {
      const r = search(new Map([...selected, [next, c]]));
      if ("ok" in r) return r;
      first ??= r;
    }
    return first!;
  };
  try {
    return search(new Map([[root.packageId, root]]));
  } catch (e) {
    if (e instanceof LimitAbort) return failure("limit");
    throw e;
  }
}

export interface PluginPackageLock {
  schema: typeof LOCK_SCHEMA;
  rootPackageId: string;
  host: Host;
  packages: {
    catalog: { record: CJson; provenance: CJson };
    dependencies: { packageId: string; versionRequirement: string; version: string }[];
  }[];
}

/** Freeze a resolution into the canonical lock: packages sorted by ID, edges in record order. */
export function buildLock(host: Host, rootPackageId: string, selected: Map<string, VerifiedRecord>): PluginPackageLock {
  const ids = [...selected.keys()].sort(byteCompare);
  return {
    schema: LOCK_SCHEMA,
    rootPackageId,
    host: { target: host.target, useVersion: host.useVersion },
    packages: ids.map((id) => {
      const r = selected.get(id)!;
      return {
        catalog: { record: r.raw.record, provenance: r.raw.provenance },
        dependencies: r.dependencies.map((d) => ({
          packageId: d.packageId,
          versionRequirement: d.versionRequirement,
          version: selected.get(d.packageId)!.versionText,
        })),
      };
    }),
  };
}

export function lockDigest(lock: unknown): string {
  return canonicalDigest(lock);
}
