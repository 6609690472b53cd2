/**
 * The common result shape `yaoc check` reports for any kind of package. Frontends add their own
 * fields (HNS: id, version, owner; HCP: digest; …) after the common ones.
 */
import type { Diagnostic } from "./diagnostic.js";

export type PackageKind = "hns" | "harp" | "a3s" | "hcp" | "unknown";

export interface CheckResult {
  readonly path: string;
  readonly kind: PackageKind;
  readonly valid: boolean;
  /** `sha256:<hex>` content identity (or digest) when the package has one and is valid; else null. */
  readonly identity: string | null;
  readonly diagnostics: readonly Diagnostic[];
  /** Frontend-specific fields, serialised after the common ones. */
  readonly extra?: Readonly<Record<string, unknown>>;
  /**
   * Report fields `check --format json` prints after the frontend's fields (HNS: the tool contract
   * report). Kept apart from `extra` because receipts and golden records do not include them.
   */
  readonly report?: Readonly<Record<string, unknown>>;
  /** Source texts by file name, so the human renderer can draw code frames. Never serialised. */
  readonly sources?: ReadonlyMap<string, string>;
}
