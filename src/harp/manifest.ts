/** The HARP v1 manifest as the schema accepts it (seed §7.2, §7.7), plus the registry of kinds. */

export const PLATFORMS = [
  "linux-x64",
  "linux-arm64",
  "darwin-x64",
  "darwin-arm64",
  "win32-x64",
  "win32-arm64",
] as const;
export type Platform = (typeof PLATFORMS)[number];

/** §7.4: the only kind a v1 host must run. */
export const MANDATORY_KINDS = ["http"] as const;
/** §7.4 / §18: names frozen for later versions; a v1 host refuses them as unsupported (C15). */
export const RESERVED_KINDS = ["http-static", "window", "headless", "oneshot", "container", "wasm"] as const;
/** Top-level names reserved by §7.6 / §19; rejected like any unknown member (C02). */
export const RESERVED_FIELDS = ["ready", "operations", "invoke"] as const;

export type NetworkPermission = "none" | "loopback" | "allow";
export type FilesystemPermission = "data-only" | "none";

export interface StartSpec {
  readonly argv: readonly string[];
  readonly platforms?: Partial<Record<Platform, { readonly argv: readonly string[] }>>;
}

export interface HarpManifest {
  readonly schemaVersion: 1;
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  readonly license?: string;
  readonly runtime: { readonly kind: "http" };
  readonly start: StartSpec;
  readonly health?: { readonly path?: string; readonly timeoutMs?: number };
  readonly entrypoints?: {
    readonly ui?: { readonly kind: "http"; readonly path?: string };
    readonly openapi?: string;
    readonly mcp?: { readonly path: string };
  };
  readonly permissions?: { readonly network?: NetworkPermission; readonly filesystem?: FilesystemPermission };
  readonly [vendor: `x-${string}`]: unknown;
}

/** §9.3: what the host enforces when the manifest omits permissions. */
export const DEFAULT_PERMISSIONS = { network: "loopback", filesystem: "data-only" } as const;
export const DEFAULT_HEALTH_PATH = "/";
export const DEFAULT_TIMEOUT_MS = 20_000;

export function effectivePermissions(m: HarpManifest): {
  network: NetworkPermission;
  filesystem: FilesystemPermission;
} {
  return {
    network: m.permissions?.network ?? DEFAULT_PERMISSIONS.network,
    filesystem: m.permissions?.filesystem ?? DEFAULT_PERMISSIONS.filesystem,
  };
}

/** The platform triple of §7.5.3 for a Node-style `process.platform` / `process.arch`, or null. */
export function platformTriple(platform: string, arch: string): Platform | null {
  const t = `${platform}-${arch}`;
  return (PLATFORMS as readonly string[]).includes(t) ? (t as Platform) : null;
}

export type ArgvSelection =
  | { readonly ok: true; readonly argv: readonly string[]; readonly pointer: string }
  | { readonly ok: false; readonly reason: string };

/**
 * §7.5.3: no platforms → top-level argv; platforms with the current key → that argv; platforms
 * without it → refuse (never fall back to a binary for the wrong architecture).
 */
export function selectArgv(start: StartSpec, platform: Platform | null): ArgvSelection {
  if (start.platforms === undefined) return { ok: true, argv: start.argv, pointer: "/start/argv" };
  const declared = Object.keys(start.platforms);
  if (platform !== null) {
    const entry = start.platforms[platform];
    if (entry !== undefined) return { ok: true, argv: entry.argv, pointer: `/start/platforms/${platform}/argv` };
  }
  return {
    ok: false,
    reason: `start.platforms declares ${declared.length === 0 ? "no platform" : declared.join(", ")} but not ${platform ?? "this platform"}`,
  };
}

/** §7.5: a bare name (no '/' or '\\', not starting with '.') is a host runtime; anything else a package file. */
export function isRuntimeName(argv0: string): boolean {
  return !argv0.includes("/") && !argv0.includes("\\") && !argv0.startsWith(".");
}
