/**
 * A3S frontend entry points: detection and the one-package check behind `yaoc check`.
 */
import { limitDiagnostics, Omitted } from "./diagnostic-limit.js";
import { hasErrors, type Diagnostic } from "../diagnostics/diagnostic.js";
import { diagnostic } from "./codes.js";
import type { CheckResult } from "../diagnostics/result.js";
import { FsError, type PackageFs } from "../fs/package-fs.js";
import { baseName, dirName, joinPath } from "../fs/paths.js";
import { packageView } from "../fs/snapshot.js";
import { ACL_MAX_BYTES } from "./acl/parse.js";
import { rawDigest } from "./package/digest.js";
import { MANIFEST_FILE } from "./manifest/schema.js";
import { checkManifestText, decodeManifest } from "./manifest/check.js";
import { checkOkfBundle } from "./okf/bundle.js";
import { checkPackageFiles, scanPackage } from "./package/files.js";
import { checkReleaseDescriptors } from "./package/release.js";

export { parseAcl } from "./acl/parse.js";
export { checkManifestText } from "./manifest/check.js";
export { validateManifest, surfaceKinds, MANIFEST_FILE, type ExtensionManifest } from "./manifest/schema.js";
export * as semver from "./resolve/semver.js";
export { expandedDigest, rawDigest, PACKAGE_DOMAIN, OKF_DOMAIN } from "./package/digest.js";
export { surfaceGraph, readinessLevels } from "./surfaces/readiness.js";
export { A3S_CODES } from "./codes.js";

/** The package root for `path`: the directory itself, or the directory of a named manifest file. */
async function packageRoot(fs: PackageFs, path: string): Promise<string | null> {
  const st = await fs.stat(path);
  if (st === null) return null;
  if (st.kind === "directory") {
    const m = await fs.lstat(joinPath(path, MANIFEST_FILE));
    return m === null ? null : path;
  }
  return baseName(path) === MANIFEST_FILE ? dirName(path) : null;
}

export async function detectA3s(fs: PackageFs, path: string): Promise<boolean> {
  try {
    return (await packageRoot(fs, path)) !== null;
  } catch {
    return false;
  }
}

