/**
 * Checking a HARP package directory: read harp.json with containment, validate it (validate.ts),
 * then the rules that need the package's files — argv[0] executables and path arguments exist
 * inside the package and do not escape through links (§7.5.2, §17), `start.platforms` selection
 * for a given platform (§7.5.3), entrypoints.openapi, and the package tree itself.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { CheckResult } from "../diagnostics/result.js";
import { resolveContainedFile } from "../fs/contained.js";
import { FsError, type PackageFs } from "../fs/package-fs.js";
import { joinPath } from "../fs/paths.js";
import { UNDECODABLE_NAME_HINT } from "../fs/names.js";
import { packageView, snapshotOf, type PackageSnapshot } from "../fs/snapshot.js";
import { diagnostic } from "./codes.js";
import { isObject } from "./validate.js";
import { parseHarpJson } from "./json.js";
import { isRuntimeName, selectArgv, type HarpManifest, type Platform } from "./manifest.js";
import { walkPackage, treeDigest, type PackageTree } from "./tree.js";
import { argPathProblem, argRelativePaths } from "./path-scan.js";
import { maskSecretValues } from "./redact.js";
import { MANIFEST_FILE, type ManifestReporter, stripDotSlash, validateManifestText } from "./validate.js";

export const MAX_MANIFEST_BYTES = 1024 * 1024;

export interface CheckOptions {
  /** Platform triple to check `start.platforms` against; omitted → no platform check (browser). */
  readonly platform?: Platform | null;
  /** Compute the content digest (reads every file); default true. */
  readonly digest?: boolean;
}

export interface HarpCheck {
  readonly result: CheckResult;
  /** The validated manifest, when the package is valid. */
  readonly manifest: HarpManifest | null;
  /** Canonical package root, when it could be resolved. */
  readonly realRoot: string | null;
  readonly tree: PackageTree | null;
  /** The snapshot the package was checked from (when read from disk): `harp install` writes the bundle from it. */
  readonly snapshot: PackageSnapshot | null;
}

/**
 * True when `path` is a directory whose harp.json is a HARP manifest (or an attempt at one).
 * harp.json is also the Harp static-site generator's config (`{"globals": …}`), so the name alone
 * is not enough: the object must carry `schemaVersion`, or HARP's own required members.
 */
export async function detectHarp(fs: PackageFs, path: string): Promise<boolean> {
  try {
    const st = await fs.stat(path);
    if (st === null || st.kind !== "directory") return false;
    const root = await fs.realpath(path);
    const res = await resolveContainedFile(fs, root, MANIFEST_FILE);
    if (!res.ok || res.stat.size > MAX_MANIFEST_BYTES) return false;
    const parsed = parseHarpJson(
      new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(
        await fs.readFile(res.realPath, MAX_MANIFEST_BYTES),
      ),
    );
    if (!parsed.ok) return true; // a broken harp.json next to nothing else is most likely a HARP attempt
    const v = parsed.json.value;
    if (!isObject(v)) return false;
    if ("schemaVersion" in v) return true;
    return "runtime" in v && "start" in v;
  } catch {
    return false;
  }
}

export async function checkHarp(fs: PackageFs, path: string, opts: CheckOptions = {}): Promise<CheckResult> {
  return (await checkHarpPackage(fs, path, opts)).result;
}

