/**
 * The cache key covers everything a check reads and the options that change its result, and
 * nothing else: any change of a byte, a name (undecodable ones included), a kind, an execute bit,
 * a link target, the named path, the version or a result-changing option gives another key; equal
 * inputs give equal keys; a snapshot the key could not cover completely has no key.
 */
import { describe, expect, it } from "vitest";
import { cacheKey, stableJson, type CacheContext } from "../../src/cache/key.js";
import { freezeSnapshot, type PackageSnapshot, type SnapshotEntry } from "../../src/fs/snapshot.js";

const enc = new TextEncoder();
const CONTEXT: CacheContext = { version: "1.2.3", analyze: true };

function file(path: string, text: string, executable = false): SnapshotEntry {
  const bytes = enc.encode(text);
  return { kind: "file", path, size: bytes.length, executable, bytes };
}

function snapshot(entries: SnapshotEntry[], over: Partial<PackageSnapshot> = {}): PackageSnapshot {
  return freezeSnapshot({
    requested: "pkgs/a.hns",
    root: "/work/pkgs/a.hns",
    entries: new Map(entries.map((e) => [e.path, e])),
    rootState: "present",
    failure: null,
    ...over,
  });
}

const BASE: SnapshotEntry[] = [
  { kind: "directory", path: "" },
  file("manifest.yao", "(manifest (id a))"),
  file("entry.yao", "(eval 1)"),
  { kind: "directory", path: "functions" },
  file("functions/f.yao", "(fn f)"),
];

function keyOf(s: PackageSnapshot, context: CacheContext = CONTEXT): string {
  const k = cacheKey(s, context);
  if (!("key" in k)) throw new Error(`no key: ${k.unkeyable}`);
  return k.key;
}

const replace = (path: string, e: SnapshotEntry): SnapshotEntry[] => BASE.map((x) => (x.path === path ? e : x));

describe("cacheKey", () => {
  const base = keyOf(snapshot(BASE));

  it("is 64 hex digits and the same for the same content in any entry order", () => {
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(keyOf(snapshot([...BASE].reverse()))).toBe(base);
  });

  const variants: [string, PackageSnapshot, CacheContext?][] = [
    ["one byte of a file", snapshot(replace("entry.yao", file("entry.yao", "(eval 2)")))],
    ["a file renamed", snapshot(replace("functions/f.yao", file("functions/g.yao", "(fn f)")))],
    ["an execute bit", snapshot(replace("entry.yao", file("entry.yao", "(eval 1)", true)))],
    ["a file turned into a link", snapshot(replace("entry.yao", { kind: "symlink", path: "entry.yao", target: "x" }))],
    ["a file added", snapshot([...BASE, file("notes.txt", "")])],
    ["an empty directory added", snapshot([...BASE, { kind: "directory", path: "empty" }])],
    ["a FIFO added", snapshot([...BASE, { kind: "fifo", path: "pipe" }])],
    ["the path it was named by", snapshot(BASE, { requested: "./pkgs/a.hns" })],
    ["the real root", snapshot(BASE, { root: "/elsewhere/a.hns" })],
    ["the version", snapshot(BASE), { ...CONTEXT, version: "1.2.4" }],
    ["--no-analyze", snapshot(BASE), { ...CONTEXT, analyze: false }],
    ["tool schemas", snapshot(BASE), { ...CONTEXT, toolSchemas: { web: { type: "object" } } }],
  ];
  for (const [what, s, context] of variants) {
    it(`changes with ${what}`, () => {
      expect(keyOf(s, context)).not.toBe(base);
    });
  }

  it("moves no bytes between fields (length-prefixed framing)", () => {
    const a = snapshot([{ kind: "directory", path: "" }, file("ab", "c")]);
    const b = snapshot([{ kind: "directory", path: "" }, file("a", "bc")]);
    expect(keyOf(a)).not.toBe(keyOf(b));
  });

  it("keeps two undecodable names apart (lone surrogates are not merged into U+FFFD)", () => {
    const a = snapshot([{ kind: "directory", path: "" }, file("\udcff.yao", "")]);
    const b = snapshot([{ kind: "directory", path: "" }, file("\udcfe.yao", "")]);
    const c = snapshot([{ kind: "directory", path: "" }, file("\\udcff.yao", "")]);
    expect(new Set([keyOf(a), keyOf(b), keyOf(c)]).size).toBe(3);
  });

  it("takes tool schemas by content, not by how their members were ordered", () => {
    const one = { ...CONTEXT, toolSchemas: { a: { type: "object", required: ["x"] }, b: {} } };
    const two = { ...CONTEXT, toolSchemas: { b: {}, a: { required: ["x"], type: "object" } } };
    expect(keyOf(snapshot(BASE), one)).toBe(keyOf(snapshot(BASE), two));
    expect(stableJson({ b: [1, { d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[1,{"c":2,"d":1}]}');
  });

  it("has no key when the snapshot does not hold everything the check could read", () => {
    expect(cacheKey(snapshot([], { rootState: "missing" }), CONTEXT)).toEqual({ unkeyable: "root_not_present" });
    expect(cacheKey(snapshot([], { rootState: "dangling" }), CONTEXT)).toEqual({ unkeyable: "root_not_present" });
    expect(cacheKey(snapshot(BASE, { failure: { code: "io", message: "changed" } }), CONTEXT)).toEqual({
      unkeyable: "snapshot_failed",
    });
    const notHeld: SnapshotEntry = { kind: "file", path: "big.bin", size: 1 << 30, executable: false, bytes: null };
    expect(cacheKey(snapshot([...BASE, notHeld]), CONTEXT)).toEqual({ unkeyable: "file_not_held" });
  });
});
