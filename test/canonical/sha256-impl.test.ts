/**
 * The two SHA-256 implementations behind `sha256Digest` (src/canonical/hash.ts): the portable one
 * (@noble/hashes, browsers) and node:crypto (installed by Node entry points) give the same digest
 * for the same bytes, and `useSha256` really switches what identities are computed with.
 */
import { afterEach, describe, expect, it } from "vitest";
import { contentHash, contentHashOfParts, portableSha256, sha256Hex, useSha256 } from "../../src/canonical/hash.js";
import { nodeSha256 } from "../../src/canonical/node-hash.js";

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

function pseudoRandom(n: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = 0x2545f491;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

afterEach(() => useSha256(portableSha256));

describe("SHA-256 implementations", () => {
  const inputs: [string, Uint8Array][] = [
    ["empty", new Uint8Array(0)],
    ["abc", new TextEncoder().encode("abc")],
    ["55 bytes (one block with padding)", pseudoRandom(55)],
    ["64 bytes", pseudoRandom(64)],
    ["1 MiB", pseudoRandom(1024 * 1024)],
    ["a view into a larger buffer", pseudoRandom(4096).subarray(7, 3000)],
  ];
  for (const [name, bytes] of inputs) {
    it(`agree on ${name}`, () => {
      expect(hex(nodeSha256(bytes))).toBe(hex(portableSha256(bytes)));
    });
  }

  it("give the known digest of the empty input", () => {
    const empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    expect(hex(portableSha256(new Uint8Array(0)))).toBe(empty);
    expect(hex(nodeSha256(new Uint8Array(0)))).toBe(empty);
  });

  it("useSha256 decides what contentHash and contentHashOfParts compute with", () => {
    const seen: number[] = [];
    useSha256(
      Object.assign(
        (b: Uint8Array) => {
          seen.push(b.length);
          return nodeSha256(b);
        },
        {
          ofParts: (parts: readonly string[]) => {
            seen.push(-parts.length);
            return nodeSha256.ofParts(parts);
          },
        },
      ),
    );
    expect(contentHash("héllo")).toBe(`sha256:${hex(portableSha256(new TextEncoder().encode("héllo")))}`);
    expect(contentHashOfParts(["hé", "llo"])).toBe(contentHash("héllo"));
    expect(seen).toEqual([6, -2, 6]);
    useSha256(Object.assign(() => new Uint8Array(32), { ofParts: () => new Uint8Array(32) }));
    expect(sha256Hex("x")).toBe("0".repeat(64));
    expect(contentHashOfParts(["x"])).toBe(`sha256:${"0".repeat(64)}`);
  });

  // Pieces as the package identity feeds them: ASCII, multi-byte, astral, a lone surrogate (encoded
  // as U+FFFD by both), an empty piece and a piece of 300 KiB.
  const pieces: readonly string[] = [
    "(manifest (id a))",
    "\n",
    "",
    "日本語 ∑ 🎉",
    "\n",
    "a\ud800b",
    "x".repeat(300_000),
  ];

  it("ofParts equals the digest of the joined UTF-8 text, for both implementations", () => {
    const whole = hex(portableSha256(new TextEncoder().encode(pieces.join(""))));
    expect(hex(portableSha256.ofParts(pieces))).toBe(whole);
    expect(hex(nodeSha256.ofParts(pieces))).toBe(whole);
    expect(hex(nodeSha256.ofParts([]))).toBe(hex(portableSha256(new Uint8Array(0))));
  });
});
