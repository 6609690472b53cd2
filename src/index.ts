/**
 * yaoc as a library. Everything exported here runs in any JavaScript runtime; file access goes
 * through `PackageFs` (use `NodeFs` from "yaoc/node" in Node, `MemoryFs` anywhere). The exports are
 * those of api.ts plus the code table (every diagnostic code's row), which the browser entry
 * (browser.ts) leaves to a lazily loaded chunk.
 */
export * from "./api.js";
export { ALL_CODES, codeInfo } from "./codes/registry.js";
