/**
 * The HNS package loader ("yaoc/hns"): the structural steps of HNS §11 (read, load, identity).
 * `loadPackage` accepts packages whose bodies are ill-typed; to admit a package, use `check` from
 * "yaoc", which also runs the module analysis exactly as `yaoc check` does.
 */
export type { EntryOwner, EntryProgram, HnsFunction, HnsPackage, Manifest, PhysicalForm } from "./model.js";
export { loadPackage, loadFromSource, type LoadOptions, type LoadResult } from "./load.js";
export { HNS_CODES } from "./codes.js";
