/**
 * The package-state cases (A3S reference §4.2 expected results) as one table, run over both
 * sources (issue 33 item 5): our workbench manifest (test/a3s/state.test.ts) and the reference's
 * plugin-v3 (test/reference/a3s-state.test.ts, skipped with a reason without the reference). The two
 * manifests have the same surface structure under different names; `SurfaceNames` says which
 * surface plays which part.
 */
import { describe, expect, test } from "vitest";
import { checkManifestText } from "../../src/a3s/manifest/check.js";
import { surfaceGraph } from "../../src/a3s/surfaces/readiness.js";
import { packageState, unavailableObservations, type ObservedState } from "../../src/a3s/surfaces/state.js";

export interface SurfaceNames {
  /** The optional MCP server whose failure degrades the package. */
  readonly library: string;
  /** The required tool the skill and the review UI depend on. */
  readonly tool: string;
  readonly skill: string;
  readonly ui: string;
}

const by = (r: ReturnType<typeof packageState>) => Object.fromEntries(r.surfaces.map((s) => [s.surface, s]));

export function stateCasesOn(source: string, manifest: string, n: SurfaceNames): void {
  describe(`package state (reference §4.2 expected results) on ${source}`, () => {
    const graph = surfaceGraph(checkManifestText(manifest, "a3s-use-extension.acl").manifest!);
    test(`${n.library} failed, ui status unobserved: degraded, capability ready, both unpublished`, () => {
      // The upstream test observes the required surfaces, fails the library and leaves the
      // optional ui status without an observation.
      const obs = unavailableObservations(graph, [n.library]);
      obs.delete("ui:status");
      const r = packageState(graph, { desired: "enabled", hostCompatible: true, observations: obs });
      expect(by(r)["ui:status"]!.reason).toBe("ui-observation-missing");
      expect(r.state).toBe("degraded");
      expect(r.capabilityReady).toBe(true);
      expect(
        r.surfaces
          .filter((s) => !s.published)
          .map((s) => s.surface)
          .sort(),
      ).toEqual([n.library, "ui:status"]);
    });
    test(`required ${n.tool} failed: broken; ${n.skill} and ${n.ui} carry dependency-failed`, () => {
      const r = packageState(graph, {
        desired: "enabled",
        hostCompatible: true,
        observations: unavailableObservations(graph, [n.tool]),
      });
      expect(r.state).toBe("broken");
      expect(r.capabilityReady).toBe(false);
      expect(by(r)[n.skill]!.reason).toBe("dependency-failed");
      expect(by(r)[n.ui]!.reason).toBe("dependency-failed");
      expect(r.surfaces.every((s) => !s.published)).toBe(true);
    });
    test("no observations: reconciling, nothing published", () => {
      const r = packageState(graph, { desired: "enabled", hostCompatible: true, observations: new Map() });
      expect(r.state).toBe("reconciling");
      expect(r.surfaces.some((s) => s.published)).toBe(false);
      expect(by(r)[n.tool]!.reason).toBe("runtime-observation-missing");
    });
    test(`--unavailable ${n.library} alone: degraded, only it unpublished`, () => {
      const r = packageState(graph, {
        desired: "enabled",
        hostCompatible: true,
        observations: unavailableObservations(graph, [n.library]),
      });
      expect(r.state).toBe("degraded");
      expect(r.surfaces.filter((s) => !s.published).map((s) => s.surface)).toEqual([n.library]);
    });
    test("all observed as desired: ready; host incompatible; disabled; absent", () => {
      expect(
        packageState(graph, {
          desired: "enabled",
          hostCompatible: true,
          observations: unavailableObservations(graph, []),
        }).state,
      ).toBe("ready");
      expect(packageState(graph, { desired: "enabled", hostCompatible: false, observations: new Map() }).state).toBe(
        "incompatible",
      );
      expect(
        packageState(graph, { desired: "installed-disabled", hostCompatible: true, observations: new Map() }).state,
      ).toBe("installed");
      const draining = new Map<string, { state: ObservedState }>([[n.tool, { state: "draining" }]]);
      expect(
        packageState(graph, { desired: "installed-disabled", hostCompatible: true, observations: draining }).state,
      ).toBe("draining");
      expect(packageState(graph, { desired: "absent", hostCompatible: true, observations: draining }).state).toBe(
        "draining",
      );
      expect(packageState(graph, { desired: "absent", hostCompatible: true, observations: new Map() }).state).toBe(
        "removed",
      );
    });
    test("starting is never satisfied; unknown surfaces are rejected", () => {
      const obs = unavailableObservations(graph, []);
      obs.set(n.tool, { state: "starting" });
      expect(packageState(graph, { desired: "enabled", hostCompatible: true, observations: obs }).state).toBe(
        "reconciling",
      );
      expect(() => unavailableObservations(graph, ["tool:nope"])).toThrow(/unknown surface/);
    });
  });
}
