/**
 * Package-kind detection for `check`: which frontend a path belongs to. HNS packages are
 * recognised by their `.hns` suffix before this runs. A directory is routed by its marker files
 * alone — by their presence (an `lstat`), never by reading them — so a marker that is unreadable
 * (a FIFO, a link to `/dev/zero`, no permission) or a pack that is incomplete still reaches its own
 * frontend, which then says what is wrong with it. A frontend's module is imported only when its
 * markers are present, so checking an HNS package never loads HARP's JSON Schema validator, A3S's
 * Markdown and YAML parsers or the HCP linter (start-up time is most of a small check).
 */
import type { CheckResult } from "../diagnostics/result.js";
import type { PackageFs } from "../fs/package-fs.js";
import { baseName, joinPath } from "../fs/paths.js";

export interface FrontendModule {
  detect(fs: PackageFs, path: string): Promise<boolean>;
  check(fs: PackageFs, path: string): Promise<CheckResult>;
}

export interface Frontend {
  readonly kind: "hcp" | "harp" | "a3s";
  /** File names at the package root (or the path itself) that make the frontend worth asking. */
  readonly markers: readonly string[];
  load(): Promise<FrontendModule>;
}

const hcp: Frontend = {
  kind: "hcp",
  markers: ["surface.json", "policy.json", "HARNESS.md"],
  load: async () => {
    const m = await import("../hcp/index.js");
    return { detect: m.detectHcp, check: m.checkHcp };
  },
};
const harp: Frontend = {
  kind: "harp",
  markers: ["harp.json"],
  load: async () => {
    const m = await import("../harp/index.js");
    return { detect: m.detectHarp, check: m.checkHarp };
  },
};
const a3s: Frontend = {
  kind: "a3s",
  markers: ["a3s-use-extension.acl"],
  load: async () => {
    const m = await import("../a3s/index.js");
    return { detect: m.detectA3s, check: m.checkA3s };
  },
};

export const frontends: readonly Frontend[] = [hcp, harp, a3s];

/** The file an HNS directory package always has; a directory holding it is a misnamed HNS package. */
export const HNS_DIRECTORY_MARKER = "manifest.yao";

/** What detection looked for, in the words of the "no marker" diagnostic. */
export const MARKER_DESCRIPTION =
  "a `.hns` suffix, `harp.json` (HARP), `surface.json`+`policy.json`+`HARNESS.md` (HCP) or `a3s-use-extension.acl` (A3S)";

export type Route =
  | { readonly kind: "frontend"; readonly frontend: Frontend }
  | { readonly kind: "hns" }
  | { readonly kind: "none" };

/**
 * Route a directory by the markers present in it: a complete HCP pack first (its files are the most
 * specific), then `harp.json`, then the A3S manifest, then a partial HCP pack (so a pack missing
 * `HARNESS.md` is told so by the HCP linter), then a misnamed HNS directory package.
 */
export async function routeDirectory(fs: PackageFs, path: string): Promise<Route> {
  const present = async (name: string): Promise<boolean> =>
    (await fs.lstat(joinPath(path, name)).catch(() => null)) !== null;
  const hcpPresent = await Promise.all(hcp.markers.map(present));
  if (hcpPresent.every(Boolean)) return { kind: "frontend", frontend: hcp };
  if (await present("harp.json")) return { kind: "frontend", frontend: harp };
  if (await present("a3s-use-extension.acl")) return { kind: "frontend", frontend: a3s };
  if (hcpPresent.some(Boolean)) return { kind: "frontend", frontend: hcp };
  if (await present(HNS_DIRECTORY_MARKER)) return { kind: "hns" };
  return { kind: "none" };
}

/** A file named like a marker (e.g. `…/a3s-use-extension.acl`) goes to the frontend that accepts it. */
export async function routeFile(fs: PackageFs, path: string): Promise<FrontendModule | undefined> {
  for (const frontend of frontends) {
    if (!frontend.markers.includes(baseName(path))) continue;
    const module = await frontend.load();
    if (await module.detect(fs, path)) return module;
  }
  return undefined;
}
