/**
 * Issue 33, Deliver 4: diagnostics are made one way. The string-coded builder
 * (src/diagnostics/build.ts) is private to src/diagnostics; every frontend builds through its typed
 * code rows. There is one collector with one cap (src/diagnostics/collector.ts) and one definition of
 * `DiagnosticPlace`. Each check runs on the real source tree after its detector is tried on made-up
 * text, so a detector that could never fire is caught too.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { DIAGNOSTIC_LIMIT } from "../../src/diagnostics/collector.js";
import { REPO_ROOT } from "../support/repo.js";
import { importsOf, posix, sourceFiles } from "./graph.js";

const BUILDER = "src/diagnostics/build.ts";
const COLLECTOR = "src/diagnostics/collector.ts";
const under = (path: string, dir: string): boolean => path.startsWith(`${dir}/`);

const files = sourceFiles(join(REPO_ROOT, "src")).map((abs) => ({
  file: posix(relative(REPO_ROOT, abs)),
  text: readFileSync(abs, "utf8"),
}));

/** A class field that is a list of findings, outside the collector: `readonly errors: Diagnostic[] = []`. */
const OWN_LIST = /^\s*(?:(?:private|protected|public|readonly)\s+)*\w+\s*:\s*(?:Diagnostic|YaoError)\[\]\s*=\s*\[\]/m;
/** A cap of the collector's size written as its own number. */
const OWN_CAP = /\b(?:[A-Z0-9_]*LIMIT|MAX_[A-Z0-9_]*(?:ERRORS|WARNINGS|DIAGNOSTICS))\s*=\s*200\b/;
const DEFINES_PLACE = /\b(?:type|interface)\s+DiagnosticPlace\b/;
/** `diagnostic` taken from src/diagnostics/diagnostic.ts: that module must not offer the builder. */
const BUILDER_FROM_TYPES = /export\s+(?:function|const)\s+diagnostic\b/;

describe("one way to make diagnostics", () => {
  it("the detectors fire on made-up text", () => {
    expect(OWN_LIST.test("class A {\n  readonly diagnostics: Diagnostic[] = [];\n}")).toBe(true);
    expect(OWN_LIST.test("  private errors: YaoError[] = [];")).toBe(true);
    expect(OWN_LIST.test("  const out: Diagnostic[] = [];")).toBe(false);
    expect(OWN_CAP.test("export const MAX_REPORTED_ERRORS = 200;")).toBe(true);
    expect(OWN_CAP.test("export const A3S_DIAGNOSTIC_LIMIT = 200;")).toBe(true);
    expect(OWN_CAP.test("export const A3S_DIAGNOSTIC_LIMIT = DIAGNOSTIC_LIMIT;")).toBe(false);
    expect(DEFINES_PLACE.test("export type DiagnosticPlace = {")).toBe(true);
    expect(BUILDER_FROM_TYPES.test("export function diagnostic(code: string")).toBe(true);
  });

  it("the source tree is scanned", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.map((f) => f.file)).toContain(BUILDER);
    expect(files.map((f) => f.file)).toContain(COLLECTOR);
  });

  it("no file outside src/diagnostics imports the string-coded builder", () => {
    const importers = files.flatMap(({ file, text }) =>
      importsOf(file, text)
        .filter((e) => e.to === BUILDER)
        .map((e) => e.from),
    );
    // The typed constructor and the collector use it; nobody else may.
    expect(importers.length).toBeGreaterThan(0);
    expect(importers.filter((f) => !under(f, "src/diagnostics"))).toEqual([]);
    const types = files.find((f) => f.file === "src/diagnostics/diagnostic.ts")!;
    expect(BUILDER_FROM_TYPES.test(types.text)).toBe(false);
  });

  it("no class keeps its own list of findings: they collect through the one collector", () => {
    expect(files.filter(({ file, text }) => file !== COLLECTOR && OWN_LIST.test(text)).map((f) => f.file)).toEqual([]);
    // The four collectors of the issue (and HARP's and HCP's reporters) use it.
    const users: Record<string, RegExp> = {
      "src/hns/context.ts": /class LoadContext[\s\S]*new DiagnosticCollector\(/,
      "src/yao/error.ts": /class ErrorSink[\s\S]*new Collector<YaoError>\(/,
      "src/a3s/manifest/schema.ts": /class Checker[\s\S]*new DiagnosticCollector\(/,
      "src/harp/validate.ts": /class ManifestReporter extends DiagnosticCollector</,
      "src/hcp/report.ts": /class PackReporter extends DiagnosticCollector</,
    };
    for (const [file, shape] of Object.entries(users)) {
      const text = files.find((f) => f.file === file)?.text;
      expect(text, file).toBeDefined();
      expect(shape.test(text!), file).toBe(true);
    }
  });

  it("the cap is written once", () => {
    expect(DIAGNOSTIC_LIMIT).toBe(200);
    expect(files.filter(({ file, text }) => file !== COLLECTOR && OWN_CAP.test(text)).map((f) => f.file)).toEqual([]);
  });

  it("DiagnosticPlace has one definition", () => {
    expect(files.filter(({ text }) => DEFINES_PLACE.test(text)).map((f) => f.file)).toEqual([
      "src/diagnostics/codes.ts",
    ]);
  });
});
