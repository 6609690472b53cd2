/**
 * The sibling frontends `yaoc check` can detect in a directory, tried in order. HNS packages are
 * recognised by their `.hns` suffix before these run.
 */
import type { CheckResult } from "../diagnostics/result.js";
import type { PackageFs } from "../fs/package-fs.js";

export interface Frontend {
  readonly kind: string;
  detect(fs: PackageFs, path: string): Promise<boolean>;
  check(fs: PackageFs, path: string): Promise<CheckResult>;
}

export const frontends: readonly Frontend[] = [];
