import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { checkManifestText } from "../../src/a3s/manifest/check.js";
import { surfaceGraph } from "../../src/a3s/surfaces/readiness.js";
import { packageState, unavailableObservations, type ObservedState } from "../../src/a3s/surfaces/state.js";
import { A3S as SHARED_A3S, describeReference } from "./reference.js";

const by = (r: ReturnType<typeof packageState>) => Object.fromEntries(r.surfaces.map((s) => [s.surface, s]));

describeReference("package state (reference §4.2 expected results for plugin-v3)", () => {
  const graph = surfaceGraph(
    checkManifestText(
      readFileSync(join(SHARED_A3S, "Use", "crates", "extension", "fixtures", "manifests", "plugin-v3.acl"), "utf8"),
      "a3s-use-extension.acl",
    ).manifest!,
  );
  test("local-library failed, ui status unobserved: degraded, capability ready, both unpublished", () => {
    // The upstream test observes the required surfaces (and quick-look), fails local-library and
    // leaves the optional ui status without an observation.
    const obs = unavailableObservations(graph, ["mcp:local-library"]);
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
    ).toEqual(["mcp:local-library", "ui:status"]);
  });
  test("required tool convert failed: broken; skill review and ui review carry dependency-failed", () => {
    const r = packageState(graph, {
      desired: "enabled",
      hostCompatible: true,
      observations: unavailableObservations(graph, ["tool:convert"]),
    });
    expect(r.state).toBe("broken");
    expect(r.capabilityReady).toBe(false);
    expect(by(r)["skill:review"]!.reason).toBe("dependency-failed");
    expect(by(r)["ui:review"]!.reason).toBe("dependency-failed");
    expect(r.surfaces.every((s) => !s.published)).toBe(true);
  });
  test("no observations: reconciling, nothing published", () => {
    const r = packageState(graph, { desired: "enabled", hostCompatible: true, observations: new Map() });
    expect(r.state).toBe("reconciling");
    expect(r.surfaces.some((s) => s.published)).toBe(false);
    expect(by(r)["tool:convert"]!.reason).toBe("runtime-observation-missing");
  });
  test("--unavailable mcp:local-library alone: degraded, only local-library unpublished", () => {
    const r = packageState(graph, {
      desired: "enabled",
      hostCompatible: true,
      observations: unavailableObservations(graph, ["mcp:local-library"]),
    });
    expect(r.state).toBe("degraded");
    expect(r.surfaces.filter((s) => !s.published).map((s) => s.surface)).toEqual(["mcp:local-library"]);
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
    const draining = new Map<string, { state: ObservedState }>([["tool:convert", { state: "draining" }]]);
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
    obs.set("tool:convert", { state: "starting" });
    expect(packageState(graph, { desired: "enabled", hostCompatible: true, observations: obs }).state).toBe(
      "reconciling",
    );
    expect(() => unavailableObservations(graph, ["tool:nope"])).toThrow(/unknown surface/);
  });
});
