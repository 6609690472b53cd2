/** Node-only entry point: the file-system adapter for `PackageFs`. */
export { NodeFs } from "./fs/node-fs.js";
