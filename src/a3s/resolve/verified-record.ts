/**
 * Verified catalog records `a3s.use.plugin-catalog.v3` with their registry provenance (reference
 * §3.2–3.4): the structural checks the resolver and the lock need. Signature and TUF metadata are
 * not verified here (out of scope); a record's provenance is trusted as written, but its
 * `catalogRecordDigest` must bind the record.
 */
import { canonicalDigest, type CJson } from "../package/cjson.js";
import { byteCompare, isCoreSegment, isPackageId, isSegment } from "../manifest/schema.js";
import {
  formatVersion,
  formatVersionReq,
  parseVersion,
  parseVersionReq,
  type Version,
  type VersionReq,
} from "./semver.js";

export const CATALOG_SCHEMA = "a3s.use.plugin-catalog.v3";
const SHA256 = /^sha256:[0-9a-f]{64}$/;
const TARGET = /^[a-z][a-z0-9_-]{0,63}$/;
const CHANNELS = ["stable", "beta", "nightly"] as const;
export type Channel = (typeof CHANNELS)[number];
const KINDS = ["flow", "mcp", "okf", "skill", "tool", "ui"];
/** Catalog edge rule (§4.1): which kinds a surface of each kind may require. */
const ALLOWED_EDGES: Record<string, readonly string[]> = {
  flow: ["tool", "mcp", "okf"],
  skill: ["flow", "tool", "mcp", "okf"],
  ui: ["flow", "skill", "tool", "mcp"],
  tool: [],
  mcp: [],
  okf: [],
};

export interface CatalogDependency {
  packageId: string;
  versionRequirement: string;
}

/** A record that passed the checks, with parsed views beside the raw JSON (which is what is hashed). */
export interface VerifiedRecord {
  /** `{record, provenance}` exactly as read. */
  raw: { record: CJson; provenance: CJson };
  packageId: string;
  version: Version;
  versionText: string;
  channel: Channel;
  target: string;
  requiresUse: VersionReq;
  dependencies: { packageId: string; versionRequirement: string; req: VersionReq }[];
  withdrawn: boolean;
  registry: { name: string; url: string; rootSha256: string };
  catalogRecordDigest: string;
  /** Canonical digest of `{record, provenance}`. */
  verifiedDigest: string;
}

export interface Host {
  target: string;
  useVersion: string;
}

type Obj = Record<string, CJson>;
const isObj = (v: CJson | undefined): v is Obj =>
  typeof v === "object" && v !== null && !Array.isArray(v) && typeof v !== "bigint";
const isPosInt = (v: CJson | undefined) =>
  (typeof v === "number" && Number.isInteger(v) && v > 0) || (typeof v === "bigint" && v > 0n);
const isNonNegInt = (v: CJson | undefined) =>
  (typeof v === "number" && Number.isInteger(v) && v >= 0) || (typeof v === "bigint" && v >= 0n);

function onlyKeys(o: Obj, allowed: readonly string[], required: readonly string[], where: string, out: string[]): void {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) out.push(`${where} has unknown field '${k}'`);
  for (const k of required) if (!(k in o)) out.push(`${where} is missing field '${k}'`);
}

function sortedUniqueStrings(v: CJson | undefined, where: string, out: string[]): void {
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) {
    out.push(`${where} must be a list of strings`);
    return;
  }
  for (let i = 1; i < v.length; i++)
    if (byteCompare(v[i - 1] as string, v[i] as string) >= 0) out.push(`${where} must be sorted and unique`);
}

export function canonicalVersion(text: string): Version | null {
  const p = parseVersion(text);
  return p.ok && formatVersion(p.value) === text ? p.value : null;
}

export function canonicalReq(text: string): VersionReq | null {
  const p = parseVersionReq(text);
  return p.ok && formatVersionReq(p.value) === text ? p.value : null;
}

export function isValidTarget(t: string): boolean {
  return TARGET.test(t);
}

