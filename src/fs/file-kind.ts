/**
 * The kind of an lstat/fstat result, shared by the Node adapter (node-fs.ts) and the snapshot
 * reader (node-snapshot.ts). The parameter is structural rather than `node:fs`'s `Stats` so this
 * module's declarations name no Node type: a TypeScript consumer without @types/node that reaches
 * it through the public declarations still compiles (test/package/consumer.test.ts).
 */
import type { FileKind } from "./package-fs.js";

export interface StatKindTests {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isBlockDevice(): boolean;
  isCharacterDevice(): boolean;
}

export function kindOf(st: StatKindTests): FileKind {
  if (st.isFile()) return "file";
  if (st.isDirectory()) return "directory";
  if (st.isSymbolicLink()) return "symlink";
  if (st.isFIFO()) return "fifo";
  if (st.isSocket()) return "socket";
  if (st.isBlockDevice()) return "block-device";
  if (st.isCharacterDevice()) return "char-device";
  return "other";
}
