/**
 * The Node adapter of strict UTF-8 decoding, installed for large sources by `installNodeUtf8()`.
 * Core code never imports this file (it would break the browser build); Node entry points do.
 *
 * Node validates with `buffer.isUtf8` and converts with `buffer.transcode` to UTF-16LE, both
 * simdutf's vector code in Node 20, then copies the units into a string. On the bench's 256 KiB
 * package (mostly CJK prose) that is about half what the portable transcoder and the UTF-16
 * decoder cost (utf8.ts), a tenth of a warm check (issue 29, figure n). V8's own UTF-8 decoder, behind
 * `TextDecoder` and `Buffer#toString`, is slower than either.
 */
import { isUtf8, transcode } from "node:buffer";
import { useUtf8Decoder } from "./utf8.js";

/**
 * The text of `bytes` when they are well-formed UTF-8 (a byte order mark kept as U+FEFF, as the
 * portable path keeps it), else `undefined`.
 */
export function nodeUtf8Decode(bytes: Uint8Array): string | undefined {
  if (!isUtf8(bytes)) return undefined;
  // `transcode` takes a Buffer; this one shares the caller's memory rather than copying it.
  const units = transcode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), "utf8", "ucs2");
  return units.toString("ucs2");
}

/** Make every large decode use Node's decoder (the same text as the portable one for every input). */
export function installNodeUtf8(): void {
  // `transcode` needs Node's ICU build; a Node without it keeps the portable decoder.
  if (typeof transcode !== "function") return;
  useUtf8Decoder(nodeUtf8Decode);
}