export function hostProblem(h: Host): string | null {
  if (!isValidTarget(h.target) || h.target === "any")
    return `host target '${h.target}' must match [a-z][a-z0-9_-]{0,63} and not be 'any'`;
  if (canonicalVersion(h.useVersion) === null)
    return `host useVersion '${h.useVersion}' must be a canonical semantic version`;
  return null;
}

function isRegistryUrl(u: string): boolean {
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    return false;
  }
  if (url.username !== "" || url.password !== "") return false;
  if (url.protocol === "https:") return url.hostname !== "";
  return (
    url.protocol === "http:" &&
    (url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]")
  );
}

const RECORD_FIELDS = [
  "schema",
  "packageId",
  "displayName",
  "description",
  "publisher",
  "keywords",
  "categories",
  "version",
  "channel",
  "requiresUse",
  "dependencies",
  "target",
  "surfaces",
  "permissionCeiling",
  "permissionCeilingDigest",
  "planning",
  "archive",
  "package",
  "license",
  "repository",
  "availability",
];
const OPTIONAL_RECORD_FIELDS = ["dependencies", "planning"];
const SURFACE_FIELDS = ["kind", "id", "optional", "workload", "mcpTransport", "mcpToolCount", "okfBundle", "requires"];
const PROVENANCE_FIELDS = [
  "registryName",
  "registryUrl",
  "rootSha256",
  "rootVersion",
  "timestampVersion",
  "snapshotVersion",
  "targetsVersion",
  "catalogRecordDigest",
];

