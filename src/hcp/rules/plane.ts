/**
 * Planes and binding modes (§2.5). §8.2 (binding modes) is not available; we read the pack's mode
 * from `binding.mode` and a verb's own mode from `verbs.<key>.binding.mode` (see docs/hcp.md).
 */
import { at, member, pointerOf, quote } from "../json-access.js";
import type { JsonObject, JsonString } from "../json-reader.js";
import type { JsonDoc, PackReporter } from "../report.js";
import type { DeclaredVerb } from "./verbs.js";

export type Plane = "runtime" | "control";
export const CONTROL_BINDING_MODE = "mothership";

interface BindingMode {
  readonly mode: string;
  readonly node: JsonString;
  readonly pointer: string;
}

export function checkPlane(surface: JsonDoc, verbs: readonly DeclaredVerb[], report: PackReporter): Plane | null {
  const plane = readPlane(surface, report);
  const packMode = readBindingMode(surface, surface.root, "", report);
  const verbModes: (BindingMode & { verb: string })[] = [];
  for (const v of verbs) {
    if (v.decl === null) continue;
    const mode = readBindingMode(surface, v.decl, v.pointer, report);
    if (mode !== null) verbModes.push({ ...mode, verb: v.key });
  }

  // §2.5.3: one pack, one binding mode. The pack's own mode is the reference when it has one.
  const reference = packMode ?? verbModes[0] ?? null;
  let mixed = false;
  for (const vm of verbModes) {
    if (reference !== null && vm.mode !== reference.mode) {
      mixed = true;
      report.emit(
        "hcp.binding.mixed_modes",
        `${at(surface, vm.pointer)}: verb ${quote(vm.verb)} requires binding mode ${quote(vm.mode)} but the pack uses ${quote(reference.mode)}; capabilities needing different binding modes must be separate packs (HCP §2.5.3).`,
        {
          file: surface.file,
          span: surface.positions.span(vm.node.start, vm.node.end),
          pointer: vm.pointer,
          hint: `Move verb ${quote(vm.verb)} into its own pack.`,
          related: [
            {
              file: surface.file,
              span: surface.positions.span(reference.node.start, reference.node.end),
              message: `binding mode ${quote(reference.mode)} is declared here`,
            },
          ],
        },
      );
    }
  }

  if (plane === "control") {
    const effective = mixed ? null : reference;
    if (effective === null || effective.mode !== CONTROL_BINDING_MODE) {
      const planeNode = member(surface.root, "plane")!.value;
      const found =
        effective === null
          ? mixed
            ? "mixes binding modes"
            : "declares no binding mode"
          : `uses binding mode ${quote(effective.mode)}`;
      const planeSpan = surface.positions.span(planeNode.start, planeNode.end);
      const pointer = effective === null ? "/plane" : effective.pointer;
      report.emit(
        "hcp.plane.control_requires_mothership",
        `${at(surface, pointer)}: a control-plane pack must use binding mode "${CONTROL_BINDING_MODE}", but this pack ${found} (HCP §2.5.2).`,
        {
          file: surface.file,
          span: effective === null ? planeSpan : surface.positions.span(effective.node.start, effective.node.end),
          pointer,
          hint: `Set "binding": {"mode": "${CONTROL_BINDING_MODE}"}, or make the pack a runtime pack.`,
          related:
            effective === null
              ? undefined
              : [{ file: surface.file, span: planeSpan, message: "the pack is declared control-plane here" }],
        },
      );
    }
  }
  return plane;
}

function readPlane(surface: JsonDoc, report: PackReporter): Plane | null {
  const m = member(surface.root, "plane");
  if (m === undefined) return "runtime";
  if (m.value.kind === "string" && (m.value.value === "runtime" || m.value.value === "control")) return m.value.value;
  const shown = m.value.kind === "string" ? quote(m.value.value) : m.value.kind;
  report.atValue(
    "hcp.plane.invalid",
    surface,
    m.value,
    "/plane",
    `${at(surface, "/plane")}: plane must be "runtime" (the default) or "control", not ${shown} (HCP §2.5.1).`,
  );
  return null;
}

function readBindingMode(
  surface: JsonDoc,
  owner: JsonObject,
  ownerPointer: string,
  report: PackReporter,
): BindingMode | null {
  const b = member(owner, "binding");
  if (b === undefined) return null;
  const bp = pointerOf(ownerPointer, "binding");
  if (b.value.kind !== "object") {
    report.atValue(
      "hcp.field.wrong_type",
      surface,
      b.value,
      bp,
      `${at(surface, bp)}: binding must be an object such as {"mode": "mothership"}.`,
    );
    return null;
  }
  const mode = member(b.value, "mode");
  const mp = pointerOf(bp, "mode");
  if (mode === undefined) {
    report.atObject(
      "hcp.field.wrong_type",
      surface,
      b.value,
      bp,
      `${at(surface, bp)}: binding must carry "mode", a non-empty string (HCP §8.2 binding mode).`,
    );
    return null;
  }
  if (mode.value.kind !== "string" || mode.value.value === "") {
    report.atValue(
      "hcp.field.wrong_type",
      surface,
      mode.value,
      mp,
      `${at(surface, mp)}: the binding mode must be a non-empty string.`,
    );
    return null;
  }
  return { mode: mode.value.value, node: mode.value, pointer: mp };
}
