/**
 * Finds and reads the three protocol files of a pack (§2.1). Names are matched against the directory
 * listing, not by opening the name, so `Surface.json` on a case-insensitive file system does not pass
 * for `surface.json`. Each file must be a regular file whose real path stays inside the pack root;
 * FIFOs and devices are rejected from metadata, never opened.
 */
import { describeKind, resolveContainedFile } from "../fs/contained.js";
import { FsError, type PackageFs } from "../fs/package-fs.js";
import { joinPath } from "../fs/paths.js";
import type { PackReporter } from "./report.js";

export const SURFACE = "surface.json";
export const POLICY = "policy.json";
export const HARNESS = "HARNESS.md";

/** The three protocol files in the order checks and the digest visit them. */
export const PROTOCOL_FILES = [SURFACE, POLICY, HARNESS] as const;
export type ProtocolFile = (typeof PROTOCOL_FILES)[number];

/** Per-file byte limit; a real manifest or policy is a few KiB. */
export const MAX_PROTOCOL_FILE_BYTES = 1024 * 1024;

export interface PackFile {
  readonly name: ProtocolFile;
  /** The file as the user named it. */
  readonly file: string;
  readonly bytes: Uint8Array;
  /** Decoded text; invalid UTF-8 sequences replaced when `utf8` is false. */
  readonly text: string;
  readonly utf8: boolean;
}

export interface LoadedPack {
  /** Canonical absolute path of the pack root. */
  readonly realRoot: string;
  /** The protocol files that could be read; a missing one was reported. */
  readonly files: ReadonlyMap<ProtocolFile, PackFile>;
}

/** True when `path` is a directory holding entries with the three exact names. */
export async function hasProtocolFiles(fs: PackageFs, path: string): Promise<boolean> {
  try {
    const st = await fs.stat(path);
    if (st === null || st.kind !== "directory") return false;
    const names = new Set(await fs.readdir(path));
    return PROTOCOL_FILES.every((n) => names.has(n));
  } catch {
    return false;
  }
}

export async function loadPack(fs: PackageFs, path: string, report: PackReporter): Promise<LoadedPack | null> {
  const root = await openRoot(fs, path, report);
  if (root === null) return null;
  const files = new Map<ProtocolFile, PackFile>();
  for (const name of PROTOCOL_FILES) {
    const file = await readProtocolFile(fs, path, root.realRoot, root.names, name, report);
    if (file !== null) files.set(name, file);
  }
  return { realRoot: root.realRoot, files };
}

async function openRoot(
  fs: PackageFs,
  path: string,
  report: PackReporter,
): Promise<{ realRoot: string; names: ReadonlySet<string> } | null> {
  try {
    const st = await fs.stat(path);
    if (st === null) {
      report.emit("hcp.pack.not_directory", `Pack root ${path} does not exist.`, {
        hint: "Pass the directory that holds surface.json, policy.json and HARNESS.md.",
      });
      return null;
    }
    if (st.kind !== "directory") {
      report.emit("hcp.pack.not_directory", `Pack root ${path} is a ${describeKind(st.kind)}, not a directory.`, {
        hint: "A Harness Pack is a directory holding surface.json, policy.json and HARNESS.md (HCP §2.1).",
      });
      return null;
    }
    const realRoot = await fs.realpath(path);
    const names = new Set(await fs.readdir(realRoot));
    return { realRoot, names };
  } catch (e) {
    report.emit("hcp.pack.unreadable", `Pack root ${path} cannot be read: ${errorText(e)}.`);
    return null;
  }
}

async function readProtocolFile(
  fs: PackageFs,
  packPath: string,
  realRoot: string,
  names: ReadonlySet<string>,
  name: ProtocolFile,
  report: PackReporter,
): Promise<PackFile | null> {
  const file = joinPath(packPath, name);
  if (!names.has(name)) {
    const lookalike = [...names].find((n) => n.toLowerCase() === name.toLowerCase());
    report.emit(
      "hcp.pack.missing_file",
      `Pack ${packPath} has no ${name} at its root; every pack needs surface.json, policy.json and HARNESS.md (HCP §2.1.2).`,
      {
        file,
        hint:
          lookalike !== undefined
            ? `Found ${JSON.stringify(lookalike)}; protocol file names are case-sensitive, rename it to ${name}.`
            : `Create ${name} at the pack root.`,
      },
    );
    return null;
  }
  const resolved = await resolveContainedFile(fs, realRoot, name);
  if (!resolved.ok) {
    // resolved.detail names absolute paths of this machine; messages describe the problem instead.
    switch (resolved.reason) {
      case "escape":
        report.emit(
          "hcp.pack.file_escapes",
          `${file} is a symbolic link that resolves outside the pack root; protocol files must live in the pack.`,
          {
            file,
            hint: "Replace the link with a regular file (or a link to a file inside the pack).",
          },
        );
        break;
      case "not_regular_file": {
        const st = await fs.stat(joinPath(realRoot, name)).catch(() => null);
        const kind = st === null ? "special file" : describeKind(st.kind);
        report.emit("hcp.pack.not_regular_file", `${file} is a ${kind}; ${name} must be a regular file.`, { file });
        break;
      }
      case "not_found":
        report.emit(
          "hcp.pack.missing_file",
          `${file} is a symbolic link to nothing; ${name} must be a regular file at the pack root (HCP §2.1.2).`,
          {
            file,
            hint: `Make ${name} a regular file at the pack root.`,
          },
        );
        break;
      case "loop":
      case "io":
        report.emit("hcp.pack.unreadable", `${file} cannot be resolved (symbolic link loop or unreadable directory).`, {
          file,
        });
        break;
    }
    return null;
  }
  if (resolved.stat.size > MAX_PROTOCOL_FILE_BYTES) {
    reportTooLarge(report, file, resolved.stat.size);
    return null;
  }
  let bytes: Uint8Array;
  try {
    bytes = await fs.readFile(resolved.realPath, MAX_PROTOCOL_FILE_BYTES);
  } catch (e) {
    if (e instanceof FsError && e.code === "too_large") reportTooLarge(report, file, null);
    else if (e instanceof FsError && e.code === "not_regular_file") {
      report.emit("hcp.pack.not_regular_file", `${file} must be a regular file: ${e.message}.`, { file });
    } else report.emit("hcp.pack.unreadable", `${file} cannot be read: ${errorText(e)}.`, { file });
    return null;
  }
  return { name, file, bytes, ...decode(bytes) };
}

function reportTooLarge(report: PackReporter, file: string, size: number | null): void {
  const actual = size === null ? "more than that" : `${size} bytes`;
  report.emit(
    "hcp.file.too_large",
    `${file} is ${actual}; protocol files are limited to ${MAX_PROTOCOL_FILE_BYTES} bytes.`,
    {
      file,
      hint: "Keep surface.json, policy.json and HARNESS.md small; move large material to other files of the pack.",
    },
  );
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

function decode(bytes: Uint8Array): { text: string; utf8: boolean } {
  try {
    return { text: strictUtf8.decode(bytes), utf8: true };
  } catch {
    return { text: lenientUtf8.decode(bytes), utf8: false };
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
