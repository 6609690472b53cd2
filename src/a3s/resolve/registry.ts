/**
 * A local registry directory for `yaoc a3s resolve`: every `*.json` file under it (depth ≤ 8,
 * links skipped with a diagnostic) is one verified catalog record `{record, provenance}`.
 * Reading goes through `PackageFs`; results are diagnostics, never exceptions.
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { diagnostic } from "../codes.js";
import type { PackageFs } from "../../fs/package-fs.js";
import { joinPath } from "../../fs/paths.js";
import { readVerifiedRecord, type Host, type VerifiedRecord } from "./verified-record.js";
import { CJsonError, parseStrictJson, type CJson } from "../package/cjson.js";
import { verifyLock, LOCK_REFERENCE_CODE, type LockVerification } from "./lock.js";
import { byteCompare } from "../manifest/schema.js";
import { referenceMessage } from "../messages.js";
import {
  buildLock,
  compareCandidates,
  hostCompatible,
  MAX_CANDIDATES,
  resolve,
  lockDigest,
  type PluginPackageLock,
  type ResolutionFailure,
} from "./resolver.js";
import { parseVersion, compareVersions } from "./semver.js";

const MAX_RECORD_BYTES = 4 * 1024 * 1024;
const MAX_LOCK_BYTES = 64 * 1024 * 1024;
const MAX_DEPTH = 8;

export interface LoadedRecord {
  file: string;
  record: VerifiedRecord;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

export async function readJsonFile(
  fs: PackageFs,
  path: string,
  maxBytes: number,
): Promise<{ value: CJson } | { error: string }> {
  try {
    const text = decoder.decode(await fs.readFile(path, maxBytes));
    return { value: parseStrictJson(text) };
  } catch (e) {
    return { error: e instanceof CJsonError || e instanceof Error ? e.message : String(e) };
  }
}

export async function loadRegistry(
  fs: PackageFs,
  dir: string,
): Promise<{ records: LoadedRecord[]; diagnostics: Diagnostic[] }> {
  const records: LoadedRecord[] = [];
  const diagnostics: Diagnostic[] = [];
  const stack: { rel: string; depth: number }[] = [{ rel: "", depth: 0 }];
  while (stack.length > 0) {
    const { rel, depth } = stack.pop()!;
    let names: string[];
    try {
      names = (await fs.readdir(rel === "" ? dir : joinPath(dir, rel))).sort(byteCompare);
    } catch (e) {
      diagnostics.push(
        diagnostic(
          "a3s.resolve.io",
          `cannot list registry directory '${rel || dir}': ${e instanceof Error ? e.message : String(e)}`,
          { file: rel || dir },
        ),
      );
      continue;
    }
    for (const name of names) {
      const childRel = rel === "" ? name : `${rel}/${name}`;
      const st = await fs.lstat(joinPath(dir, childRel));
      if (st === null) continue;
      if (st.kind === "directory") {
        if (depth < MAX_DEPTH) stack.push({ rel: childRel, depth: depth + 1 });
      } else if (st.kind === "file" && name.endsWith(".json")) {
        if (records.length >= MAX_CANDIDATES) {
          diagnostics.push(
            diagnostic(
              "a3s.resolve.limit",
              referenceMessage(
                "use.plugin.package_resolution_limit",
                `The registry holds more than ${MAX_CANDIDATES} candidate records.`,
              ),
              { file: childRel },
            ),
          );
          return { records, diagnostics };
        }
        const j = await readJsonFile(fs, joinPath(dir, childRel), MAX_RECORD_BYTES);
        if ("error" in j) {
          diagnostics.push(
            diagnostic(
              "a3s.resolve.record_invalid",
              `registry file is not a canonical-JSON-compatible document: ${j.error}`,
              { file: childRel },
            ),
          );
          continue;
        }
        const r = readVerifiedRecord(j.value);
        if (!r.ok)
          for (const p of r.problems)
            diagnostics.push(
              diagnostic("a3s.resolve.record_invalid", `invalid verified catalog record: ${p}`, { file: childRel }),
            );
        else records.push({ file: childRel, record: r.value });
      } else if (st.kind === "symlink") {
        diagnostics.push(
          diagnostic("a3s.resolve.record_invalid", "registry entries must not be links; skipped", {
            file: childRel,
            downgraded: true,
          }),
        );
      }
    }
  }
  return { records, diagnostics };
}

export function failureDiagnostic(f: ResolutionFailure): Diagnostic {
  return diagnostic(`a3s.resolve.${f.kind}`, referenceMessage(f.referenceCode, f.message));
}

/** Pick the root among registry records: `id` or `id@version`, best compatible candidate first. */
export function pickRoot(
  records: readonly VerifiedRecord[],
  spec: string,
  host: Host,
): VerifiedRecord | ResolutionFailure {
  const at = spec.indexOf("@");
  const id = at < 0 ? spec : spec.slice(0, at);
  const want = at < 0 ? null : parseVersion(spec.slice(at + 1));
  const all = records.filter(
    (r) => r.packageId === id && (want === null || (want.ok && compareVersions(r.version, want.value) === 0)),
  );
  if (all.length === 0)
    return {
      kind: "missing",
      packageId: id,
      referenceCode: "use.plugin.package_dependency_missing",
      message: `No verified candidate exists for required cognitive package '${id}'.`,
    };
  const usable = all.filter((r) => !r.withdrawn && hostCompatible(r, host)).sort(compareCandidates);
  return usable[0] ?? all.sort(compareCandidates)[0]!;
}