/** Problems of one catalog-v3 record (empty when valid). */
export function recordProblems(record: CJson): string[] {
  const out: string[] = [];
  if (!isObj(record)) return ["the catalog record must be a JSON object"];
  onlyKeys(
    record,
    RECORD_FIELDS,
    RECORD_FIELDS.filter((f) => !OPTIONAL_RECORD_FIELDS.includes(f)),
    "record",
    out,
  );
  if (record["schema"] !== CATALOG_SCHEMA) out.push(`record schema must be '${CATALOG_SCHEMA}'`);
  const id = record["packageId"];
  if (typeof id !== "string" || !isPackageId(id, true))
    out.push(`record packageId ${JSON.stringify(id)} is not a package ID`);
  for (const f of ["displayName", "description", "publisher", "license", "repository"]) {
    if (typeof record[f] !== "string" || record[f] === "") out.push(`record ${f} must be a non-empty string`);
  }
  sortedUniqueStrings(record["keywords"], "record keywords", out);
  sortedUniqueStrings(record["categories"], "record categories", out);
  if (typeof record["version"] !== "string" || canonicalVersion(record["version"]) === null)
    out.push(`record version ${JSON.stringify(record["version"])} is not a canonical semantic version`);
  if (!CHANNELS.includes(record["channel"] as Channel)) out.push("record channel must be stable, beta or nightly");
  if (typeof record["requiresUse"] !== "string" || !parseVersionReq(record["requiresUse"]).ok)
    out.push("record requiresUse is not a semantic-version requirement");
  if (typeof record["target"] !== "string" || !isValidTarget(record["target"]))
    out.push("record target must be 'any' or match [a-z][a-z0-9_-]{0,63}");
  const deps = record["dependencies"];
  if (deps !== undefined) {
    if (!Array.isArray(deps) || deps.length === 0 || deps.length > 128)
      out.push("record dependencies must be a non-empty list of at most 128 items (omitted when empty)");
    else {
      deps.forEach((d, i) => {
        if (!isObj(d)) return out.push(`record dependencies[${i}] must be an object`);
        onlyKeys(
          d,
          ["packageId", "versionRequirement"],
          ["packageId", "versionRequirement"],
          `record dependencies[${i}]`,
          out,
        );
        if (typeof d["packageId"] !== "string" || !isPackageId(d["packageId"], true))
          out.push(`record dependencies[${i}].packageId is not a package ID`);
        else if (d["packageId"] === id) out.push("a cognitive package cannot depend on itself");
        const r = d["versionRequirement"];
        if (typeof r !== "string" || r === "" || new TextEncoder().encode(r).length > 256 || canonicalReq(r) === null) {
          out.push(
            `record dependencies[${i}].versionRequirement ${JSON.stringify(r)} is not a canonical semantic-version requirement`,
          );
        }
        if (i > 0) {
          const prev = deps[i - 1];
          if (
            isObj(prev) &&
            typeof prev["packageId"] === "string" &&
            typeof d["packageId"] === "string" &&
            byteCompare(prev["packageId"], d["packageId"]) >= 0
          ) {
            out.push("record dependencies must be sorted and unique by package ID");
          }
        }
      });
    }
  }
  const surfaces = record["surfaces"];
  let hasRuntime = false;
  if (!Array.isArray(surfaces) || surfaces.length === 0) out.push("record surfaces must be a non-empty list");
  else {
    const keyOf = (s: CJson) => (isObj(s) ? `${String(s["kind"])}\u0000${String(s["id"])}` : "");
    surfaces.forEach((s, i) => {
      if (!isObj(s)) return out.push(`record surfaces[${i}] must be an object`);
      onlyKeys(s, SURFACE_FIELDS, ["kind", "id", "optional"], `record surfaces[${i}]`, out);
      const kind = s["kind"];
      if (typeof kind !== "string" || !KINDS.includes(kind)) out.push(`record surfaces[${i}].kind is unknown`);
      if (kind === "tool" || kind === "mcp") hasRuntime = true;
      if (typeof s["id"] !== "string" || !isCoreSegment(s["id"]))
        out.push(`record surfaces[${i}].id is not a surface ID`);
      if (typeof s["optional"] !== "boolean") out.push(`record surfaces[${i}].optional must be a boolean`);
      const req = s["requires"];
      if (req !== undefined) {
        if (!Array.isArray(req)) out.push(`record surfaces[${i}].requires must be a list`);
        else {
          req.forEach((r, j) => {
            if (!isObj(r) || typeof r["kind"] !== "string" || typeof r["id"] !== "string" || !isSegment(r["id"]))
              return out.push(`record surfaces[${i}].requires[${j}] is not a surface reference`);
            if (!(ALLOWED_EDGES[kind as string] ?? []).includes(r["kind"]))
              out.push(`record surface ${String(kind)} '${String(s["id"])}' may not require a ${r["kind"]} surface`);
            if (j > 0 && byteCompare(keyOf(req[j - 1]!), keyOf(r)) >= 0)
              out.push(`record surfaces[${i}].requires must be sorted and unique`);
          });
        }
      }
      if (i > 0 && byteCompare(keyOf(surfaces[i - 1]!), keyOf(s)) >= 0)
        out.push("record surfaces must be sorted and unique by (kind, id)");
    });
  }
  if (hasRuntime !== (record["planning"] !== undefined))
    out.push("record planning must be present exactly when Tool or MCP surfaces exist");
  const ceiling = record["permissionCeiling"];
  if (!isObj(ceiling)) out.push("record permissionCeiling must be an object");
  else if (record["permissionCeilingDigest"] !== safeDigest(ceiling))
    out.push("record permissionCeilingDigest does not bind permissionCeiling");
  const archive = record["archive"];
  if (!isObj(archive)) out.push("record archive must be an object");
  else {
    onlyKeys(archive, ["targetName", "length", "sha256"], ["targetName", "length", "sha256"], "record archive", out);
    if (
      typeof archive["targetName"] !== "string" ||
      !isPosInt(archive["length"]) ||
      typeof archive["sha256"] !== "string" ||
      !SHA256.test(archive["sha256"])
    )
      out.push("record archive is malformed");
  }
  const pkg = record["package"];
  if (!isObj(pkg)) out.push("record package must be an object");
  else {
    onlyKeys(
      pkg,
      ["expandedBytes", "fileCount", "sha256", "manifestSha256"],
      ["expandedBytes", "fileCount", "sha256", "manifestSha256"],
      "record package",
      out,
    );
    if (
      !isNonNegInt(pkg["expandedBytes"]) ||
      !isPosInt(pkg["fileCount"]) ||
      !SHA256.test(String(pkg["sha256"])) ||
      !SHA256.test(String(pkg["manifestSha256"]))
    )
      out.push("record package evidence is malformed");
  }
  const av = record["availability"];
  if (!isObj(av) || !["available", "deprecated", "withdrawn"].includes(av["state"] as string))
    out.push("record availability.state must be available, deprecated or withdrawn");
  return out;
}

