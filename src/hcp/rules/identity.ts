/** Pack identity (§2.2): `id` is the pack_id; policy `surface_id` must equal it. */
import { at, hasUpperCase, member, quote, scalarLength } from "../json-access.js";
import type { JsonString } from "../json-reader.js";
import type { JsonDoc, PackReporter } from "../report.js";

export const MAX_PACK_ID_CHARS = 128;

/** Checks `id` and returns it when it is a string (even an invalid one, so later rules compare against it). */
export function checkPackId(surface: JsonDoc, report: PackReporter): string | null {
  const m = member(surface.root, "id");
  if (m === undefined) {
    report.atObject(
      "hcp.identity.missing_id",
      surface,
      surface.root,
      "",
      `${surface.name} has no "id"; the manifest id is the pack_id (HCP §2.2.1).`,
      'Add "id": "<lower-case pack id>".',
    );
    return null;
  }
  if (m.value.kind !== "string") {
    report.atValue(
      "hcp.field.wrong_type",
      surface,
      m.value,
      "/id",
      `${at(surface, "/id")}: the pack_id must be a string.`,
    );
    return null;
  }
  checkPackIdValue(surface, m.value, "/id", "pack_id", report);
  return m.value.value;
}

/** §2.2.2 on a pack_id-valued string; shared by `id` and explicit metadata `pack_id`. */
export function checkPackIdValue(
  doc: JsonDoc,
  node: JsonString,
  pointer: string,
  role: string,
  report: PackReporter,
): void {
  const length = scalarLength(node.value);
  if (length < 1 || length > MAX_PACK_ID_CHARS) {
    report.atValue(
      "hcp.identity.id_length",
      doc,
      node,
      pointer,
      `${at(doc, pointer)}: ${role} must be 1 to ${MAX_PACK_ID_CHARS} characters long, but it has ${length} (HCP §2.2.2).`,
    );
  }
  if (hasUpperCase(node.value)) {
    report.atValue(
      "hcp.identity.id_not_lowercase",
      doc,
      node,
      pointer,
      `${at(doc, pointer)}: ${role} ${quote(node.value)} contains upper-case characters; it must be lower-case (HCP §2.2.2).`,
      `Use ${quote(node.value.toLowerCase())}.`,
    );
  }
}

export function checkSurfaceId(
  policy: JsonDoc,
  surface: JsonDoc | null,
  packId: string | null,
  report: PackReporter,
): void {
  const m = member(policy.root, "surface_id");
  if (m === undefined) {
    report.atObject(
      "hcp.identity.missing_surface_id",
      policy,
      policy.root,
      "",
      `${policy.name} has no "surface_id"; it must name the pack it governs (HCP §2.2.3).`,
      packId !== null ? `Add "surface_id": ${JSON.stringify(packId)}.` : undefined,
    );
    return;
  }
  if (m.value.kind !== "string") {
    report.atValue(
      "hcp.field.wrong_type",
      policy,
      m.value,
      "/surface_id",
      `${at(policy, "/surface_id")}: surface_id must be a string equal to the pack_id.`,
    );
    return;
  }
  if (packId !== null && surface !== null && m.value.value !== packId) {
    const idMember = member(surface.root, "id")!;
    report.emit(
      "hcp.identity.surface_id_mismatch",
      `${at(policy, "/surface_id")}: surface_id ${quote(m.value.value)} differs from the pack_id ${quote(packId)} in ${surface.name}; a pack whose policy names another surface is rejected (HCP §2.2.3).`,
      {
        file: policy.file,
        span: policy.positions.span(m.value.start, m.value.end),
        pointer: "/surface_id",
        hint: `Set surface_id to ${JSON.stringify(packId)} (or fix the manifest id).`,
        related: [
          {
            file: surface.file,
            span: surface.positions.span(idMember.value.start, idMember.value.end),
            message: "the pack_id is declared here",
          },
        ],
      },
    );
  }
}
