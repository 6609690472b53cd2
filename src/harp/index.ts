/**
 * HARP v1 frontend: manifest validation and package checking (browser-safe; no `node:` imports).
 * The host that installs and runs apps is Node-only and lives in ./host/.
 */
export { HARP_CODES, type HarpCode } from "./codes.js";
export {
  checkHarp,
  checkHarpPackage,
  detectHarp,
  MAX_MANIFEST_BYTES,
  type CheckOptions,
  type HarpCheck,
} from "./check.js";
export { parseHarpJson, type JsonValue, type ParsedJson } from "./json.js";
export {
  DEFAULT_HEALTH_PATH,
  DEFAULT_PERMISSIONS,
  DEFAULT_TIMEOUT_MS,
  effectivePermissions,
  isRuntimeName,
  MANDATORY_KINDS,
  PLATFORMS,
  platformTriple,
  RESERVED_FIELDS,
  RESERVED_KINDS,
  selectArgv,
  type HarpManifest,
  type Platform,
} from "./manifest.js";
export { HARP_SCHEMA_ID, HARP_V1_SCHEMA } from "./schema.js";
export { treeDigest, walkPackage, type PackageTree, type TreeEntry } from "./tree.js";
export { MANIFEST_FILE, validateManifestText, type ManifestValidation } from "./validate.js";
