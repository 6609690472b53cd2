/** Our own structural tests of the SARIF, GitHub and display-column code (no reference material needed). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// A renderer input of any code: tests may use the builder that is private to src/diagnostics.
import { diagnostic } from "../../src/diagnostics/build.js";
import type { Span } from "../../src/diagnostics/diagnostic.js";
import { TextPositions } from "../../src/diagnostics/text-positions.js";
import { escapeData, escapeProperty, renderGithub } from "../../src/output/format-github.js";
import { toJsonDiagnostic, jsonDiagnostics } from "../../src/output/format-json.js";
import { pathToUri, sarifLog } from "../../src/output/format-sarif.js";
import { ALL_CODES } from "../../src/codes/registry.js";
import type { CheckResult } from "../../src/diagnostics/result.js";
import { REPO_ROOT } from "../support/shared.js";

const span = (line: number, column: number, endColumn: number, byte: number): Span => ({
  start: { line, column, byte },
  end: { line, column: endColumn, byte: byte + (endColumn - column) },
});

const results: CheckResult[] = [
  {
    path: "pkgs/a.hns",
    kind: "hns",
    valid: false,
    identity: null,
    diagnostics: [
      diagnostic("yao.type_mismatch", "expected Int, found String", {
        file: "pkgs/a.hns",
        span: span(3, 5, 10, 40),
        hint: "make the body an Int",
        label: "this is a String",
        function: "add-one",
        related: [{ file: "pkgs/a.hns", span: span(2, 1, 4, 20), message: "the return type is declared here" }],
      }),
      diagnostic("hns.unknown_field", "unknown manifest field 'colour'", {
        severity: "warning",
        file: "pkgs/a.hns",
        span: span(1, 2, 8, 1),
      }),
      diagnostic("yao.type_mismatch", "second one", { file: "pkgs/a.hns", span: span(4, 1, 2, 60) }),
    ],
  },
  {
    path: "my app",
    kind: "harp",
    valid: false,
    identity: null,
    diagnostics: [
      diagnostic("harp.duplicate_key", "duplicate key", { file: "my app/harp,1.json", pointer: "/x" }),
      diagnostic("cli.not_found", "no file at all"),
    ],
  },
];

describe("SARIF", () => {
  const log = sarifLog(results, { toolVersion: "9.9.9", docsUri: "file:///opt/yaoc/docs/diagnostics.md" });
  const run = log.runs[0]!;

  it("is one 2.1.0 log with one run for the invocation", () => {
    expect(log.version).toBe("2.1.0");
    expect(log.$schema).toContain("sarif-schema-2.1.0.json");
    expect(log.runs).toHaveLength(1);
    expect(run.tool.driver).toMatchObject({ name: "yaoc", version: "9.9.9" });
    expect(run.columnKind).toBe("unicodeCodePoints");
  });

  it("has one rule per code reported, with the code table row and a helpUri anchor", () => {
    const rules = run.tool.driver.rules!;
    expect(rules.map((r) => r.id)).toEqual([
      "yao.type_mismatch",
      "hns.unknown_field",
      "harp.duplicate_key",
      "cli.not_found",
    ]);
    const row = ALL_CODES.find((r) => r.code === "yao.type_mismatch")!;
    expect(rules[0]!.fullDescription!.text).toContain(row.summary.replace(/\.$/, ""));
    expect(rules[0]!.fullDescription!.text).toContain(row.clause);
    expect(rules[0]!.helpUri).toBe("file:///opt/yaoc/docs/diagnostics.md#yao.type_mismatch");
    expect(rules[1]!.defaultConfiguration!.level).toBe("warning");
  });

  it("the helpUri anchors exist in docs/diagnostics.md", () => {
    const doc = readFileSync(join(REPO_ROOT, "docs/diagnostics.md"), "utf8");
    for (const r of ALL_CODES) expect(doc).toContain(`<a id="${r.code}"></a>`);
  });

  it("results carry rule, level, message with label and help, region, related locations and properties", () => {
    const [first, warning, third, harp, bare] = run.results!;
    expect(first).toMatchObject({ ruleId: "yao.type_mismatch", ruleIndex: 0, level: "error" });
    expect(first!.message.text).toBe("expected Int, found String\nthis is a String\nhelp: make the body an Int");
    expect(first!.locations![0]!.physicalLocation).toEqual({
      artifactLocation: { uri: "pkgs/a.hns", uriBaseId: "%SRCROOT%" },
      region: { startLine: 3, startColumn: 5, endLine: 3, endColumn: 10, byteOffset: 40, byteLength: 5 },
    });
    expect(first!.relatedLocations).toEqual([
      {
        id: 0,
        physicalLocation: {
          artifactLocation: { uri: "pkgs/a.hns", uriBaseId: "%SRCROOT%" },
          region: { startLine: 2, startColumn: 1, endLine: 2, endColumn: 4, byteOffset: 20, byteLength: 3 },
        },
        message: { text: "the return type is declared here" },
      },
    ]);
    expect(first!.properties).toMatchObject({ function: "add-one", action: "block", layer: "L1" });
    expect(warning).toMatchObject({ level: "warning", ruleIndex: 1 });
    expect(third!.ruleIndex).toBe(0);
    expect(harp!.locations![0]!.physicalLocation!.artifactLocation!.uri).toBe("my%20app/harp%2C1.json");
    expect(harp!.locations![0]!.physicalLocation!.region).toBeUndefined();
    expect(harp!.properties!["pointer"]).toBe("/x");
    // A diagnostic without a file points at its package.
    expect(bare!.locations![0]!.physicalLocation!.artifactLocation!.uri).toBe("my%20app");
  });

  it("encodes paths per segment and absolute paths as file URIs", () => {
    expect(pathToUri("a b/c#d.hns")).toBe("a%20b/c%23d.hns");
    expect(pathToUri("/tmp/x y.hns")).toBe("file:///tmp/x%20y.hns");
  });
});

describe("GitHub annotations", () => {
  it("prints one workflow command per diagnostic with positions and the code as title", () => {
    const out = renderGithub(results).split("\n");
    expect(out[0]).toBe(
      "::error file=pkgs/a.hns,line=3,col=5,endLine=3,endColumn=10,title=yao.type_mismatch::expected Int, found String%0Athis is a String%0Ahelp: make the body an Int",
    );
    expect(out[1]).toBe(
      "::warning file=pkgs/a.hns,line=1,col=2,endLine=1,endColumn=8,title=hns.unknown_field::unknown manifest field 'colour'",
    );
    expect(out[3]).toBe("::error file=my app/harp%2C1.json,title=harp.duplicate_key::duplicate key");
    expect(out[4]).toBe("::error file=my app,title=cli.not_found::no file at all");
  });

  it("escapes data and properties per the runner's rules", () => {
    expect(escapeData("50% done\r\nnext: a,b")).toBe("50%25 done%0D%0Anext: a,b");
    expect(escapeProperty("a:b,c%\n")).toBe("a%3Ab%2Cc%25%0A");
  });

  it("uses ::notice for infos", () => {
    const r: CheckResult = {
      path: "c",
      kind: "unknown",
      valid: true,
      identity: null,
      diagnostics: [diagnostic("catalog.unreferenced", "left over", { severity: "info" })],
    };
    expect(renderGithub([r])).toBe("::notice file=c,title=catalog.unreferenced::left over\n");
  });
});

describe("display columns", () => {
  it("count CJK as two, emoji sequences as one picture of two, combining marks as none, tabs as one", () => {
    const text = "a中b\n👩‍💻x\ne\u0301y\n\tz\nplain";
    const c = new TextPositions(text, "lf");
    expect(c.displayColumn({ line: 1, column: 3 })).toBe(4); // after "a中"
    expect(c.displayColumn({ line: 2, column: 4 })).toBe(3); // after the 3-scalar ZWJ sequence
    expect(c.displayColumn({ line: 3, column: 3 })).toBe(2); // after e + combining acute
    expect(c.displayColumn({ line: 4, column: 2 })).toBe(2); // after a tab
    expect(c.displayColumn({ line: 5, column: 3 })).toBe(3); // ASCII: unchanged
    expect(c.displayColumn({ line: 1, column: 6 })).toBe(7); // past the end: one per missing scalar
    expect(c.displayColumn({ line: 9, column: 4 })).toBe(4); // no such line: the scalar column
  });

  it("JSON uses them when the source is known, scalar columns when it is not", () => {
    const d = diagnostic("yao.unknown_name", "x", { file: "f.hns", span: span(1, 3, 4, 4) });
    expect(jsonDiagnostics([d], new Map([["f.hns", "a中b"]]))[0]).toMatchObject({ column: 4, end_column: 5 });
    expect(toJsonDiagnostic(d)).toMatchObject({ column: 3, end_column: 4 });
  });
});
