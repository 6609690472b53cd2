/** The HCP/1.x Harness Pack frontend (seed 003 §2). See docs/hcp.md for the pack model we check. */
import type { PackageFs } from "../fs/package-fs.js";
import { hasProtocolFiles } from "./pack-files.js";

export { checkHcp } from "./check.js";
export { HCP_CODES, type HcpCode } from "./codes.js";
export { DIGEST_ORDER, DIGEST_TAG, packDigest } from "./digest.js";
export { MAX_PROTOCOL_FILE_BYTES, PROTOCOL_FILES } from "./pack-files.js";

/** A directory holding entries named exactly surface.json, policy.json and HARNESS.md is a pack. */
export function detectHcp(fs: PackageFs, path: string): Promise<boolean> {
  return hasProtocolFiles(fs, path);
}
