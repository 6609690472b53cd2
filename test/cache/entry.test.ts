/**
 * A cache entry carries a check result exactly, and is trusted only when it is whole, for its key,
 * written by this version: flipped bytes anywhere, truncation at any length, an entry of another key
 * and an entry of another version are each refused with the reason, never decoded into a result.
 */
import { describe, expect, it } from "vitest";
import { decodeEntry, encodeEntry, type CachedCheck } from "../../src/cache/entry.js";
import type { CheckResult } from "../../src/diagnostics/result.js";

const KEY = "a".repeat(64);
const OTHER_KEY = "b".repeat(64);
const VERSION = "1.2.3";

const RESULT: CheckResult = {
  path: "pkgs/bad.hns",
  kind: "hns",
  valid: false,
  identity: null,
  diagnostics: [
    {
      code: "yao.unclosed_list",
      severity: "error",
      message: "unclosed list",
      file: "pkgs/bad.hns",
      span: { start: { byte: 3, line: 1, column: 4 }, end: { byte: 4, line: 1, column: 5 } },
      hint: "add ')'",
      label: "this list",
      related: [
        {
          file: "pkgs/bad.hns",
          message: "opened here",
          span: { start: { byte: 0, line: 1, column: 1 }, end: { byte: 1, line: 1, column: 2 } },
        },
      ],
    },
    { code: "hns.unknown_field", severity: "warning", message: "名前 \udcff", function: "f" },
  ],
  extra: { id: "demo", version: "1.0.0", tools: ["a", "b"] },
  sources: new Map([["pkgs/bad.hns", "(a (b"]]),
};
const CHECK: CachedCheck = { result: RESULT, ioError: false };

function encoded(check: CachedCheck = CHECK, key = KEY, version = VERSION): Uint8Array {
  const bytes = encodeEntry(key, version, check);
  if (bytes === null) throw new Error("not encodable");
  return bytes;
}

describe("cache entries", () => {
  it("decode to the same result, sources and I/O flag", () => {
    const back = decodeEntry(encoded(), KEY, VERSION);
    expect("check" in back).toBe(true);
    if (!("check" in back)) return;
    expect(back.check.ioError).toBe(false);
    expect(back.check.result).toEqual(RESULT);
    expect([...back.check.result.sources!]).toEqual([...RESULT.sources!]);
    expect(Object.keys(back.check.result.extra!)).toEqual(["id", "version", "tools"]);
    const io = decodeEntry(encoded({ result: { ...RESULT, sources: undefined }, ioError: true }), KEY, VERSION);
    expect("check" in io && io.check.ioError && io.check.result.sources === undefined).toBe(true);
  });

  it("refuse an entry with any byte flipped", () => {
    const bytes = encoded();
    let refused = 0;
    for (let i = 0; i < bytes.length; i++) {
      const damaged = bytes.slice();
      damaged[i] = damaged[i]! ^ 0x20;
      const back = decodeEntry(damaged, KEY, VERSION);
      expect("damage" in back, `byte ${i} flipped was trusted`).toBe(true);
      refused++;
    }
    expect(refused).toBe(bytes.length);
  });

  it("refuse an entry truncated at any length", () => {
    const bytes = encoded();
    for (let n = 0; n < bytes.length; n++) {
      expect("damage" in decodeEntry(bytes.subarray(0, n), KEY, VERSION), `truncated to ${n}`).toBe(true);
    }
  });

  it("refuse another key's entry (entries swapped or copied) and another version's", () => {
    expect(decodeEntry(encoded(CHECK, OTHER_KEY), KEY, VERSION)).toEqual({ damage: "key" });
    expect(decodeEntry(encoded(CHECK, KEY, "1.2.4"), KEY, VERSION)).toEqual({ damage: "version" });
    expect(decodeEntry(new TextEncoder().encode("not an entry"), KEY, VERSION)).toEqual({ damage: "header" });
    expect(decodeEntry(new Uint8Array([0xff, 0xfe, 0x0a]), KEY, VERSION)).toEqual({ damage: "header" });
  });

  it("are not written for results JSON cannot carry exactly", () => {
    const withExtra = (extra: Record<string, unknown>): CachedCheck => ({
      result: { ...RESULT, extra },
      ioError: false,
    });
    expect(encodeEntry(KEY, VERSION, withExtra({ m: new Map() }))).toBeNull();
    expect(encodeEntry(KEY, VERSION, withExtra({ n: 10n }))).toBeNull();
    expect(encodeEntry(KEY, VERSION, withExtra({ n: Number.NaN }))).toBeNull();
    expect(encodeEntry(KEY, VERSION, withExtra({ d: new Date(0) }))).toBeNull();
    expect(encodeEntry(KEY, VERSION, withExtra({ plain: { deep: [1, "x", null, true] } }))).not.toBeNull();
  });
});
