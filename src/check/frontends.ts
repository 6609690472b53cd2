/**
 * The frontend table: every package kind `check` knows, one row each, and detection — which row a
 * path belongs to. A `.hns` suffix routes to HNS before anything is read. A directory is routed by
 * its marker files alone — by their presence (an `lstat`), never by reading them — so a marker that
 * is unreadable (a FIFO, a link to `/dev/zero`, no permission) or a pack that is incomplete still
 * reaches its own frontend, which then says what is wrong with it. A frontend's module is imported
 * only when its row is routed to, so checking an HNS package never loads HARP's JSON Schema
 * validator, A3S's Markdown and YAML parsers or the HCP linter (start-up time is most of a small
 * check). HNS, the main path, is loaded with the facade.
 */
import type { CheckResult } from "../diagnostics/result.js";
import type { PackageFs } from "../fs/package-fs.js";
import { baseName, dirName, extensionOf, joinPath } from "../fs/paths.js";
import type { Platform } from "../harp/manifest.js";
import { checkHns, type HnsCheck, type HnsCheckOptions } from "./hns.js";

/** What a frontend's check may be asked for, beyond the path: each frontend reads the options it knows. */
export interface FrontendOptions extends HnsCheckOptions {
  /** HARP: the platform triple to check `start.platforms` against; omitted → no platform check. */
  readonly platform?: Platform | null | undefined;
}

/** What a frontend's check returns: the common result, and (HNS) the stages' own results. */
export type FrontendCheck = CheckResult &
  Partial<Pick<HnsCheck, "ioError" | "package" | "analysis" | "loaded" | "profile" | "profileErrors">>;

export interface FrontendModule {
  /** Whether a file named like one of the row's markers really is one (read only then). */
  detect(fs: PackageFs, path: string): Promise<boolean>;
  check(fs: PackageFs, path: string, options: FrontendOptions): Promise<FrontendCheck>;
}

export type FrontendKind = "hns" | "hcp" | "harp" | "a3s";

export interface Frontend {
  readonly kind: FrontendKind;
  /** A path extension (without the dot) that routes to the frontend before anything is read. */
  readonly extension?: string;
  /** File names at the package root (or the path itself) that make the frontend worth asking. */
  readonly markers: readonly string[];
  load(): Promise<FrontendModule>;
}

const hnsModule: FrontendModule = {
  detect: async () => true,
  check: (fs, path, options) => checkHns(fs, path, options),
};

const hns: Frontend = {
  kind: "hns",
  extension: "hns",
  // The file an HNS directory package always has; a directory holding it is a misnamed HNS package.
  markers: ["manifest.yao"],
  load: async () => hnsModule,
};
const hcp: Frontend = {
  kind: "hcp",
  markers: ["surface.json", "policy.json", "HARNESS.md"],
  load: async () => {
    const m = await import("../hcp/index.js");
    return { detect: m.detectHcp, check: (fs, path) => m.checkHcp(fs, path) };
  },
};
const harp: Frontend = {
  kind: "harp",
  markers: ["harp.json"],
  load: async () => {
    const m = await import("../harp/index.js");
    return {
      detect: m.detectHarp,
      check: (fs, path, options) =>
        m.checkHarp(fs, path, options.platform === undefined ? {} : { platform: options.platform }),
    };
  },
};
const a3s: Frontend = {
  kind: "a3s",
  markers: ["a3s-use-extension.acl"],
  load: async () => {
    const m = await import("../a3s/index.js");
    return { detect: m.detectA3s, check: (fs, path) => m.checkA3s(fs, path) };
  },
};

/** Every frontend, by kind. */
export const FRONTENDS: Readonly<Record<FrontendKind, Frontend>> = { hns, hcp, harp, a3s };

/**
 * What a path of no recognised kind is checked as: the HNS loader explains what an HNS package must
 * look like (the suffix rule, the manifest).
 */
export const FALLBACK_FRONTEND: Frontend = hns;

/** The file an HNS directory package always has; a directory holding it is a misnamed HNS package. */
export const HNS_DIRECTORY_MARKER = hns.markers[0]!;

/** What detection looked for, in the words of the "no marker" diagnostic. */
export const MARKER_DESCRIPTION =
  "a `.hns` suffix, `harp.json` (HARP), `surface.json`+`policy.json`+`HARNESS.md` (HCP) or `a3s-use-extension.acl` (A3S)";

/** The frontend a path's extension names, before anything is read (`.hns`). */
export function routeByExtension(path: string): Frontend | undefined {
  const extension = extensionOf(path);
  return Object.values(FRONTENDS).find((f) => f.extension !== undefined && f.extension === extension);
}

/**
 * Route a directory by the markers present in it: a complete HCP pack first (its files are the most
 * specific), then `harp.json`, then the A3S manifest, then a partial HCP pack (so a pack missing
 * `HARNESS.md` is told so by the HCP linter), then a misnamed HNS directory package (whose loader
 * explains the suffix rule); undefined when no marker is present.
 */
export async function routeDirectory(fs: PackageFs, path: string): Promise<Frontend | undefined> {
  const present = async (name: string): Promise<boolean> =>
    (await fs.lstat(joinPath(path, name)).catch(() => null)) !== null;
  const anyPresent = async (f: Frontend): Promise<boolean> => (await Promise.all(f.markers.map(present))).some(Boolean);
  const hcpPresent = await Promise.all(hcp.markers.map(present));
  if (hcpPresent.every(Boolean)) return hcp;
  if (await anyPresent(harp)) return harp;
  if (await anyPresent(a3s)) return a3s;
  if (hcpPresent.some(Boolean)) return hcp;
  if (await anyPresent(hns)) return hns;
  return undefined;
}

/**
 * The package a file of an editor's workspace belongs to, by the table's names alone (nothing is
 * read; only the ancestors' kinds are asked): a marker file of a frontend other than HNS belongs to
 * its directory's package; a path with a row's extension (`pkg.hns`) is that package; a file inside
 * a directory with one (`pkg.hns/functions/f.yao`) belongs to the nearest such directory; anything
 * else to no package (undefined: a lone Yao source). The language server checks `root` through
 * `check`, so the two cannot disagree about which frontend a package is.
 */
export async function packageOfFile(
  fs: PackageFs,
  path: string,
): Promise<{ readonly frontend: Frontend; readonly root: string } | undefined> {
  for (const frontend of [hcp, harp, a3s])
    if (frontend.markers.includes(baseName(path))) return { frontend, root: dirName(path) };
  const own = routeByExtension(path);
  if (own !== undefined) return { frontend: own, root: path };
  for (let dir = dirName(path); dir !== "/" && dir !== "." && dir !== ""; dir = dirName(dir)) {
    const frontend = routeByExtension(dir);
    if (frontend !== undefined && (await fs.stat(dir))?.kind === "directory") return { frontend, root: dir };
    if (dirName(dir) === dir) break;
  }
  return undefined;
}

/** A file named like a marker (e.g. `…/a3s-use-extension.acl`) goes to the frontend that accepts it. */
export async function routeFile(fs: PackageFs, path: string): Promise<Frontend | undefined> {
  for (const frontend of [hcp, harp, a3s]) {
    if (!frontend.markers.includes(baseName(path))) continue;
    if (await (await frontend.load()).detect(fs, path)) return frontend;
  }
  return undefined;
}
