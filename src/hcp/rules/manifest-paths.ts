/**
 * Relative paths in the manifest (§2.1.5): `wrap.bin` when it begins with `.`, and `openapi.path`,
 * resolve against the pack root and must stay inside it. The containment rule is only proposed for
 * HCP/1.2 but runtimes SHOULD enforce it today, so it is an error here.
 *
 * `..` is rejected outright rather than resolved lexically: `a/../b` resolves through `a`, and when
 * `a` is a symlink the result is outside the pack although the text looks contained.
 */
import { describeKind, relativePathProblem, resolveContainedFile } from "../../fs/contained.js";
import type { PackageFs } from "../../fs/package-fs.js";
import { dirName, isWithin, joinPath } from "../../fs/paths.js";
import { at, member, pointerOf, quote } from "../json-access.js";
import type { JsonString } from "../json-reader.js";
import type { JsonDoc, PackReporter } from "../report.js";

interface ManifestPath {
  readonly node: JsonString;
  readonly pointer: string;
  readonly role: string;
}

export async function checkManifestPaths(
  fs: PackageFs,
  realRoot: string,
  surface: JsonDoc,
  report: PackReporter,
): Promise<void> {
  for (const p of collectPaths(surface, report)) await checkPath(fs, realRoot, surface, p, report);
}

function collectPaths(surface: JsonDoc, report: PackReporter): ManifestPath[] {
  const out: ManifestPath[] = [];
  const wrapBin = stringAt(surface, report, "wrap", "bin", "wrap.bin");
  // A wrap.bin that does not begin with "." names a program on the runtime's search path or an
  // absolute path; §2.1.5 only makes dot-relative values pack paths.
  if (wrapBin?.node.value.startsWith(".")) out.push(wrapBin);
  const openapi = stringAt(surface, report, "openapi", "path", "openapi.path");
  if (openapi !== null) out.push(openapi);
  return out;
}

function stringAt(
  surface: JsonDoc,
  report: PackReporter,
  section: string,
  key: string,
  role: string,
): ManifestPath | null {
  const s = member(surface.root, section);
  if (s === undefined) return null;
  const sp = pointerOf("", section);
  if (s.value.kind !== "object") {
    report.atValue("hcp.field.wrong_type", surface, s.value, sp, `${at(surface, sp)}: ${section} must be an object.`);
    return null;
  }
  const m = member(s.value, key);
  if (m === undefined) return null;
  const pointer = pointerOf(sp, key);
  if (m.value.kind !== "string") {
    report.atValue(
      "hcp.field.wrong_type",
      surface,
      m.value,
      pointer,
      `${at(surface, pointer)}: ${role} must be a string path.`,
    );
    return null;
  }
  return { node: m.value, pointer, role };
}

async function checkPath(
  fs: PackageFs,
  realRoot: string,
  surface: JsonDoc,
  p: ManifestPath,
  report: PackReporter,
): Promise<void> {
  const raw = p.node.value;
  const where = at(surface, p.pointer);
  const fail = (
    code: "hcp.path.invalid" | "hcp.path.escape" | "hcp.path.not_found" | "hcp.path.not_regular_file",
    why: string,
    hint?: string,
  ) => report.atValue(code, surface, p.node, p.pointer, `${where}: ${p.role} ${quote(raw)} ${why}.`, hint);

  if (raw.startsWith("/") || /^[A-Za-z]:/.test(raw)) {
    return fail(
      "hcp.path.escape",
      "is absolute; it must be relative to the pack root (HCP §2.1.5)",
      'Write it relative to the pack root, e.g. "./bin/tool".',
    );
  }
  const segments = raw.split("/");
  if (segments.includes("..")) {
    return fail(
      "hcp.path.escape",
      "contains '..'; paths must stay inside the pack root (HCP §2.1.5 containment)",
      "Move the target into the pack and refer to it without '..'.",
    );
  }
  // The leading "./" is how §2.1.5 marks wrap.bin as relative; "." segments carry no meaning.
  const rel = segments.filter((s) => s !== ".").join("/");
  if (rel === "") return fail("hcp.path.invalid", "names the pack root itself, not a file");
  const problem = relativePathProblem(rel);
  if (problem !== null) return fail("hcp.path.invalid", `is not a usable pack path: ${problem}`);

  const resolved = await resolveContainedFile(fs, realRoot, rel);
  if (resolved.ok) return;
  switch (resolved.reason) {
    case "escape":
      return fail(
        "hcp.path.escape",
        "resolves through a symbolic link to a file outside the pack root (HCP §2.1.5 containment)",
        "Copy the target into the pack instead of linking outside it.",
      );
    case "not_regular_file": {
      const st = await fs.stat(joinPath(realRoot, rel)).catch(() => null);
      const kind = st === null ? "special file" : describeKind(st.kind);
      return fail("hcp.path.not_regular_file", `names a ${kind}, not a regular file`);
    }
    case "not_found":
      if (await ancestorEscapes(fs, realRoot, rel)) {
        return fail(
          "hcp.path.escape",
          "lies under a symbolic link to a directory outside the pack root (HCP §2.1.5 containment)",
          "Copy the target into the pack instead of linking outside it.",
        );
      }
      return fail("hcp.path.not_found", "does not exist in the pack", "Add the file to the pack, or correct the path.");
    case "loop":
    case "io":
      // Details name absolute paths of this machine; the kind of failure is what the author needs.
      return fail(
        "hcp.path.not_regular_file",
        "cannot be resolved to a regular file (symbolic link loop or unreadable directory)",
      );
  }
}

/**
 * A missing target can still sit under a directory symlink that leaves the pack (`bin -> /opt`);
 * the deepest existing ancestor tells. Each step is one realpath, at most one per path segment.
 */
async function ancestorEscapes(fs: PackageFs, realRoot: string, rel: string): Promise<boolean> {
  for (let dir = dirName(joinPath(realRoot, rel)); isWithin(realRoot, dir) && dir !== realRoot; dir = dirName(dir)) {
    try {
      return !isWithin(realRoot, await fs.realpath(dir));
    } catch {
      // This ancestor does not exist either; try its parent.
    }
  }
  return false;
}
