/**
 * The sibling frontends `yaoc check` can detect in a directory, tried in order. HNS packages are
 * recognised by their `.hns` suffix before these run.
 */
import type { CheckResult } from "../diagnostics/result.js";
import type { PackageFs } from "../fs/package-fs.js";
import { checkA3s, detectA3s } from "../a3s/index.js";
import { checkHarp, detectHarp } from "../harp/index.js";
import { checkHcp, detectHcp } from "../hcp/index.js";

export interface Frontend {
  readonly kind: string;
  detect(fs: PackageFs, path: string): Promise<boolean>;
  check(fs: PackageFs, path: string): Promise<CheckResult>;
}

export const frontends: readonly Frontend[] = [
  { kind: "hcp", detect: detectHcp, check: checkHcp },
  { kind: "harp", detect: detectHarp, check: checkHarp },
  { kind: "a3s", detect: detectA3s, check: checkA3s },
];
