/**
 * Desired and observed surface states and the aggregate package state (reference §4.2,
 * `surface_reconciler.rs`). Observations are given per surface key `kind:id`; the CLI's
 * `--unavailable` marks surfaces failed and observes every other surface in its desired state
 * (stopped unless the package is enabled).
 */
import { readinessLevels, type SurfaceNode } from "./readiness.js";

export type ObservedState = "pending" | "prepared" | "starting" | "healthy" | "failed" | "draining" | "stopped";
export type DesiredPackage = "enabled" | "installed-disabled" | "absent";
export type DesiredSurface = "stopped" | "prepared" | "healthy";
export type PackageState =
  | "incompatible"
  | "removed"
  | "draining"
  | "installed"
  | "reconciling"
  | "broken"
  | "degraded"
  | "ready";

export interface SurfaceState {
  surface: string;
  level: number;
  required: boolean;
  desired: DesiredSurface;
  observed: ObservedState;
  reason: string | null;
  satisfied: boolean;
  published: boolean;
}

export interface PackageStateReport {
  state: PackageState;
  capabilityReady: boolean;
  surfaces: SurfaceState[];
}

export class StateError extends Error {
  constructor(
    readonly referenceCode: string,
    message: string,
  ) {
    super(message);
  }
}

const MISSING_REASON: Record<string, string> = {
  tool: "runtime-observation-missing",
  mcp: "mcp-observation-missing",
  okf: "knowledge-observation-missing",
  flow: "flow-observation-missing",
  skill: "skill-observation-missing",
  ui: "ui-observation-missing",
};

export function isSatisfied(desired: DesiredSurface, observed: ObservedState): boolean {
  if (observed === "starting" || observed === "draining") return false;
  if (desired === "stopped") return observed === "stopped";
  if (desired === "prepared") return observed === "prepared" || observed === "healthy";
  return observed === "healthy";
}

export interface StateInput {
  desired: DesiredPackage;
  hostCompatible: boolean;
  /** Explicit observations by `kind:id`, with an optional reason. */
  observations: ReadonlyMap<string, { state: ObservedState; reason?: string }>;
}

export function packageState(graph: readonly SurfaceNode[], input: StateInput): PackageStateReport {
  if (graph.length > 256)
    throw new StateError("use.plugin.reconcile_invalid", "A package may declare at most 256 surfaces.");
  const levels = readinessLevels(graph);
  if (levels === null)
    throw new StateError("use.plugin.reconcile_invalid", "The named surface dependency graph contains a cycle.");
  const nodes = new Map(graph.map((n) => [`${n.surface.kind}:${n.surface.id}`, n]));
  for (const k of input.observations.keys())
    if (!nodes.has(k)) throw new StateError("use.plugin.reconcile_invalid", `Observation for unknown surface '${k}'.`);
  const out = new Map<string, SurfaceState>();
  for (const l of levels) {
    const node = nodes.get(l.surface)!;
    const kind = node.surface.kind;
    const enabled = input.desired === "enabled";
    const desired: DesiredSurface = !enabled
      ? "stopped"
      : kind === "okf" || ((kind === "tool" || kind === "mcp") && node.activation === "eager")
        ? "healthy"
        : "prepared";
    const explicit = input.observations.get(l.surface);
    let observed: ObservedState;
    let reason: string | null = null;
    if (!enabled) {
      observed = explicit?.state ?? "stopped";
      reason = explicit ? (explicit.reason ?? null) : "package-not-enabled";
    } else if (!input.hostCompatible) {
      observed = "failed";
      reason = "host-incompatible";
    } else {
      observed = explicit?.state ?? "pending";
      reason = explicit ? (explicit.reason ?? null) : MISSING_REASON[kind]!;
      if (observed !== "failed") {
        const deps = node.dependencies.map((d) => out.get(`${d.kind}:${d.id}`)!);
        if (deps.some((d) => d.observed === "failed")) {
          observed = "failed";
          reason = "dependency-failed";
        } else if (deps.some((d) => !d.satisfied)) {
          observed = "pending";
          reason = "dependency-pending";
        }
      }
    }
    out.set(l.surface, {
      surface: l.surface,
      level: l.level,
      required: l.required,
      desired,
      observed,
      reason,
      satisfied: isSatisfied(desired, observed),
      published: false,
    });
  }
  const surfaces = levels.map((l) => out.get(l.surface)!);
  let state: PackageState;
  if (input.desired !== "absent" && !input.hostCompatible) state = "incompatible";
  else if (input.desired === "absent") state = surfaces.every((s) => s.observed === "stopped") ? "removed" : "draining";
  else if (input.desired === "installed-disabled")
    state = surfaces.every((s) => s.observed === "stopped")
      ? "installed"
      : surfaces.some((s) => s.observed === "draining")
        ? "draining"
        : "reconciling";
  else if (surfaces.some((s) => s.required && s.observed === "failed")) state = "broken";
  else if (surfaces.some((s) => s.required && !s.satisfied)) state = "reconciling";
  else if (surfaces.some((s) => !s.required && !s.satisfied)) state = "degraded";
  else state = "ready";
  const capabilityReady = input.desired === "enabled" && (state === "ready" || state === "degraded");
  if (capabilityReady) for (const s of surfaces) s.published = s.satisfied;
  return { state, capabilityReady, surfaces };
}

/**
 * `--unavailable kind:id,...`: those surfaces failed, every other surface observed in its desired
 * state: healthy or prepared when the package is enabled, stopped when it is installed-disabled or
 * absent (so `--desired absent` alone reports `removed` and `installed-disabled` reports `installed`).
 */
export function unavailableObservations(
  graph: readonly SurfaceNode[],
  unavailable: readonly string[],
  desired: DesiredPackage = "enabled",
): Map<string, { state: ObservedState; reason?: string }> {
  const known = new Set(graph.map((n) => `${n.surface.kind}:${n.surface.id}`));
  for (const u of unavailable)
    if (!known.has(u)) throw new StateError("use.plugin.reconcile_invalid", `Observation for unknown surface '${u}'.`);
  const m = new Map<string, { state: ObservedState; reason?: string }>();
  for (const n of graph) {
    const k = `${n.surface.kind}:${n.surface.id}`;
    const healthy =
      n.surface.kind === "okf" || ((n.surface.kind === "tool" || n.surface.kind === "mcp") && n.activation === "eager");
    const asDesired: ObservedState = desired !== "enabled" ? "stopped" : healthy ? "healthy" : "prepared";
    m.set(k, unavailable.includes(k) ? { state: "failed", reason: "unavailable" } : { state: asDesired });
  }
  return m;
}