export async function checkA3s(diskFs: PackageFs, path: string): Promise<CheckResult> {
  let fs = diskFs;
  const diagnostics: Diagnostic[] = [];
  const omitted = new Omitted();
  const sources = new Map<string, string>();
  const fail = (d: Diagnostic): CheckResult => ({ path, kind: "a3s", valid: false, identity: null, diagnostics: [d] });
  let root: string | null;
  let realRoot: string;
  try {
    root = await packageRoot(fs, path);
    if (root === null)
      return fail(diagnostic("a3s.package.not_found", `no ${MANIFEST_FILE} at '${path}'`, { file: path }));
    // One read: the manifest, the declared files, the OKF bundles and the fingerprint come from this snapshot.
    fs = await packageView(diskFs, root, { fileLimits: new Map([[MANIFEST_FILE, ACL_MAX_BYTES + 4]]) });
    realRoot = await fs.realpath(root);
  } catch (e) {
    return fail(
      diagnostic("a3s.package.io", `cannot open '${path}': ${e instanceof Error ? e.message : String(e)}`, {
        file: path,
      }),
    );
  }

  const manifestFile = joinPath(root, MANIFEST_FILE);
  const manifestStat = await fs.lstat(joinPath(realRoot, MANIFEST_FILE));
  if (manifestStat === null || manifestStat.kind !== "file") {
    return fail(
      diagnostic("a3s.package.declared_file", `${MANIFEST_FILE} must be a regular file`, { file: manifestFile }),
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = await fs.readFile(joinPath(realRoot, MANIFEST_FILE), ACL_MAX_BYTES + 4);
  } catch (e) {
    const why =
      e instanceof FsError && e.code === "too_large"
        ? `is larger than ${ACL_MAX_BYTES} bytes (ACL 0.3 document limit)`
        : `cannot be read: ${e instanceof Error ? e.message : String(e)}`;
    return fail(diagnostic("a3s.acl.too_large", `${MANIFEST_FILE} ${why}`, { file: manifestFile }));
  }
  const manifestDigest = rawDigest(bytes);
  const decoded = decodeManifest(bytes, MANIFEST_FILE);
  let manifest = null;
  if ("diagnostic" in decoded) {
    diagnostics.push(decoded.diagnostic);
  } else {
    sources.set(MANIFEST_FILE, decoded.text);
    const m = checkManifestText(decoded.text, MANIFEST_FILE);
    for (const d of m.diagnostics) diagnostics.push(d);
    omitted.merge(m.omitted);
    manifest = m.manifest;
  }
  // Appended one by one: spreading an unbounded list into push() overflows the call stack (an ACL
  // of 240,000 bad lines has as many diagnostics).
  for (const d of await checkPackageFiles(fs, realRoot, manifest)) diagnostics.push(d);
  if (manifest !== null) for (const d of await checkReleaseDescriptors(fs, realRoot, manifest)) diagnostics.push(d);
  // The manifest's okf blocks against the bundles on disk (reference §5.2 package-time loading).
  const okf: Record<string, unknown> = {};
  for (const o of manifest?.okf ?? []) {
    const r = await checkOkfBundle(fs, joinPath(realRoot, o.bundle.root), o.bundle.limits, o.bundle, o.bundle.root);
    for (const d of r.diagnostics) diagnostics.push(d);
    if (r.inspection !== null)
      okf[o.id] = {
        contentDigest: r.inspection.contentDigest,
        conceptCount: r.inspection.conceptCount,
        fileCount: r.inspection.fileCount,
        expandedBytes: r.inspection.expandedBytes,
      };
  }
  const scan = await scanPackage(fs, realRoot);
  for (const d of scan.diagnostics) diagnostics.push(d);

  const valid = !hasErrors(diagnostics) && omitted.errors === 0;
  // At most A3S_DIAGNOSTIC_LIMIT are reported; the rest only counted (diagnostic-limit.ts).
  const reported = limitDiagnostics(diagnostics, omitted, MANIFEST_FILE);
  const extra: Record<string, unknown> = {
    manifestDigest,
    fingerprint: scan.fingerprint,
    fileCount: scan.files.length,
    byteCount: scan.byteCount,
  };
  if (Object.keys(okf).length > 0) extra["okf"] = okf;
  if (manifest !== null) {
    extra["packageId"] = manifest.packageId;
    extra["version"] = manifest.version;
  }
  extra["verification"] =
    "signatures and TUF metadata are not verified by this check; release descriptors are checked only for size, schema and their bindings to the manifest (timeout_ms, base_path, API contract digest); Tool task and MCP stdio executables must carry an execute permission bit (a3s.package.not_executable)";
  return rebased(
    { path, kind: "a3s", valid, identity: valid ? scan.fingerprint : null, diagnostics: reported, extra, sources },
    root,
  );
}

/**
 * The checks name files relative to the package root (as the A3S reference words them); a result
 * names them as the user would, under the root as given (`pkg/a3s-use-extension.acl`, relative to
 * the working directory when the user gave a relative path), like every other frontend.
 */
function rebased(result: CheckResult, root: string): CheckResult {
  const under = (file: string | undefined): string | undefined =>
    file === undefined || file.startsWith("/") ? file : joinPath(root, file);
  const diagnostics = result.diagnostics.map((d) => {
    const file = under(d.file);
    const related = d.related?.map((r) => (r.file === undefined ? r : { ...r, file: under(r.file)! }));
    return { ...d, ...(file !== undefined ? { file } : {}), ...(related !== undefined ? { related } : {}) };
  });
  const sources = new Map(
    [...(result.sources ?? new Map<string, string>())].map(([f, text]) => [under(f)!, text] as const),
  );
  return { ...result, diagnostics, sources };
}
