/**
 * Protocol metadata (§2.2.4, §2.6). Explicit metadata is the manifest member `metadata`; without it
 * the metadata is derived from manifest fields (id → pack_id, kind → adapter_kind, hcp → hcp) and
 * validated the same way. Where the derived object has no `hcp`, the pack is read as targeting
 * HCP/1.x, the version this linter implements (see docs/hcp.md).
 */
import { at, member, quote } from "../json-access.js";
import type { JsonNode } from "../json-reader.js";
import type { JsonDoc, PackReporter } from "../report.js";

export const SUPPORTED_HCP_VERSION = 1;

export interface ProtocolMetadata {
  readonly source: "explicit" | "derived";
  /** The protocol version when it is a number, else null. */
  readonly hcp: number | null;
  readonly packId: string | null;
  readonly adapterKind: string | null;
}

export function checkMetadata(surface: JsonDoc, packId: string | null, report: PackReporter): ProtocolMetadata {
  const explicit = member(surface.root, "metadata");
  if (explicit === undefined) return derive(surface, packId, report);
  if (explicit.value.kind !== "object") {
    report.atValue(
      "hcp.field.wrong_type",
      surface,
      explicit.value,
      "/metadata",
      `${at(surface, "/metadata")}: protocol metadata must be an object such as {"hcp": 1, "pack_id": "…"}.`,
    );
    return { source: "explicit", hcp: null, packId: null, adapterKind: null };
  }
  const meta = explicit.value;

  let hcp: number | null = null;
  const hcpMember = member(meta, "hcp");
  if (hcpMember === undefined) {
    report.atObject(
      "hcp.metadata.missing_hcp",
      surface,
      meta,
      "/metadata",
      `${at(surface, "/metadata")}: protocol metadata must carry "hcp", the protocol version the pack targets (HCP §2.6.1).`,
      'Add "hcp": 1 for HCP/1.x.',
    );
  } else {
    hcp = checkHcpValue(surface, hcpMember.value, "/metadata/hcp", report);
  }

  let metaPackId: string | null = null;
  const idMember = member(meta, "pack_id");
  if (idMember === undefined) {
    report.atObject(
      "hcp.metadata.missing_pack_id",
      surface,
      meta,
      "/metadata",
      `${at(surface, "/metadata")}: protocol metadata must carry "pack_id", equal to the manifest id (HCP §2.2.4).`,
      packId !== null ? `Add "pack_id": ${JSON.stringify(packId)}.` : undefined,
    );
  } else if (idMember.value.kind !== "string") {
    report.atValue(
      "hcp.field.wrong_type",
      surface,
      idMember.value,
      "/metadata/pack_id",
      `${at(surface, "/metadata/pack_id")}: pack_id must be a string equal to the manifest id.`,
    );
  } else {
    metaPackId = idMember.value.value;
    if (packId !== null && metaPackId !== packId) {
      report.atValue(
        "hcp.identity.metadata_pack_id_mismatch",
        surface,
        idMember.value,
        "/metadata/pack_id",
        `${at(surface, "/metadata/pack_id")}: metadata pack_id ${quote(metaPackId)} differs from the manifest id ${quote(packId)} (HCP §2.2.4).`,
        `Set metadata.pack_id to ${JSON.stringify(packId)}, or drop it and let it be derived from id.`,
      );
    }
  }

  let adapterKind: string | null = null;
  const kindMember = member(meta, "adapter_kind");
  if (kindMember !== undefined)
    adapterKind = checkAdapterKind(surface, kindMember.value, "/metadata/adapter_kind", "adapter_kind", report);

  return { source: "explicit", hcp, packId: metaPackId, adapterKind };
}

function derive(surface: JsonDoc, packId: string | null, report: PackReporter): ProtocolMetadata {
  const hcpMember = member(surface.root, "hcp");
  const hcp = hcpMember === undefined ? SUPPORTED_HCP_VERSION : checkHcpValue(surface, hcpMember.value, "/hcp", report);
  const kindMember = member(surface.root, "kind");
  const adapterKind =
    kindMember === undefined
      ? null
      : checkAdapterKind(surface, kindMember.value, "/kind", "kind (the derived adapter_kind)", report);
  // pack_id is derived from id, which checkPackId has already validated.
  return { source: "derived", hcp, packId, adapterKind };
}

function checkHcpValue(surface: JsonDoc, node: JsonNode, pointer: string, report: PackReporter): number | null {
  if (node.kind !== "number") {
    report.atValue(
      "hcp.protocol.invalid_version",
      surface,
      node,
      pointer,
      `${at(surface, pointer)}: the hcp protocol version must be a number, but it is ${node.kind === "string" ? `the string ${quote(node.value)}` : node.kind} (HCP §2.6.1).`,
      'Write "hcp": 1 (a number) for HCP/1.x.',
    );
    return null;
  }
  if (node.value !== SUPPORTED_HCP_VERSION) {
    report.atValue(
      "hcp.protocol.unsupported_version",
      surface,
      node,
      pointer,
      `${at(surface, pointer)}: the pack targets hcp ${node.raw}, which this linter does not support; it supports hcp ${SUPPORTED_HCP_VERSION} (HCP/1.x) (HCP §2.6.1, §2.6.2).`,
      `Target HCP/1.x with "hcp": ${SUPPORTED_HCP_VERSION}, or check the pack with a linter for that protocol version.`,
    );
  }
  return node.value;
}

function checkAdapterKind(
  surface: JsonDoc,
  node: JsonNode,
  pointer: string,
  role: string,
  report: PackReporter,
): string | null {
  if (node.kind === "string" && node.value !== "") return node.value;
  report.atValue(
    "hcp.metadata.invalid_adapter_kind",
    surface,
    node,
    pointer,
    `${at(surface, pointer)}: ${role} must be a non-empty string naming the adapter kind (HCP §2.6.3).`,
  );
  return null;
}