export async function checkHarpPackage(diskFs: PackageFs, path: string, opts: CheckOptions = {}): Promise<HarpCheck> {
  // One read: the manifest, the file rules, the digest and the installed bundle all come from this snapshot.
  const fs = await packageView(diskFs, path, { fileLimits: new Map([[MANIFEST_FILE, MAX_MANIFEST_BYTES]]) });
  const snapshot = snapshotOf(fs);
  const sources = new Map<string, string>();
  // Diagnostics name files as the user named the package, so editors and code frames can find them.
  const display = path.length > 1 ? path.replace(/\/+$/, "") : path;
  const manifestFile = `${display}/${MANIFEST_FILE}`;
  const fail = (ds: Diagnostic[], realRoot: string | null = null): HarpCheck => ({
    result: { path, kind: "harp", valid: false, identity: null, diagnostics: ds, sources },
    manifest: null,
    realRoot,
    tree: null,
    snapshot,
  });

  // A package the snapshot refused as a whole (over a limit by its metadata, or unreadable): say so,
  // rather than let the refusal read as a missing directory.
  if (snapshot?.failure != null && snapshot.rootState === "present")
    return fail([
      diagnostic("harp.manifest_unreadable", `${display}: ${snapshot.failure.message}`, { file: manifestFile }),
    ]);
  const st = await fs.stat(path).catch(() => null);
  if (st === null) return fail([diagnostic("harp.not_a_directory", `${path} does not exist`, { file: path })]);
  if (st.kind !== "directory") {
    return fail([
      diagnostic(
        "harp.not_a_directory",
        `${path} is not a directory; a HARP package is a directory with harp.json at its root`,
        { file: path, hint: "Give the path of the package directory (the one holding harp.json)." },
      ),
    ]);
  }
  let realRoot: string;
  try {
    realRoot = await fs.realpath(path);
  } catch (e) {
    return fail([
      diagnostic("harp.not_a_directory", `${path}: ${e instanceof Error ? e.message : String(e)}`, {
        file: path,
      }),
    ]);
  }

  const res = await resolveContainedFile(fs, realRoot, MANIFEST_FILE);
  if (!res.ok) {
    if (res.reason === "not_found") {
      return fail(
        [
          diagnostic("harp.manifest_missing", `the package has no ${MANIFEST_FILE} at its root`, {
            file: path,
            hint: "Every HARP package has exactly one harp.json at its root (HARP §7.1).",
          }),
        ],
        realRoot,
      );
    }
    const why = res.reason === "escape" ? "is a link that leaves the package" : res.detail;
    return fail([diagnostic("harp.manifest_unreadable", `${MANIFEST_FILE}: ${why}`, { file: manifestFile })], realRoot);
  }
  if (res.stat.size > MAX_MANIFEST_BYTES) {
    return fail(
      [
        diagnostic(
          "harp.manifest_too_large",
          `${MANIFEST_FILE} has ${res.stat.size} bytes; the limit is ${MAX_MANIFEST_BYTES}`,
          { file: manifestFile },
        ),
      ],
      realRoot,
    );
  }
  let text: string;
  try {
    const bytes = await fs.readFile(res.realPath, MAX_MANIFEST_BYTES);
    // ignoreBOM keeps a leading U+FEFF in the text so the strict parser can reject it (docs/harp.md);
    // by default TextDecoder drops it silently and a BOM-prefixed harp.json validated.
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (e) {
    const code =
      e instanceof FsError && e.code === "too_large"
        ? "harp.manifest_too_large"
        : e instanceof FsError
          ? "harp.manifest_unreadable"
          : "harp.json_syntax";
    const msg = e instanceof FsError ? e.message : `${MANIFEST_FILE} is not valid UTF-8`;
    return fail([diagnostic(code, msg, { file: manifestFile })], realRoot);
  }
  sources.set(manifestFile, text);

  const v = validateManifestText(text, MANIFEST_FILE);
  // The package rules report into the manifest's collector, so one cap covers the whole check.
  const r = v.reporter;
  // Code frames are drawn from this text: the flagged secrets in it are masked (HARP §9.4).
  sources.set(manifestFile, maskSecretValues(text, r.secretValues));

  let tree: PackageTree | null = null;
  if (v.manifest !== null) {
    await checkFiles(fs, realRoot, v.manifest, r, opts);
    tree = await walkPackage(fs, realRoot, { hash: opts.digest ?? true });
    for (const p of tree.problems) {
      r.emit(p.code ?? "harp.package_file_rejected", `${p.path}: ${p.reason}`, {
        file: `${display}/${p.path}`,
        hint:
          p.code === "harp.non_utf8_name"
            ? UNDECODABLE_NAME_HINT
            : "Remove the entry; a host copies only regular files, directories and links that stay inside the package.",
      });
    }
  }
  const valid = v.manifest !== null && !r.hasErrors();
  const manifest = valid ? v.manifest : null;
  const identity = valid && tree !== null && (opts.digest ?? true) ? treeDigest(tree) : null;
  const extra: Record<string, unknown> = {};
  if (manifest !== null) {
    extra["id"] = manifest.id;
    extra["version"] = manifest.version;
    extra["name"] = manifest.name;
  }
  return {
    result: {
      path,
      kind: "harp",
      valid,
      identity,
      diagnostics: r.closed().map((d) => (d.file === MANIFEST_FILE ? { ...d, file: manifestFile } : d)),
      extra,
      sources,
    },
    manifest,
    realRoot,
    tree,
    snapshot,
  };
}

async function checkFiles(
  fs: PackageFs,
  realRoot: string,
  m: HarpManifest,
  r: ManifestReporter,
  opts: CheckOptions,
): Promise<void> {
  const argvs: [readonly string[], string][] = [[m.start.argv, "/start/argv"]];
  for (const [k, o] of Object.entries(m.start.platforms ?? {}))
    if (o) argvs.push([o.argv, `/start/platforms/${k}/argv`]);
  for (const [argv, pointer] of argvs) {
    const argv0 = argv[0]!;
    if (!isRuntimeName(argv0)) await checkExecutable(fs, realRoot, argv0, `${pointer}/0`, r);
    for (let i = 1; i < argv.length; i++) await checkArgFile(fs, realRoot, argv[i]!, `${pointer}/${i}`, r);
  }
  if (opts.platform !== undefined && m.start.platforms !== undefined) {
    const sel = selectArgv(m.start, opts.platform);
    if (!sel.ok)
      r.report(
        "harp.platform_unavailable",
        "/start/platforms",
        `/start/platforms: ${sel.reason}; a host on this platform refuses to start it`,
        `Add a "${opts.platform ?? "<platform>"}" entry, or drop "platforms" if the top-level argv runs everywhere.`,
      );
  }
  const openapi = m.entrypoints?.openapi;
  if (openapi !== undefined) {
    const res = await resolveContainedFile(fs, realRoot, stripDotSlash(openapi));
    if (!res.ok && res.reason === "escape")
      r.report(
        "harp.openapi_path_invalid",
        "/entrypoints/openapi",
        `/entrypoints/openapi: ${JSON.stringify(openapi)} resolves outside the package`,
      );
    else if (!res.ok)
      r.report(
        "harp.openapi_missing",
        "/entrypoints/openapi",
        `/entrypoints/openapi: ${JSON.stringify(openapi)} is not a file in the package`,
      );
  }
}

async function checkExecutable(
  fs: PackageFs,
  realRoot: string,
  argv0: string,
  pointer: string,
  r: ManifestReporter,
): Promise<void> {
  const rel = stripDotSlash(argv0);
  if (rel.includes("\\") || rel.split("/").includes("..") || rel.startsWith("/")) return; // already reported lexically
  const res = await resolveContainedFile(fs, realRoot, rel);
  if (res.ok) return;
  switch (res.reason) {
    case "not_found":
      r.report(
        "harp.executable_missing",
        pointer,
        `${pointer}: ${JSON.stringify(argv0)} does not exist in the package`,
        'Bundle the executable at that path, or use a host runtime name such as "node".',
      );
      return;
    case "escape":
      r.report(
        "harp.executable_escapes",
        pointer,
        `${pointer}: ${JSON.stringify(argv0)} is a link that resolves outside the package`,
        "Ship the executable itself inside the package, not a link to it.",
      );
      return;
    case "not_regular_file":
      r.report(
        "harp.executable_not_file",
        pointer,
        `${pointer}: ${JSON.stringify(argv0)} is not a regular file (${res.detail})`,
      );
      return;
    default:
      r.report(
        "harp.executable_missing",
        pointer,
        `${pointer}: ${JSON.stringify(argv0)} cannot be read: ${res.detail}`,
      );
  }
}

/** A relative path argument that exists must not lead out of the package through a link. */
async function checkArgFile(
  fs: PackageFs,
  realRoot: string,
  arg: string,
  pointer: string,
  r: ManifestReporter,
): Promise<void> {
  if (argPathProblem(arg) !== null) return;
  // Every relative path the value carries (`data/x.json`, `--config=conf/a.toml`, `@args.txt`).
  for (const part of argRelativePaths(arg)) {
    const rel = stripDotSlash(part);
    if (rel === "" || rel === ".") continue;
    const abs = joinPath(realRoot, rel);
    const lst = await fs.lstat(abs).catch(() => null);
    if (lst === null) continue;
    let real: string;
    try {
      real = await fs.realpath(abs);
    } catch {
      continue; // Dangling link: nothing to escape to; the app will fail on its own.
    }
    const inside = real === realRoot || real.startsWith(realRoot.endsWith("/") ? realRoot : `${realRoot}/`);
    if (!inside) {
      r.report(
        "harp.argv_path_escapes",
        pointer,
        `${pointer}: ${JSON.stringify(arg)} resolves to ${real}, outside the package`,
        "Path arguments must stay inside the package root.",
      );
      return;
    }
  }
}
