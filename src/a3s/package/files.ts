/**
 * Package-level checks (reference §2.8 install-time rules, §2.9 limits, §3.5 digests): the README,
 * every declared file, no links or special entries, the size bounds, the fingerprint and the raw
 * manifest digest. All file access goes through `PackageFs`.
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { diagnostic, type A3sCode } from "../codes.js";
import { resolveContainedFile } from "../../fs/contained.js";
import { FsError, type PackageFs } from "../../fs/package-fs.js";
import { joinPath } from "../../fs/paths.js";
import { displayName, isUndecodableName, UNDECODABLE_NAME_HINT, undecodableNameMessage } from "../../fs/names.js";
import { expandedDigest, PACKAGE_DOMAIN, rawDigest, type DigestFile } from "./digest.js";
import type { ExtensionManifest } from "../manifest/schema.js";
import { referenceMessage } from "../messages.js";

const MIB = 1024 * 1024;
export const MAX_PACKAGE_ENTRIES = 10_000;
export const MAX_PACKAGE_BYTES = 1024 * MIB;

export interface PackageScan {
  readonly files: DigestFile[];
  readonly fingerprint: string | null;
  readonly byteCount: number;
  readonly diagnostics: Diagnostic[];
}

/** Walk the package iteratively; links and special files are diagnostics, never followed. */
export async function scanPackage(fs: PackageFs, root: string): Promise<PackageScan> {
  const diagnostics: Diagnostic[] = [];
  const files: DigestFile[] = [];
  let entries = 0;
  let bytes = 0;
  const stack: string[] = [""];
  let tooLarge = false;
  while (stack.length > 0 && !tooLarge) {
    const rel = stack.pop()!;
    let names: string[];
    try {
      names = await fs.readdir(rel === "" ? root : joinPath(root, rel));
    } catch (e) {
      diagnostics.push(
        diagnostic("a3s.package.io", `cannot list '${rel || "."}': ${e instanceof Error ? e.message : String(e)}`, {
          file: rel || ".",
        }),
      );
      continue;
    }
    names.sort();
    for (const name of names) {
      const childRel = rel === "" ? name : `${rel}/${name}`;
      if (isUndecodableName(name)) {
        diagnostics.push(
          diagnostic("a3s.package.non_utf8_name", undecodableNameMessage(childRel), {
            file: displayName(childRel),
            hint: UNDECODABLE_NAME_HINT,
          }),
        );
      }
      const st = await fs.lstat(joinPath(root, childRel));
      if (st === null) continue;
      entries++;
      if (entries > MAX_PACKAGE_ENTRIES) {
        diagnostics.push(
          diagnostic(
            "a3s.package.too_large",
            referenceMessage(
              "use.extension.package_too_large",
              `The cognitive package exceeds ${MAX_PACKAGE_ENTRIES} entries.`,
            ),
            { file: childRel },
          ),
        );
        tooLarge = true;
        break;
      }
      if (st.kind === "directory") {
        stack.push(childRel);
      } else if (st.kind === "symlink") {
        diagnostics.push(
          diagnostic(
            "a3s.package.symlink",
            referenceMessage(
              "use.extension.package_symlink",
              `Cognitive packages cannot contain links: '${childRel}'.`,
            ),
            { file: childRel },
          ),
        );
      } else if (st.kind !== "file") {
        diagnostics.push(
          diagnostic(
            "a3s.package.entry_invalid",
            referenceMessage(
              "use.extension.package_entry_invalid",
              `Cognitive package entry '${childRel}' is not a regular file or directory.`,
            ),
            { file: childRel },
          ),
        );
      } else {
        bytes += st.size;
        if (bytes > MAX_PACKAGE_BYTES) {
          diagnostics.push(
            diagnostic(
              "a3s.package.too_large",
              referenceMessage(
                "use.extension.package_too_large",
                `The cognitive package exceeds ${MAX_PACKAGE_BYTES} bytes.`,
              ),
              { file: childRel },
            ),
          );
          tooLarge = true;
          break;
        }
        try {
          files.push({ path: childRel, bytes: await fs.readFile(joinPath(root, childRel), st.size + 1) });
        } catch (e) {
          diagnostics.push(
            diagnostic("a3s.package.io", `cannot read '${childRel}': ${e instanceof FsError ? e.message : String(e)}`, {
              file: childRel,
            }),
          );
        }
      }
    }
  }
  const clean = diagnostics.length === 0;
  return { files, fingerprint: clean ? expandedDigest(PACKAGE_DOMAIN, files) : null, byteCount: bytes, diagnostics };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function boundedUtf8(bytes: Uint8Array, max: number): string | null {
  if (bytes.length < 1) return "the file is empty";
  if (bytes.length > max) return `the file is larger than ${max} bytes`;
  try {
    utf8.decode(bytes);
    return null;
  } catch {
    return "the file is not valid UTF-8";
  }
}

interface DeclaredFile {
  readonly path: string;
  readonly what: string;
  /** Reference code and byte bound for the content rule, when there is one. */
  readonly content?: { code: string; reason: A3sCode; max: number; wording: string };
  /** Tool task and MCP stdio executables must carry an execute bit (A3S Use §2.8). */
  readonly executable?: boolean;
}

function declaredFiles(m: ExtensionManifest): DeclaredFile[] {
  const out: DeclaredFile[] = [];
  for (const t of m.tools ?? []) {
    if ("task" in t.workload) {
      const s = t.workload.task.source;
      out.push(
        "executable" in s
          ? { path: s.executable.executable, what: `Tool '${t.id}' executable`, executable: true }
          : { path: s.release.release, what: `Tool '${t.id}'` },
      );
    } else {
      out.push({ path: t.workload.service.release, what: `Tool '${t.id}' release` });
      if (t.workload.service.contract) {
        out.push({
          path: t.workload.service.contract,
          what: `Tool '${t.id}' contract`,
          content: {
            code: "use.extension.tool_contract_invalid",
            reason: "a3s.package.tool_contract",
            max: 4 * MIB,
            wording: "Tool Service API contracts must be bounded UTF-8",
          },
        });
      }
    }
  }
  for (const s of m.mcpServers ?? []) {
    out.push(
      "stdio" in s.launch
        ? { path: s.launch.stdio.executable, what: `MCP surface '${s.id}' executable`, executable: true }
        : { path: s.launch["streamable-http"].release, what: `MCP surface '${s.id}'` },
    );
  }
  for (const f of m.flows ?? []) {
    out.push({
      path: f.source,
      what: `Flow '${f.id}' source`,
      content: {
        code: "use.extension.flow_source_invalid",
        reason: "a3s.package.flow_source",
        max: 4 * MIB,
        wording: "Flow sources must be bounded UTF-8",
      },
    });
  }
  for (const s of m.skills ?? []) {
    out.push({
      path: s.path,
      what: `Skill '${s.id}'`,
      content: {
        code: "use.extension.skill_invalid",
        reason: "a3s.package.skill",
        max: 2 * MIB,
        wording: "SKILL.md must be bounded UTF-8",
      },
    });
  }
  for (const u of m.ui ?? []) {
    for (const p of [u.entry, ...u.styles, ...u.scripts]) {
      out.push({
        path: p,
        what: `UI '${u.id}' asset`,
        content: {
          code: "use.extension.ui_asset_invalid",
          reason: "a3s.package.ui_asset",
          max: 2 * MIB,
          wording: "UI assets must be bounded UTF-8",
        },
      });
    }
  }
  return out;
}

/** README and declared-file rules against the canonical package root. */
export async function checkPackageFiles(
  fs: PackageFs,
  realRoot: string,
  manifest: ExtensionManifest | null,
): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const readme = await fs.lstat(joinPath(realRoot, "README.md"));
  let readmeProblem: string | null = null;
  if (readme === null) readmeProblem = "README.md is missing";
  else if (readme.kind !== "file") readmeProblem = `README.md is a ${readme.kind}, not a regular file`;
  else if (readme.size > 2 * MIB) readmeProblem = "README.md is larger than 2 MiB";
  else readmeProblem = boundedUtf8(await fs.readFile(joinPath(realRoot, "README.md"), 2 * MIB + 1), 2 * MIB);
  if (readmeProblem !== null) {
    out.push(
      diagnostic(
        "a3s.package.readme",
        referenceMessage(
          "use.extension.readme_invalid",
          `Cognitive packages require a bounded UTF-8 README.md: ${readmeProblem}`,
        ),
        { file: "README.md" },
      ),
    );
  }
  if (manifest === null) return out;
  for (const f of declaredFiles(manifest)) {
    const lst = await fs.lstat(joinPath(realRoot, f.path));
    if (lst !== null && lst.kind === "symlink") {
      out.push(
        diagnostic(
          "a3s.package.symlink",
          referenceMessage(
            "use.extension.package_symlink",
            `${f.what} path '${f.path}' is a link; declared files must be regular files.`,
          ),
          { file: f.path },
        ),
      );
      continue;
    }
    const r = await resolveContainedFile(fs, realRoot, f.path);
    if (!r.ok) {
      const code = r.reason === "escape" ? "use.extension.path_escape" : "use.extension.surface_invalid";
      const why =
        r.reason === "not_found"
          ? "does not exist"
          : r.reason === "escape"
            ? "resolves outside the package"
            : r.reason === "not_regular_file"
              ? "is not a regular file"
              : `cannot be read (${r.detail})`;
      out.push(
        diagnostic(
          r.reason === "escape" ? "a3s.package.path_escape" : "a3s.package.declared_file",
          referenceMessage(code, `${f.what} path '${f.path}' ${why}.`),
          { file: f.path },
        ),
      );
      continue;
    }
    if (f.executable === true && r.stat.executable === false) {
      out.push(
        diagnostic(
          "a3s.package.not_executable",
          referenceMessage("use.extension.surface_not_executable", `${f.what} '${f.path}' is not executable.`),
          { file: f.path, hint: `set its execute bit (chmod +x ${f.path})` },
        ),
      );
    }
    if (f.content !== undefined) {
      const problem =
        r.stat.size > f.content.max
          ? `the file is larger than ${f.content.max} bytes`
          : boundedUtf8(await fs.readFile(r.realPath, f.content.max + 1), f.content.max);
      if (problem !== null)
        out.push(
          diagnostic(
            f.content.reason,
            referenceMessage(f.content.code, `${f.content.wording}: '${f.path}': ${problem}`),
            { file: f.path },
          ),
        );
    }
  }
  return out;
}

export { rawDigest };
