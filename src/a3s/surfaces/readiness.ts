/**
 * The surface graph of a manifest and its readiness levels (reference §4.1–4.2).
 */
import type { ExtensionManifest, SurfaceKind } from "../manifest/schema.js";

export interface SurfaceRef {
  kind: SurfaceKind;
  id: string;
}
export interface SurfaceNode {
  surface: SurfaceRef;
  activation: "eager" | "lazy";
  optional: boolean;
  dependencies: SurfaceRef[];
}

/** Graph order: flow < mcp < okf < skill < tool < ui, then ID bytes. */
const KIND_ORDER: Record<SurfaceKind, number> = { flow: 0, mcp: 1, okf: 2, skill: 3, tool: 4, ui: 5 };

function cmpRef(a: SurfaceRef, b: SurfaceRef): number {
  return KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

const refs = (kind: SurfaceKind, ids: readonly string[]): SurfaceRef[] => ids.map((id) => ({ kind, id }));

export function surfaceGraph(m: ExtensionManifest): SurfaceNode[] {
  const nodes: SurfaceNode[] = [];
  for (const t of m.tools ?? [])
    nodes.push({
      surface: { kind: "tool", id: t.id },
      activation: t.activation,
      optional: t.optional,
      dependencies: [],
    });
  for (const s of m.mcpServers ?? [])
    nodes.push({
      surface: { kind: "mcp", id: s.id },
      activation: s.activation,
      optional: s.optional,
      dependencies: [],
    });
  for (const o of m.okf ?? [])
    nodes.push({ surface: { kind: "okf", id: o.id }, activation: "eager", optional: o.optional, dependencies: [] });
  for (const f of m.flows ?? []) {
    nodes.push({
      surface: { kind: "flow", id: f.id },
      activation: "lazy",
      optional: f.optional,
      dependencies: [...refs("tool", f.requiresTools), ...refs("mcp", f.requiresMcp), ...refs("okf", f.requiresOkf)],
    });
  }
  for (const s of m.skills ?? []) {
    nodes.push({
      surface: { kind: "skill", id: s.id },
      activation: "lazy",
      optional: s.optional,
      dependencies: [
        ...refs("tool", s.requiresTools),
        ...refs("mcp", s.requiresMcp),
        ...refs("okf", s.requiresOkf),
        ...refs("flow", s.requiresFlows),
      ],
    });
  }
  for (const u of m.ui ?? []) {
    nodes.push({
      surface: { kind: "ui", id: u.id },
      activation: "lazy",
      optional: u.optional,
      dependencies: [
        ...(u.skill ? refs("skill", [u.skill]) : []),
        ...refs("tool", u.bindTools),
        ...refs("mcp", u.bindMcp),
        ...refs("flow", u.bindFlows),
      ],
    });
  }
  for (const n of nodes) n.dependencies.sort(cmpRef);
  return nodes.sort((a, b) => cmpRef(a.surface, b.surface));
}

export interface ReadinessEntry {
  surface: string;
  level: number;
  required: boolean;
}

const key = (r: SurfaceRef) => `${r.kind}:${r.id}`;

/**
 * Levels in rounds (a node's level is 1 + its deepest dependency), required closure from every
 * non-optional node; returns null on a cycle. Output in (level, ref) order.
 */
export function readinessLevels(graph: readonly SurfaceNode[]): ReadinessEntry[] | null {
  const level = new Map<string, number>();
  let pending = [...graph];
  while (pending.length > 0) {
    const next: SurfaceNode[] = [];
    const done: [string, number][] = [];
    for (const n of pending) {
      const deps = n.dependencies.map((d) => level.get(key(d)));
      if (deps.every((d) => d !== undefined))
        done.push([key(n.surface), deps.length === 0 ? 0 : 1 + (deps as number[]).reduce((a, b) => Math.max(a, b))]);
      else next.push(n);
    }
    if (done.length === 0) return null;
    for (const [k, l] of done) level.set(k, l);
    pending = next;
  }
  const byKey = new Map(graph.map((n) => [key(n.surface), n]));
  const required = new Set<string>();
  const stack = graph.filter((n) => !n.optional).map((n) => key(n.surface));
  while (stack.length > 0) {
    const k = stack.pop()!;
    if (required.has(k)) continue;
    required.add(k);
    for (const d of byKey.get(k)?.dependencies ?? []) stack.push(key(d));
  }
  return [...graph]
    .sort((a, b) => level.get(key(a.surface))! - level.get(key(b.surface))! || cmpRef(a.surface, b.surface))
    .map((n) => ({
      surface: key(n.surface),
      level: level.get(key(n.surface))!,
      required: required.has(key(n.surface)),
    }));
}
