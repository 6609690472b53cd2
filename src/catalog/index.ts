/**
 * The package catalog, browser-capable part: the Catalog over any CatalogStore, the in-memory
 * store and the code table. Node runtimes use `openCatalog(dir)` from ./node-store.js.
 */
export { Catalog, DEFAULT_GC_GRACE_MS, identityInputOf, openCatalogStore } from "./catalog.js";
export type {
  BindingRecord,
  CatalogOptions,
  EntryStatus,
  GcOptions,
  GcReport,
  GetResult,
  InstallOutcome,
  InstallStatus,
  ListResult,
  VerifyEntry,
  VerifyReport,
} from "./catalog.js";
export { CATALOG_CODES } from "./codes.js";
export { bindingName, FORMAT_TEXT } from "./layout.js";
export { MemoryCatalogStore, StoreError, TEMP_DIR } from "./store.js";
export type { CatalogStore, StoreEntry, StoreErrorCode } from "./store.js";
