/**
 * The one way to check a package: what `yaoc check` runs, for every package kind, as a library
 * call, and what every command, the catalog and the language server call. Detection and the
 * frontend table (./frontends.ts), the structural load, the full module analysis (./hns.ts),
 * identity — so a runtime embedding yaoc admits exactly what the command line admits.
 *
 * Browser-safe: all file access goes through `PackageFs` (`NodeFs` from "yaoc/node", `MemoryFs`).
 */
import { diagnostic } from "./codes.js";
import { orderDiagnostics } from "../diagnostics/order.js";
import type { CheckResult } from "../diagnostics/result.js";
import { MemoryFs } from "../fs/memory-fs.js";
import { FsError, type PackageFs } from "../fs/package-fs.js";
import { baseName } from "../fs/paths.js";
import type { HnsCheck } from "./hns-result.js";

export type { LoadResult } from "./hns.js";
import {
  FALLBACK_FRONTEND,
  FRONTENDS,
  MARKER_DESCRIPTION,
  routeByExtension,
  routeDirectory,
  routeFile,
  type Frontend,
  type FrontendKind,
  type FrontendOptions,
} from "./frontends.js";

export interface CheckOptions extends FrontendOptions {
  /** Treat warnings as errors (`yaoc check --strict`). Default false. */
  readonly strict?: boolean;
  /**
   * Check the path as this kind, without detection: a frontend's own command (`yaoc harp validate
   * DIR`) has its frontend say what is missing, where detection would find no marker.
   */
  readonly kind?: FrontendKind;
  /**
   * HNS: keep the stages' own results in the result — the loaded package and its module analysis
   * (an editor's features read them), the loader's result and, for purpose "program", the profile.
   * Default false, so a run over many packages holds no package's typed IR.
   */
  readonly keepAnalysis?: boolean;
}

/**
 * A check result plus whether the failure was an I/O problem (a missing path: exit 2, not 1). The
 * HNS row's own fields (`package`, `analysis`, `loaded` with `keepAnalysis`; `profile` and
 * `profileErrors` for purpose "program") are its result type's, ./hns-result.ts; other kinds leave
 * them out.
 */
export type PackageCheckResult = HnsCheck;

/** Check the package at `path` exactly as `yaoc check` does. Never throws for bad input. */
export async function check(fs: PackageFs, path: string, options: CheckOptions = {}): Promise<PackageCheckResult> {
  const result = await checkUnstrict(fs, path, options);
  return options.strict === true ? { ...strictResult(result), ioError: result.ioError } : result;
}

/**
 * Check one file held in memory (an editor buffer, a playground): `name` is its file name, e.g.
 * `demo.hns`; the result names the file as given.
 */
export async function checkSource(name: string, text: string, options: CheckOptions = {}): Promise<PackageCheckResult> {
  return check(MemoryFs.from({ [name]: text }), name, options);
}

async function checkUnstrict(fs: PackageFs, path: string, options: CheckOptions): Promise<PackageCheckResult> {
  const frontend = options.kind === undefined ? await route(fs, path) : FRONTENDS[options.kind];
  if (!("load" in frontend)) return frontend;
  const {
    ioError,
    package: pkg,
    analysis,
    loaded,
    profile,
    ...result
  } = await (await frontend.load()).check(fs, path, options);
  const keep = options.keepAnalysis === true;
  return {
    ...result,
    // Every kind's findings in the one display order (file, position, code; closing notes last).
    diagnostics: orderDiagnostics(result.diagnostics),
    ioError: ioError ?? false,
    ...(keep && pkg !== undefined ? { package: pkg } : {}),
    ...(keep && analysis !== undefined ? { analysis } : {}),
    ...(keep && loaded !== undefined ? { loaded } : {}),
    ...(keep && profile !== undefined ? { profile } : {}),
  };
}

/** The frontend `path` belongs to, or the result when it belongs to none (missing, a broken link, no marker). */
async function route(fs: PackageFs, path: string): Promise<Frontend | PackageCheckResult> {
  const byExtension = routeByExtension(path);
  if (byExtension !== undefined) return byExtension;
  const st = await fs.stat(path).catch(() => null);
  if (st === null) {
    if ((await fs.lstat(path).catch(() => null)) !== null) return brokenLink(path, await isLinkLoop(fs, path));
    return notFound(path);
  }
  if (st.kind === "directory") return (await routeDirectory(fs, path)) ?? noMarker(path);
  return (await routeFile(fs, path)) ?? FALLBACK_FRONTEND;
}

function invalid(path: string, d: ReturnType<typeof diagnostic>, ioError: boolean): PackageCheckResult {
  return { path, kind: "unknown", valid: false, identity: null, diagnostics: [d], ioError };
}

function notFound(path: string): PackageCheckResult {
  return invalid(
    path,
    diagnostic("cli.not_found", `${path} does not exist`, { file: path, hint: "check the path" }),
    true,
  );
}

/** Whether resolving `path` fails because its links loop (rather than pointing at nothing). */
async function isLinkLoop(fs: PackageFs, path: string): Promise<boolean> {
  try {
    await fs.realpath(path);
    return false;
  } catch (e) {
    return e instanceof FsError && e.code === "loop";
  }
}

function brokenLink(path: string, loop: boolean): PackageCheckResult {
  const why = loop ? "a loop of symbolic links" : "a dangling symbolic link (its target does not exist)";
  const d = diagnostic("check.broken_link", `${path} does not resolve: it is ${why}`, {
    file: path,
    hint: "point the link at the package, or use the package path itself",
  });
  // A path that cannot be used at all is an I/O error (exit 2) in every command (README "Exit codes").
  return invalid(path, d, true);
}

function noMarker(path: string): PackageCheckResult {
  const d = diagnostic("check.no_marker", `${path} is not a package yaoc knows: looked for ${MARKER_DESCRIPTION}`, {
    file: path,
    hint: `name an HNS package '${baseName(path) || "package"}.hns', or add the marker file of its kind`,
  });
  return invalid(path, d, false);
}

/** Strict mode: every warning becomes an error, so the package is invalid and has no identity. */
export function strictResult(r: CheckResult): CheckResult {
  if (!r.diagnostics.some((d) => d.severity === "warning")) return r;
  return {
    ...r,
    valid: false,
    identity: null,
    diagnostics: r.diagnostics.map((d) => (d.severity === "warning" ? { ...d, severity: "error" as const } : d)),
  };
}
