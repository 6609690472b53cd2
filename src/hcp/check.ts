/**
 * Checks one Harness Pack (HCP/1.x §2) and reports it in the common result shape. Surface-only
 * rules run whenever surface.json parses; rules that relate the manifest to the policy run only when
 * both parse, so one broken file does not bury the report in follow-on errors.
 */
import type { CheckResult } from "../diagnostics/result.js";
import type { PackageFs } from "../fs/package-fs.js";
import { displayName, UNDECODABLE_NAME_HINT, undecodableNameMessage } from "../fs/names.js";
import { packageView, undecodableNames } from "../fs/snapshot.js";
import { packDigest } from "./digest.js";
import { HARNESS, loadPack, MAX_PROTOCOL_FILE_BYTES, POLICY, SURFACE } from "./pack-files.js";
import { parseJsonFile } from "./parse-documents.js";
import { PackReporter, type JsonDoc } from "./report.js";
import { checkPackId, checkSurfaceId } from "./rules/identity.js";
import { checkManifestPaths } from "./rules/manifest-paths.js";
import { checkMetadata } from "./rules/metadata.js";
import { checkPlane } from "./rules/plane.js";
import { checkStimulusPolicy, checkTriggers } from "./rules/triggers.js";
import { checkVerbPolicy, checkVerbs } from "./rules/verbs.js";

export async function checkHcp(diskFs: PackageFs, path: string): Promise<CheckResult> {
  const report = new PackReporter();
  // One read: the protocol files, the manifest-path rules and the digest all come from this snapshot.
  // Only the protocol files are ever read, so larger files are recorded by size alone.
  const fs = await packageView(diskFs, path, {
    maxFileBytes: MAX_PROTOCOL_FILE_BYTES,
    maxTotalBytes: 64 * 1024 * 1024,
  });
  const pack = await loadPack(fs, path, report);
  if (pack === null) return result(path, report, null, {}, new Map());
  for (const rel of await undecodableNames(fs, pack.realRoot)) {
    report.emit("hcp.pack.non_utf8_name", undecodableNameMessage(rel), {
      file: displayName(rel),
      hint: UNDECODABLE_NAME_HINT,
    });
  }

  const sources = new Map<string, string>();
  for (const f of pack.files.values()) sources.set(f.file, f.text);

  const harness = pack.files.get(HARNESS);
  if (harness !== undefined && !harness.utf8) {
    report.emit(
      "hcp.harness_md.not_utf8",
      `${harness.file} is not valid UTF-8 text; runtimes and agents read it as Markdown.`,
      {
        file: harness.file,
        hint: "Re-save HARNESS.md as UTF-8.",
      },
    );
  }
  const surfaceFile = pack.files.get(SURFACE);
  const policyFile = pack.files.get(POLICY);
  const surface: JsonDoc | null = surfaceFile === undefined ? null : parseJsonFile(surfaceFile, report);
  const policy: JsonDoc | null = policyFile === undefined ? null : parseJsonFile(policyFile, report);

  const extra: Record<string, unknown> = {};
  if (surface !== null) {
    const packId = checkPackId(surface, report);
    const metadata = checkMetadata(surface, packId, report);
    const verbs = checkVerbs(surface, report);
    const triggers = checkTriggers(surface, report);
    const plane = checkPlane(surface, verbs ?? [], report);
    await checkManifestPaths(fs, pack.realRoot, surface, report);
    if (policy !== null) {
      checkSurfaceId(policy, surface, packId, report);
      if (verbs !== null) checkVerbPolicy(surface, policy, verbs, report);
      if (triggers !== null) checkStimulusPolicy(surface, policy, triggers, report);
    }
    extra.pack_id = packId;
    extra.plane = plane;
    extra.hcp = metadata.hcp;
    extra.metadata_source = metadata.source;
    extra.verbs = (verbs ?? []).map((v) => v.key);
    extra.triggers = (triggers ?? []).map((t) => t.ref);
  } else if (policy !== null) {
    checkSurfaceId(policy, null, null, report);
  }

  const digest =
    pack.files.size === 3 ? packDigest(new Map([...pack.files.values()].map((f) => [f.name, f.bytes]))) : null;
  extra.digest = digest;
  return result(path, report, digest, extra, sources);
}

function result(
  path: string,
  report: PackReporter,
  digest: string | null,
  extra: Record<string, unknown>,
  sources: ReadonlyMap<string, string>,
): CheckResult {
  const valid = !report.hasErrors();
  return {
    path,
    kind: "hcp",
    valid,
    identity: valid ? digest : null,
    diagnostics: report.closed(path),
    extra,
    sources,
  };
}
