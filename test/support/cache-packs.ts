/**
 * What a `--cache` directory holds, read through the store's own pack reader: the entry the store
 * would use for each key (the latest use wins, ties to the later pack, as src/cache/node-store.ts
 * loads them), and a way to rewrite every pack's entries (to damage or forge them in tests).
 */
import { writeFileSync } from "node:fs";
import { encodePack, packFiles, readPack, type PackRecord } from "../../src/cache/node-store.js";

/** The live entry of every key, from packs whose index is whole. */
export function liveEntries(dir: string): Map<string, PackRecord> {
  const live = new Map<string, PackRecord>();
  for (const file of packFiles(dir)) {
    for (const r of readPack(file) ?? []) {
      const before = live.get(r.key);
      if (before === undefined || r.usedAt >= before.usedAt) live.set(r.key, r);
    }
  }
  return live;
}

/** Rewrite each pack with its entries' bytes replaced by `change` (the index re-sealed, so only the entries are damaged). */
export function rewriteEntries(dir: string, change: (r: PackRecord, all: readonly PackRecord[]) => Uint8Array): void {
  for (const file of packFiles(dir)) {
    const records = readPack(file);
    if (records === null) throw new Error(`${file}: the index is damaged`);
    writeFileSync(file, encodePack(records.map((r) => ({ ...r, bytes: change(r, records) }))));
  }
}