export interface ResolveOutcome {
  diagnostics: Diagnostic[];
  lock: PluginPackageLock | null;
  digest: string | null;
  verification: LockVerification | null;
}

/** Load the registry, pick the root, resolve, freeze the lock and re-verify it. */
export async function resolveFromRegistry(
  fs: PackageFs,
  registryDir: string,
  rootSpec: string,
  host: Host,
): Promise<ResolveOutcome> {
  const reg = await loadRegistry(fs, registryDir);
  const diagnostics = [...reg.diagnostics];
  if (diagnostics.some((d) => d.severity === "error")) {
    diagnostics.push(
      diagnostic(
        "a3s.resolve.invalid",
        referenceMessage(
          "use.plugin.package_resolution_invalid",
          "Every candidate must be a valid verified catalog-v3 record; resolution was not attempted.",
        ),
      ),
    );
    return { diagnostics, lock: null, digest: null, verification: null };
  }
  const recs = reg.records.map((r) => r.record);
  const root = pickRoot(recs, rootSpec, host);
  if ("kind" in root)
    return { diagnostics: [...diagnostics, failureDiagnostic(root)], lock: null, digest: null, verification: null };
  const r = resolve(
    host,
    root,
    recs.filter((c) => c !== root),
  );
  if (!("ok" in r))
    return { diagnostics: [...diagnostics, failureDiagnostic(r)], lock: null, digest: null, verification: null };
  const lock = buildLock(host, root.packageId, r.selected);
  const verification = verifyLock(JSON.parse(JSON.stringify(lock)) as CJson);
  for (const p of verification.problems) diagnostics.push(lockProblemDiagnostic(p.rule, p.message));
  return { diagnostics, lock, digest: lockDigest(lock), verification };
}

export function lockProblemDiagnostic(rule: number, message: string, file?: string): Diagnostic {
  return diagnostic("a3s.lock.invalid", referenceMessage(LOCK_REFERENCE_CODE, `rule ${rule}: ${message}`), { file });
}

export async function verifyLockFile(
  fs: PackageFs,
  path: string,
): Promise<{ diagnostics: Diagnostic[]; verification: LockVerification | null }> {
  const j = await readJsonFile(fs, path, MAX_LOCK_BYTES);
  if ("error" in j)
    return {
      diagnostics: [diagnostic("a3s.lock.parse", `cannot read lock: ${j.error}`, { file: path })],
      verification: null,
    };
  const verification = verifyLock(j.value);
  return {
    diagnostics: verification.problems.map((p) => lockProblemDiagnostic(p.rule, p.message, path)),
    verification,
  };
}
