/**
 * Verification of an `a3s.use.plugin-package-lock.v1` lock (reference §3.4): the seven rules,
 * all reported (the reference stops at the first, with `use.plugin.package_lock_invalid`), and the
 * install order (rounds of nodes whose dependencies are done, by package ID) with its reverse as
 * the removal order.
 */
import { hostProblem, readVerifiedRecord, type VerifiedRecord } from "./verified-record.js";
import type { CJson } from "../package/cjson.js";
import { byteCompare, isPackageId } from "../manifest/schema.js";
import { hostCompatible, LOCK_SCHEMA, lockDigest, MAX_PACKAGES } from "./resolver.js";
import { formatVersion, reqMatches } from "./semver.js";
import { canonicalVersion } from "./verified-record.js";

export interface LockProblem {
  /** Which of the seven rules (§3.4) the problem breaks. */
  rule: 1 | 2 | 3 | 4 | 5 | 6 | 7;
  message: string;
}

export interface LockVerification {
  problems: LockProblem[];
  digest: string | null;
  installOrder: string[] | null;
  removalOrder: string[] | null;
}

type Obj = Record<string, CJson>;
const isObj = (v: CJson | undefined): v is Obj =>
  typeof v === "object" && v !== null && !Array.isArray(v) && typeof v !== "bigint";

export const LOCK_REFERENCE_CODE = "use.plugin.package_lock_invalid";

