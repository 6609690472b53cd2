/**
 * The sibling frontends `yaoc check` can detect, tried in order. HNS packages are recognised by
 * their `.hns` suffix before these run. A frontend's module is imported only when one of its marker
 * files is present, so checking an HNS package never loads HARP's JSON Schema validator, A3S's
 * Markdown and YAML parsers or the HCP linter (start-up time is most of a small check).
 */
import type { CheckResult } from "../diagnostics/result.js";
import type { PackageFs } from "../fs/package-fs.js";
import { baseName, joinPath } from "../fs/paths.js";

interface FrontendModule {
  detect(fs: PackageFs, path: string): Promise<boolean>;
  check(fs: PackageFs, path: string): Promise<CheckResult>;
}

export interface Frontend {
  readonly kind: string;
  /** File names at the package root (or the path itself) that make the frontend worth asking. */
  readonly markers: readonly string[];
  load(): Promise<FrontendModule>;
}

export const frontends: readonly Frontend[] = [
  {
    kind: "hcp",
    markers: ["surface.json", "policy.json", "HARNESS.md"],
    load: async () => {
      const m = await import("../hcp/index.js");
      return { detect: m.detectHcp, check: m.checkHcp };
    },
  },
  {
    kind: "harp",
    markers: ["harp.json"],
    load: async () => {
      const m = await import("../harp/index.js");
      return { detect: m.detectHarp, check: m.checkHarp };
    },
  },
  {
    kind: "a3s",
    markers: ["a3s-use-extension.acl"],
    load: async () => {
      const m = await import("../a3s/index.js");
      return { detect: m.detectA3s, check: m.checkA3s };
    },
  },
];

/** The first frontend whose markers are present and whose own detection accepts the path. */
export async function detectFrontend(fs: PackageFs, path: string): Promise<FrontendModule | undefined> {
  for (const frontend of frontends) {
    const present = await Promise.all(
      frontend.markers.map(async (m) => baseName(path) === m || (await fs.lstat(joinPath(path, m))) !== null),
    );
    if (!present.includes(true)) continue;
    const module = await frontend.load();
    if (await module.detect(fs, path)) return module;
  }
  return undefined;
}
