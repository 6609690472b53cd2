/**
 * The one way to check a package: what `yaoc check` runs, for every package kind, as a library
 * call. Detection (./frontends.ts), the structural load, the full module analysis (the same
 * `packageAnalysis` the command line uses), identity, and optionally the evidence receipt — so a
 * runtime embedding yaoc admits exactly what the command line admits.
 *
 * Browser-safe: all file access goes through `PackageFs` (`NodeFs` from "yaoc/node", `MemoryFs`).
 */
import { diagnostic } from "./codes.js";
import type { CheckResult } from "../diagnostics/result.js";
import { MemoryFs } from "../fs/memory-fs.js";
import { FsError, type PackageFs } from "../fs/package-fs.js";
import { baseName, extensionOf } from "../fs/paths.js";
import { checkHns, type PackageAnalyzer } from "../hns/check.js";
import { hnsAnalyzer } from "./analyzer.js";
import { MARKER_DESCRIPTION, routeDirectory, routeFile } from "./frontends.js";

export interface CheckOptions {
  /** HNS: run the module analysis (types, effects, program hash). Default true, as `yaoc check`. */
  readonly analyze?: boolean;
  /** Treat warnings as errors (`yaoc check --strict`). Default false. */
  readonly strict?: boolean;
  /** HNS: a different module analyzer (default: the one `yaoc check` runs). */
  readonly analyzer?: PackageAnalyzer;
}

/** A check result plus whether the failure was an I/O problem (a missing path: exit 2, not 1). */
export type PackageCheckResult = CheckResult & { readonly ioError: boolean };

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
  const asHns = async (): Promise<PackageCheckResult> => {
    const analyzer = options.analyze === false ? undefined : (options.analyzer ?? hnsAnalyzer);
    const { package: _package, ...result } = await checkHns(fs, path, { analyzer });
    return result;
  };
  if (extensionOf(path) === "hns") return asHns();
  const st = await fs.stat(path).catch(() => null);
  if (st === null) {
    if ((await fs.lstat(path).catch(() => null)) !== null) return brokenLink(path, await isLinkLoop(fs, path));
    return notFound(path);
  }
  if (st.kind === "directory") {
    const route = await routeDirectory(fs, path);
    if (route.kind === "frontend") return { ...(await (await route.frontend.load()).check(fs, path)), ioError: false };
    if (route.kind === "none") return noMarker(path);
    return asHns(); // a misnamed HNS directory package: the loader explains the suffix rule
  }
  const module = await routeFile(fs, path);
  if (module !== undefined) return { ...(await module.check(fs, path)), ioError: false };
  // A file of no recognised kind: the HNS loader explains what an HNS package must look like.
  return asHns();
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
