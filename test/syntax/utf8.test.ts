/**
 * src/syntax/utf8.ts holds the tree's one table of well-formed UTF-8 sequences (the reader's
 * decoder, the loaders and the OKF "must be UTF-8" messages all use it). It is checked here against
 * the platform's WHATWG decoder, an independent implementation of the same table: a sequence is well
 * formed exactly when the fatal decoder takes it as one code point, and an ill-formed one of error
 * length n is exactly what the replacing decoder turns into one U+FFFD before it starts again.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rustUtf8ErrorText } from "../../src/a3s/okf/utf8-error.js";
import { REPO_ROOT as REPO } from "../support/repo.js";
import { nodeUtf8Decode } from "../../src/syntax/node-decoder.js";
import {
  decodeUtf8,
  firstInvalidUtf8Offset,
  transcode,
  useUtf8Decoder,
  utf8Length,
  utf8SequenceAt,
} from "../../src/syntax/utf8.js";

const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const replacing = new TextDecoder("utf-8", { ignoreBOM: true });

function decodesAsOneCodePoint(b: Uint8Array): boolean {
  try {
    return [...fatal.decode(b)].length === 1;
  } catch {
    return false;
  }
}

describe("utf8SequenceAt", () => {
  it("agrees with the platform decoder on every lead and first continuation byte", () => {
    const wrong: string[] = [];
    for (let lead = 0; lead < 256; lead++)
      for (let c1 = 0; c1 < 256; c1++)
        for (const tail of [[0x80, 0x80], [0xbf, 0xbf], [0x80, 0x41], [0x41, 0x80], [0x80], []]) {
          const b = Uint8Array.from([lead, c1, ...tail].slice(0, 4));
          const at = utf8SequenceAt(b, 0);
          const hex = [...b].map((x) => x.toString(16).padStart(2, "0")).join(" ");
          if (at > 0) {
            if (!decodesAsOneCodePoint(b.subarray(0, at))) wrong.push(`${hex}: ${at} is not one code point`);
          } else if (at === 0) {
            // Incomplete: a streaming decoder is still waiting for more bytes at the end.
            if (replacing.decode(b, { stream: true }) !== "" || replacing.decode() !== "\uFFFD")
              wrong.push(`${hex}: not incomplete`);
          } else if (replacing.decode(b) !== `\uFFFD${replacing.decode(b.subarray(-at))}`)
            wrong.push(`${hex}: error length ${-at} is not the decoder's`);
        }
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  it("finds the first ill-formed offset and says it as Rust's Utf8Error does", () => {
    const text = (s: number[]) => Uint8Array.from(s);
    expect(firstInvalidUtf8Offset(text([0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac]))).toBe(-1);
    const bad = text([0x61, 0xc3, 0xa9, 0xe2, 0x82, 0x41]);
    expect(firstInvalidUtf8Offset(bad)).toBe(3);
    expect(rustUtf8ErrorText(bad, 3)).toBe("invalid utf-8 sequence of 2 bytes from index 3");
    expect(rustUtf8ErrorText(text([0x61, 0xff]), 1)).toBe("invalid utf-8 sequence of 1 bytes from index 1");
    expect(rustUtf8ErrorText(text([0x61, 0xf0, 0x9f]), 1)).toBe("incomplete utf-8 byte sequence from index 1");
  });
});

// Inputs of 4 KiB and more are decoded by the tree's own loop (utf8.ts), or in Node by Node's
// validation and transcoding (node-decoder.ts, installed by the CLI and src/node.ts); each must agree
// with the strict platform decoder on every input: the text when well formed, else the first bad offset.
describe.each([
  ["the portable transcoder", transcode],
  ["Node's decoder", nodeUtf8Decode],
] as const)("decodeUtf8 with %s", (_name, decoder) => {
  beforeAll(() => useUtf8Decoder(decoder));
  afterAll(() => useUtf8Decoder(transcode));
  const strict = (b: Uint8Array) => {
    try {
      return { ok: true, text: fatal.decode(b) };
    } catch {
      return { ok: false, byteOffset: firstInvalidUtf8Offset(b) };
    }
  };
  const ascii = new Uint8Array(4096).fill(0x61);
  const withTail = (tail: number[]) => {
    const b = new Uint8Array(ascii.length + tail.length);
    b.set(ascii);
    b.set(tail, ascii.length);
    return b;
  };

  it("agrees with the strict platform decoder after 4 KiB on every lead byte and each edge of the second", () => {
    const wrong: string[] = [];
    let checked = 0;
    // The second byte at each edge of the table's ranges (80–8F, 90–9F, A0–BF) and outside them.
    const seconds = [0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff];
    for (let lead = 0x80; lead < 256; lead++)
      for (const c1 of seconds)
        for (const tail of [[0x80, 0x80], [0xbf, 0x41], [0x80], []]) {
          const b = withTail([lead, c1, ...tail]);
          checked++;
          const got = decodeUtf8(b);
          if (JSON.stringify(got) !== JSON.stringify(strict(b)))
            wrong.push([lead, c1, ...tail].map((x) => x.toString(16)).join(" "));
        }
    expect(checked).toBe(128 * seconds.length * 4);
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  it("keeps a byte order mark, decodes every width and reports truncation like the platform", () => {
    const encoder = new TextEncoder();
    const text = `\ufeff${'(fn f (description "检查 é 🎉 \u0800 \uffff \u{10ffff}"))\n'.repeat(200)}`;
    const bytes = encoder.encode(text);
    expect(bytes.length).toBeGreaterThan(4096);
    expect(decodeUtf8(bytes)).toEqual({ ok: true, text });
    for (let cut = 1; cut <= 3; cut++) {
      const b = encoder.encode(`${"a".repeat(5000)}🎉`).subarray(0, 5004 - cut);
      expect(decodeUtf8(b)).toEqual(strict(b));
      expect(decodeUtf8(b)).toEqual({ ok: false, byteOffset: 5000 });
    }
  });
});

describe("the large-input decoder", () => {
  afterAll(() => useUtf8Decoder(transcode));

  it("is what decodeUtf8 uses from 4 KiB on, and below that the platform decoder is", () => {
    const seen: number[] = [];
    useUtf8Decoder((b) => {
      seen.push(b.length);
      return transcode(b);
    });
    const small = new TextEncoder().encode("检".repeat(1365));
    const large = new TextEncoder().encode("检".repeat(1366));
    expect([small.length, large.length]).toEqual([4095, 4098]);
    expect(decodeUtf8(small)).toEqual({ ok: true, text: "检".repeat(1365) });
    expect(decodeUtf8(large)).toEqual({ ok: true, text: "检".repeat(1366) });
    expect(seen).toEqual([4098]);
    useUtf8Decoder(transcode);
  });

  it("Node's decodes a view into a larger buffer from the view's first byte, without reading past it", () => {
    const text = '(fn f (description "检查 🎉"))\n'.repeat(300);
    const inner = new TextEncoder().encode(text);
    const outer = new Uint8Array(inner.length + 7).fill(0x41);
    outer.set(inner, 3);
    outer[2] = 0xff; // invalid bytes on both sides of the view
    outer[inner.length + 3] = 0xff;
    const view = outer.subarray(3, 3 + inner.length);
    expect(nodeUtf8Decode(view)).toBe(text);
    expect(nodeUtf8Decode(outer)).toBeUndefined();
  });
});

describe("Node's entry points", () => {
  it("install Node's decoder wherever they install node:crypto's SHA-256: the CLI, its check workers and src/node.ts", () => {
    for (const entry of ["src/cli/bin.ts", "src/cli/check-worker.ts", "src/node.ts"]) {
      const text = readFileSync(join(REPO, entry), "utf8");
      expect(text, entry).toMatch(/^installNodeSha256\(\);$/m);
      expect(text, entry).toMatch(/^installNodeUtf8\(\);$/m);
    }
  });
});

describe("utf8Length", () => {
  const encoder = new TextEncoder();
  it("equals the encoder's byte count on long texts of every width, pairs and lone surrogates", () => {
    for (let shift = 0; shift < 3; shift++) {
      const s = `ü${"x".repeat(shift)}${"检🎉\ud800é".repeat(13_000)}\udc00`;
      expect(utf8Length(s)).toBe(encoder.encode(s).length);
    }
  });
  it("equals the encoder's byte count: ASCII, every width, astral pairs, lone surrogates anywhere", () => {
    const samples = [
      "",
      "plain ascii (fn f (body 1))",
      "é",
      "a€b",
      "日本語 text after",
      "ascii then 🎉 emoji",
      "\ud800",
      "lone \udc00 low",
      "high at end \ud83c",
      "\ud83c\udf89\ud83c",
      `${"x".repeat(10_000)}ü`,
    ];
    for (const s of samples) expect(utf8Length(s), JSON.stringify(s.slice(0, 40))).toBe(encoder.encode(s).length);
    for (let c = 0; c < 0x10000; c += 7) {
      const s = `ab${String.fromCharCode(c)}cd`;
      expect(utf8Length(s)).toBe(encoder.encode(s).length);
    }
  });
});
