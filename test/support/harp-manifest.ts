/**
 * The one harp.json builder of the HARP tests: the smallest valid HARP v1 manifest (seed 001 §7:
 * the required members of an `http` app that `node server.mjs` starts), so each test states only
 * the members it changes.
 */

/** The manifest every HARP test starts from. */
export const HARP_BASE: Readonly<Record<string, unknown>> = Object.freeze({
  schemaVersion: 1,
  id: "notes",
  name: "Notes",
  version: "1.0.0",
  runtime: { kind: "http" },
  start: { argv: ["node", "server.mjs"] },
});

/**
 * harp.json text of HARP_BASE with `changes` added or replacing its members (in HARP_BASE's order,
 * then the new ones): indented by two spaces like a hand-written file, or on one line (`compact`).
 * Object.assign, not a spread, so a test's 100,000 generated members are copied once.
 */
export function harpJson(changes: Readonly<Record<string, unknown>> = {}, options: { compact?: boolean } = {}): string {
  return JSON.stringify(Object.assign({}, HARP_BASE, changes), null, options.compact === true ? undefined : 2);
}
