import { describe, expect, test } from "vitest";
import { checkManifestText } from "../../src/a3s/manifest/check.js";
import { surfaceGraph } from "../../src/a3s/surfaces/readiness.js";
import { packageState, unavailableObservations, type ObservedState } from "../../src/a3s/surfaces/state.js";
import { WORKBENCH_MANIFEST } from "./own-package.js";

/** Our workbench manifest has the surface structure of the reference's plugin-v3 (test/reference/a3s-state.test.ts). */
const graph = surfaceGraph(checkManifestText(WORKBENCH_MANIFEST, "a3s-use-extension.acl").manifest!);
const by = (r: ReturnType<typeof packageState>) => Object.fromEntries(r.surfaces.map((s) => [s.surface, s]));

describe("package state (reference §4.2 expected results for our workbench manifest)", () => {
  test("local-cache failed, ui status unobserved: degraded, capability ready, both unpublished", () => {
    // The upstream test observes the required surfaces (and peek), fails local-cache and
    // leaves the optional ui status without an observation.
    const obs = unavailableObservations(graph, ["mcp:local-cache"]);
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
    ).toEqual(["mcp:local-cache", "ui:status"]);
  });
  test("required tool render failed: broken; skill audit and ui audit carry dependency-failed", () => {
    const r = packageState(graph, {
      desired: "enabled",
      hostCompatible: true,
      observations: unavailableObservations(graph, ["tool:render"]),
    });
    expect(r.state).toBe("broken");
    expect(r.capabilityReady).toBe(false);
    expect(by(r)["skill:audit"]!.reason).toBe("dependency-failed");
    expect(by(r)["ui:audit"]!.reason).toBe("dependency-failed");
    expect(r.surfaces.every((s) => !s.published)).toBe(true);
  });
  test("no observations: reconciling, nothing published", () => {
    const r = packageState(graph, { desired: "enabled", hostCompatible: true, observations: new Map() });
    expect(r.state).toBe("reconciling");
    expect(r.surfaces.some((s) => s.published)).toBe(false);
    expect(by(r)["tool:render"]!.reason).toBe("runtime-observation-missing");
  });
  test("--unavailable mcp:local-cache alone: degraded, only local-cache unpublished", () => {
    const r = packageState(graph, {
      desired: "enabled",
      hostCompatible: true,
      observations: unavailableObservations(graph, ["mcp:local-cache"]),
    });
    expect(r.state).toBe("degraded");
    expect(r.surfaces.filter((s) => !s.published).map((s) => s.surface)).toEqual(["mcp:local-cache"]);
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
    const draining = new Map<string, { state: ObservedState }>([["tool:render", { state: "draining" }]]);
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
    obs.set("tool:render", { state: "starting" });
    expect(packageState(graph, { desired: "enabled", hostCompatible: true, observations: obs }).state).toBe(
      "reconciling",
    );
    expect(() => unavailableObservations(graph, ["tool:nope"])).toThrow(/unknown surface/);
  });
});
