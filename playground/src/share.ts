/**
 * The shareable address: `#p=` + base64url(deflate-raw(JSON {name, files})). Decoding is defensive
 * (a hand-edited address is untrusted input): anything malformed yields undefined, never a throw.
 */
export interface PlaygroundPackage {
  readonly name: string;
  /** Package-relative paths to texts; the key "" holds a single-file package. */
  readonly files: Readonly<Record<string, string>>;
}

const MAX_FRAGMENT_BYTES = 1 << 20;
/** The most a share address may inflate to: 16 MiB, the input limit of `yaoc check -`. */
export const MAX_INFLATED_BYTES = 16 * MAX_FRAGMENT_BYTES;

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

function toBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    s += String.fromCharCode.apply(null, Array.from(bytes.subarray(i, i + 0x8000)));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export async function encodeFragment(p: PlaygroundPackage): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify({ name: p.name, files: p.files }));
  return `p=${toBase64Url(await pipe(json, new CompressionStream("deflate-raw")))}`;
}

/**
 * Inflate with a streaming cap: chunks are taken one at a time and the stream is cancelled as soon
 * as more than `max` bytes came out, so a small address that inflates to gigabytes costs at most
 * `max` bytes and never more (undefined then).
 */
async function inflateCapped(bytes: Uint8Array, max: number): Promise<Uint8Array | undefined> {
  const reader = new Blob([bytes as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream("deflate-raw"))
    .getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > max) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

export async function decodeFragment(fragment: string): Promise<PlaygroundPackage | undefined> {
  try {
    if (!fragment.startsWith("p=") || fragment.length > MAX_FRAGMENT_BYTES) return undefined;
    const json = await inflateCapped(fromBase64Url(fragment.slice(2)), MAX_INFLATED_BYTES);
    if (json === undefined) return undefined;
    const value: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(json));
    if (typeof value !== "object" || value === null) return undefined;
    const { name, files } = value as { name?: unknown; files?: unknown };
    if (typeof name !== "string" || !/^[^/\0]{1,200}$/.test(name) || name === "." || name === "..") return undefined;
    if (typeof files !== "object" || files === null || Array.isArray(files)) return undefined;
    const entries = Object.entries(files as Record<string, unknown>);
    if (
      entries.length === 0 ||
      entries.some(([k, v]) => typeof v !== "string" || k.split("/").some((s) => s === "..") || k.startsWith("/"))
    )
      return undefined;
    return { name, files: Object.fromEntries(entries) as Record<string, string> };
  } catch {
    return undefined;
  }
}
