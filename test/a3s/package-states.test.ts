/**
 * The aggregate package state (reference §4.2 `PluginObservedState`, seed 004 "表面依赖与 readiness")
 * for every desired package state against the observations that decide it, on our workbench manifest
 * (required: mcp:catalog eager, tool:render lazy, tool:search eager, skill:audit, ui:audit; optional:
 * mcp:local-cache, skill:peek, ui:status). Each row is a golden case written by hand from the rule.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { checkManifestText } from "../../src/a3s/manifest/check.js";
import { surfaceGraph } from "../../src/a3s/surfaces/readiness.js";
import {
  packageState,
  unavailableObservations,
  type DesiredPackage,
  type ObservedState,
  type PackageState,
} from "../../src/a3s/surfaces/state.js";
import { REPO } from "./helpers.js";
import { WORKBENCH_MANIFEST } from "./own-package.js";

const graph = surfaceGraph(checkManifestText(WORKBENCH_MANIFEST, "a3s-use-extension.acl").manifest!);
const ALL = graph.map((n) => `${n.surface.kind}:${n.surface.id}`);
const EAGER = new Set(["mcp:catalog", "tool:search"]);
type Obs = "as-desired" | "none" | Partial<Record<string, ObservedState>>;

/** Every surface observed in the state its package's desired state asks for, then the overrides. */
function observations(desired: DesiredPackage, obs: Obs): Map<string, { state: ObservedState }> {
  const m = new Map<string, { state: ObservedState }>();
  if (obs === "none") return m;
  for (const k of ALL) m.set(k, { state: desired !== "enabled" ? "stopped" : EAGER.has(k) ? "healthy" : "prepared" });
  if (obs !== "as-desired") for (const [k, v] of Object.entries(obs)) m.set(k, { state: v! });
  return m;
}

/** [desired, host compatible, observations, expected state, capability ready] */
const CASES: [DesiredPackage, boolean, Obs, PackageState, boolean][] = [
  ["absent", true, "as-desired", "removed", false],
  ["absent", true, "none", "removed", false],
  ["absent", true, { "tool:render": "draining" }, "draining", false],
  ["absent", true, { "mcp:catalog": "healthy" }, "draining", false],
  ["absent", true, { "skill:peek": "failed" }, "draining", false],
  ["absent", false, "as-desired", "removed", false],
  ["installed-disabled", true, "as-desired", "installed", false],
  ["installed-disabled", true, "none", "installed", false],
  ["installed-disabled", true, { "tool:render": "draining", "mcp:catalog": "healthy" }, "draining", false],
  ["installed-disabled", true, { "mcp:catalog": "healthy" }, "reconciling", false],
  ["installed-disabled", true, { "ui:status": "failed" }, "reconciling", false],
  ["installed-disabled", false, "as-desired", "incompatible", false],
  ["enabled", true, "as-desired", "ready", true],
  ["enabled", true, { "tool:render": "healthy" }, "ready", true],
  ["enabled", true, { "mcp:local-cache": "failed" }, "degraded", true],
  ["enabled", true, { "ui:status": "stopped" }, "degraded", true],
  ["enabled", true, { "tool:render": "failed" }, "broken", false],
  ["enabled", true, { "tool:search": "prepared" }, "reconciling", false],
  ["enabled", true, { "tool:search": "starting" }, "reconciling", false],
  ["enabled", true, { "ui:audit": "draining" }, "reconciling", false],
  ["enabled", true, "none", "reconciling", false],
  ["enabled", false, "as-desired", "incompatible", false],
];

describe("aggregate package state for every desired state", () => {
  test.each(CASES)(
    "desired %s, host compatible %s, observed %j: %s",
    (desired, hostCompatible, obs, state, capabilityReady) => {
      const r = packageState(graph, { desired, hostCompatible, observations: observations(desired, obs) });
      expect({ state: r.state, capabilityReady: r.capabilityReady }).toEqual({ state, capabilityReady });
      expect(r.surfaces.some((s) => s.published)).toBe(capabilityReady);
      if (desired !== "enabled") expect(r.surfaces.every((s) => s.desired === "stopped")).toBe(true);
    },
  );

  test("--unavailable observes the other surfaces in the desired state of the package", () => {
    for (const [desired, state] of [
      ["absent", "removed"],
      ["installed-disabled", "installed"],
      ["enabled", "ready"],
    ] as const) {
      expect(
        packageState(graph, {
          desired,
          hostCompatible: true,
          observations: unavailableObservations(graph, [], desired),
        }).state,
      ).toBe(state);
    }
    expect(
      packageState(graph, {
        desired: "absent",
        hostCompatible: true,
        observations: unavailableObservations(graph, ["tool:render"], "absent"),
      }).state,
    ).toBe("draining");
    expect(
      packageState(graph, {
        desired: "installed-disabled",
        hostCompatible: true,
        observations: unavailableObservations(graph, ["tool:render"], "installed-disabled"),
      }).state,
    ).toBe("reconciling");
  });
});

describe("yaoc a3s readiness --desired (help: removed/draining, installed/draining/reconciling, ready/degraded/reconciling/broken)", () => {
  const dir = mkdtempSync(join(tmpdir(), "yaoc-states-"));
  writeFileSync(join(dir, "a3s-use-extension.acl"), WORKBENCH_MANIFEST);
  const run = (...args: string[]) =>
    JSON.parse(
      execFileSync(
        process.execPath,
        [join(REPO, "bin", "yaoc.js"), "a3s", "readiness", dir, "--format", "json", ...args],
        { encoding: "utf8" },
      ),
    ) as { state: string; surfaces: { observed: string }[] };
  test.each([
    [["--desired", "absent"], "removed"],
    [["--desired", "absent", "--unavailable", "tool:render"], "draining"],
    [["--desired", "installed-disabled"], "installed"],
    [["--desired", "installed-disabled", "--unavailable", "mcp:catalog"], "reconciling"],
    [["--unavailable", "mcp:local-cache"], "degraded"],
    [["--unavailable", "tool:render"], "broken"],
  ])("%j gives %s", (args, state) => {
    const r = run(...args);
    expect(r.state).toBe(state);
    if (args.includes("absent") || args.includes("installed-disabled"))
      expect(r.surfaces.filter((s) => s.observed !== "failed").every((s) => s.observed === "stopped")).toBe(true);
  });
  test("the help text names the states", () => {
    const help = execFileSync(process.execPath, [join(REPO, "bin", "yaoc.js"), "a3s", "readiness", "--help"], {
      encoding: "utf8",
    });
    for (const s of ["removed", "draining", "installed", "reconciling", "ready", "degraded", "broken"])
      expect(help).toContain(s);
  });
});