export function verifyLock(lock: CJson): LockVerification {
  const problems: LockProblem[] = [];
  const p = (rule: LockProblem["rule"], message: string) => problems.push({ rule, message });
  let digest: string | null = null;
  try {
    digest = lockDigest(lock);
  } catch {
    digest = null;
  }
  if (!isObj(lock))
    return {
      problems: [{ rule: 1, message: "The lock must be a JSON object." }],
      digest,
      installOrder: null,
      removalOrder: null,
    };
  for (const k of Object.keys(lock))
    if (!["schema", "rootPackageId", "host", "packages"].includes(k)) p(1, `The lock has unknown field '${k}'.`);
  // Rule 1: schema, root ID, 1..512 packages.
  if (lock["schema"] !== LOCK_SCHEMA) p(1, `The lock schema must be '${LOCK_SCHEMA}'.`);
  const rootId = lock["rootPackageId"];
  if (typeof rootId !== "string" || !isPackageId(rootId, true))
    p(1, `The lock root package ID ${JSON.stringify(rootId)} is invalid.`);
  const pkgs = lock["packages"];
  if (!Array.isArray(pkgs) || pkgs.length < 1 || pkgs.length > MAX_PACKAGES)
    p(1, `The lock must hold 1 to ${MAX_PACKAGES} packages.`);
  // Rule 2: host.
  const hostV = lock["host"];
  let host: { target: string; useVersion: string } | null = null;
  if (
    !isObj(hostV) ||
    typeof hostV["target"] !== "string" ||
    typeof hostV["useVersion"] !== "string" ||
    Object.keys(hostV).some((k) => k !== "target" && k !== "useVersion")
  ) {
    p(2, "The lock host must be exactly {target, useVersion} strings.");
  } else {
    host = { target: hostV["target"], useVersion: hostV["useVersion"] };
    const hp = hostProblem(host);
    if (hp !== null) {
      p(2, `The lock ${hp}.`);
      host = null;
    }
  }
  if (!Array.isArray(pkgs)) return { problems, digest, installOrder: null, removalOrder: null };

  // Rule 3: each node is a valid, non-withdrawn, host-compatible verified record.
  const nodes: { rec: VerifiedRecord; edges: Obj[] }[] = [];
  // IDs of every entry, valid or not, so a broken node is not reported again as "not locked".
  const declaredIds = new Set(
    pkgs.map((n) =>
      isObj(n) && isObj(n["catalog"]) && isObj(n["catalog"]["record"]) ? n["catalog"]["record"]["packageId"] : null,
    ),
  );
  pkgs.forEach((n, i) => {
    if (!isObj(n)) return p(3, `Lock package #${i} must be an object.`);
    for (const k of Object.keys(n))
      if (k !== "catalog" && k !== "dependencies") p(3, `Lock package #${i} has unknown field '${k}'.`);
    const r = readVerifiedRecord(n["catalog"] ?? null);
    if (!r.ok) {
      for (const m of r.problems) p(3, `Lock package #${i}: ${m}.`);
      return;
    }
    const rec = r.value;
    if (rec.withdrawn) p(3, `Locked package '${rec.packageId}' is withdrawn.`);
    if (host !== null && !hostCompatible(rec, host))
      p(
        3,
        `Locked package '${rec.packageId}' ${rec.versionText} is not compatible with host ${host.target} / A3S Use ${host.useVersion}.`,
      );
    const deps = n["dependencies"];
    if (!Array.isArray(deps)) {
      p(5, `Lock package '${rec.packageId}' must list its dependencies (possibly []).`);
      return;
    }
    nodes.push({ rec, edges: deps.filter(isObj) });
    if (deps.some((d) => !isObj(d))) p(5, `Lock package '${rec.packageId}' has a dependency that is not an object.`);
  });

  // Rule 4: strictly sorted, unique, root present.
  for (let i = 1; i < nodes.length; i++) {
    if (byteCompare(nodes[i - 1]!.rec.packageId, nodes[i]!.rec.packageId) >= 0)
      p(
        4,
        `Lock packages must be strictly sorted by package ID ('${nodes[i - 1]!.rec.packageId}' before '${nodes[i]!.rec.packageId}').`,
      );
  }
  const byId = new Map(nodes.map((n) => [n.rec.packageId, n]));
  if (typeof rootId === "string" && !byId.has(rootId))
    p(4, `The lock root package '${rootId}' is not among its packages.`);

  // Rule 5: edges mirror record.dependencies one-to-one, in order, and select the locked version.
  for (const { rec, edges } of nodes) {
    if (edges.length !== rec.dependencies.length)
      p(5, `Lock edges of '${rec.packageId}' do not mirror its ${rec.dependencies.length} catalog dependencies.`);
    edges.forEach((e, i) => {
      for (const k of Object.keys(e))
        if (!["packageId", "versionRequirement", "version"].includes(k))
          p(5, `Lock edge of '${rec.packageId}' has unknown field '${k}'.`);
      const want = rec.dependencies[i];
      if (want === undefined) return;
      if (e["packageId"] !== want.packageId || e["versionRequirement"] !== want.versionRequirement) {
        p(5, `Lock edge #${i} of '${rec.packageId}' must be ${want.packageId} ${want.versionRequirement}.`);
        return;
      }
      const target = byId.get(want.packageId);
      const v = typeof e["version"] === "string" ? canonicalVersion(e["version"]) : null;
      if (v === null) p(5, `Lock edge ${rec.packageId} -> ${want.packageId} has no canonical version.`);
      else if (target === undefined) {
        if (!declaredIds.has(want.packageId))
          p(5, `Lock edge ${rec.packageId} -> ${want.packageId} points to a package that is not locked.`);
      } else if (formatVersion(v) !== target.rec.versionText)
        p(
          5,
          `Lock edge ${rec.packageId} -> ${want.packageId} names ${String(e["version"])} but ${target.rec.versionText} is locked.`,
        );
      else if (!reqMatches(want.req, v))
        p(
          5,
          `Locked ${want.packageId} ${target.rec.versionText} does not satisfy '${want.versionRequirement}' of '${rec.packageId}'.`,
        );
    });
  }
  const depIds = (id: string) =>
    (byId.get(id)?.rec.dependencies ?? []).map((d) => d.packageId).filter((d) => byId.has(d));

  // Rule 6: reachability from the root.
  if (typeof rootId === "string" && byId.has(rootId)) {
    const seen = new Set<string>([rootId]);
    const stack = [rootId];
    while (stack.length > 0) for (const d of depIds(stack.pop()!)) if (!seen.has(d)) seen.add(d), stack.push(d);
    for (const id of byId.keys())
      if (!seen.has(id)) p(6, `Locked package '${id}' is not reachable from the root '${rootId}'.`);
  }

  // Rule 7: acyclic, in rounds.
  const done = new Set<string>();
  const install: string[] = [];
  let cyclic = false;
  while (done.size < byId.size) {
    const round = [...byId.keys()]
      .filter((id) => !done.has(id) && depIds(id).every((d) => done.has(d)))
      .sort(byteCompare);
    if (round.length === 0) {
      p(7, "The cognitive-package lock contains a dependency cycle.");
      cyclic = true;
      break;
    }
    for (const id of round) done.add(id), install.push(id);
  }
  const ok = problems.length === 0 && !cyclic;
  return { problems, digest, installOrder: ok ? install : null, removalOrder: ok ? [...install].reverse() : null };
}