function safeDigest(v: CJson): string | null {
  try {
    return canonicalDigest(v);
  } catch {
    return null;
  }
}

export function provenanceProblems(provenance: CJson, record: CJson): string[] {
  const out: string[] = [];
  if (!isObj(provenance)) return ["the provenance must be a JSON object"];
  onlyKeys(provenance, PROVENANCE_FIELDS, PROVENANCE_FIELDS, "provenance", out);
  if (typeof provenance["registryName"] !== "string" || !isCoreSegment(provenance["registryName"]))
    out.push("provenance registryName must be a segment");
  if (typeof provenance["registryUrl"] !== "string" || !isRegistryUrl(provenance["registryUrl"]))
    out.push("provenance registryUrl must be HTTPS (or HTTP on loopback) without credentials");
  if (typeof provenance["rootSha256"] !== "string" || !SHA256.test(provenance["rootSha256"]))
    out.push("provenance rootSha256 must be sha256:<64 hex>");
  for (const f of ["rootVersion", "timestampVersion", "snapshotVersion", "targetsVersion"])
    if (!isPosInt(provenance[f])) out.push(`provenance ${f} must be a positive integer`);
  if (provenance["catalogRecordDigest"] !== safeDigest(record))
    out.push("provenance catalogRecordDigest does not equal the canonical digest of the record");
  return out;
}

/** Validate a `{record, provenance}` pair; returns the parsed view or the problems. */
export function readVerifiedRecord(v: CJson): { ok: true; value: VerifiedRecord } | { ok: false; problems: string[] } {
  if (!isObj(v)) return { ok: false, problems: ["a verified catalog record must be an object {record, provenance}"] };
  const problems: string[] = [];
  onlyKeys(v, ["record", "provenance"], ["record", "provenance"], "verified record", problems);
  const record = v["record"] ?? null;
  const provenance = v["provenance"] ?? null;
  for (const p of recordProblems(record)) problems.push(p);
  for (const p of provenanceProblems(provenance, record)) problems.push(p);
  if (problems.length > 0) return { ok: false, problems };
  const r = record as Obj;
  const p = provenance as Obj;
  const deps = ((r["dependencies"] ?? []) as Obj[]).map((d) => ({
    packageId: d["packageId"] as string,
    versionRequirement: d["versionRequirement"] as string,
    req: canonicalReq(d["versionRequirement"] as string)!,
  }));
  return {
    ok: true,
    value: {
      raw: { record, provenance },
      packageId: r["packageId"] as string,
      version: canonicalVersion(r["version"] as string)!,
      versionText: r["version"] as string,
      channel: r["channel"] as Channel,
      target: r["target"] as string,
      requiresUse: (parseVersionReq(r["requiresUse"] as string) as { ok: true; value: VersionReq }).value,
      dependencies: deps,
      withdrawn: (r["availability"] as Obj)["state"] === "withdrawn",
      registry: {
        name: p["registryName"] as string,
        url: p["registryUrl"] as string,
        rootSha256: p["rootSha256"] as string,
      },
      catalogRecordDigest: p["catalogRecordDigest"] as string,
      verifiedDigest: canonicalDigest({ record, provenance }),
    },
  };
}

export const CHANNEL_RANK: Record<Channel, number> = { stable: 0, beta: 1, nightly: 2 };
