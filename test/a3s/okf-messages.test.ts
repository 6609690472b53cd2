/**
 * Every OKF error message the inspector and the contract reader can produce is the reference's
 * sentence verbatim (docs/a3s.md "OKF messages"), with the offending link, frontmatter key or heading
 * located in the document. One case per row of the reference's message table, on fixtures of our own.
 */
import { describe, expect, test } from "vitest";
import { okfErrorDiagnostic, parseOkfContractJson } from "../../src/a3s/okf/bundle.js";
import { DEFAULT_OKF_LIMITS } from "../../src/a3s/okf/contract.js";
import { inspectOkfBundleFiles, verifyInspection, type OkfError } from "../../src/a3s/okf/inspect.js";
import { TextPositions } from "../../src/diagnostics/text-positions.js";
import { renderDiagnosticText } from "../../src/diagnostics/render.js";
import { jsonDiagnostics } from "../../src/output/format-json.js";
import { CONCEPT, firstError, inspect, ROWS } from "./okf-message-cases.js";

const enc = new TextEncoder();
const where = (e: OkfError) => (e.at === undefined ? null : [e.at.line, e.at.column]);

describe("OKF inspection messages are the reference's sentences, located", () => {
  test.each(ROWS.filter((r) => r[2] !== ""))("%s", (_row, files, code, message, at) => {
    const limits = _row.startsWith("exceeds")
      ? { ...DEFAULT_OKF_LIMITS, maxFiles: 1, maxConcepts: 1 }
      : DEFAULT_OKF_LIMITS;
    const e = firstError(files, limits);
    expect({ code: e.code, message: e.message }).toEqual({ code, message });
    expect(where(e)).toEqual(at);
  });

  test("declared more than once", () => {
    const r = inspectOkfBundleFiles(
      [
        { path: "a.md", bytes: enc.encode(CONCEPT) },
        { path: "a.md", bytes: enc.encode(CONCEPT) },
      ],
      DEFAULT_OKF_LIMITS,
    );
    expect(r.ok ? null : r.errors[0]).toMatchObject({
      code: "use.okf.bundle_invalid",
      message: "OKF bundle file 'a.md' is declared more than once.",
    });
  });

  test("invalid YAML frontmatter: the sentence, then the parser's complaint, at the parser's position", () => {
    const e = firstError({ "a.md": "---\ntype: Metric\ntype: Other\n---\n" });
    expect(e.code).toBe("use.okf.bundle_invalid");
    expect(e.message.startsWith("OKF document 'a.md' has invalid YAML frontmatter: ")).toBe(true);
    expect(e.message.length).toBeGreaterThan("OKF document 'a.md' has invalid YAML frontmatter: ".length);
    expect(e.at?.line).toBe(3);
  });

  test("invalid YAML frontmatter after a tab and wide characters: the one position module places it, and the code frame and JSON agree", () => {
    // The parser stops at `x`: before it on the line are a CJK character (2 columns, 3 bytes), a
    // tab and an emoji (2 columns, 4 bytes, a surrogate pair in UTF-16).
    const doc = '---\nt: "中\t😀" x\n---\n';
    const e = firstError({ "a.md": doc });
    expect(e.message).toBe("OKF document 'a.md' has invalid YAML frontmatter: Unexpected scalar at node end");
    const positions = new TextPositions(doc, "lf");
    const x = doc.indexOf(" x") + 1;
    expect(e.at).toEqual(positions.position(x));
    expect(e.at).toEqual({ line: 2, column: 10, byte: 18 });
    const d = okfErrorDiagnostic(e, "okf/k");
    const sources = new Map([[d.file!, doc]]);
    // JSON reports the display column of the same module: t : ␠ " 中(2) tab(1) 😀(2) " ␠ → column 12.
    const json = jsonDiagnostics([d], sources)[0]!;
    expect([json.line, json.column, json.byte]).toEqual([2, 12, 18]);
    expect(json.column).toBe(positions.displayColumn(e.at!));
    // The code frame's caret stands under `x`: the same widths, the tab kept as a tab.
    const frame = renderDiagnosticText(d, sources).split("\n");
    const source = frame.findIndex((l) => l.endsWith('t: "中\t😀" x'));
    expect(source).toBeGreaterThan(0);
    expect(frame[source + 1]).toBe(`  | ${" ".repeat(6)}\t${" ".repeat(4)}^`);
  });

  test("missing bundle target: a warning diagnostic with the reference's sentence, located at the link", () => {
    const r = inspect({ "a.md": `${CONCEPT}one\n\n[gone](missing.md) and [gone again](missing.md)\n` });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.inspection.diagnostics).toEqual([
      {
        code: "dangling-link",
        path: "a.md",
        target: "missing.md",
        message: "OKF document 'a.md' references missing bundle target 'missing.md'.",
      },
    ]);
    expect(r.locations?.map((l) => [l.target, l.at.line, l.at.column])).toEqual([["missing.md", 6, 8]]);
  });

  test("the detail the sentence leaves out is the label, never part of the message", () => {
    const e = firstError({ "d/a.md": `${CONCEPT}[out](../../secret.md)\n` });
    const d = okfErrorDiagnostic(e, "okf/k");
    expect(d.message).toBe("OKF document 'd/a.md' contains a reference outside the bundle.");
    expect(d.message).not.toContain("secret");
    expect(d.label).toContain("../../secret.md");
    expect(d.file).toBe("okf/k/d/a.md");
    expect(d.span?.start).toMatchObject({ line: 4, column: 7 });
  });

  test("a position counts bytes and Unicode scalars, not UTF-16 units", () => {
    const e = firstError({ "a.md": `${CONCEPT}é😀 [x](../o.md)\n` });
    expect(e.at).toEqual({ line: 4, column: 8, byte: 21 + 2 + 4 + 5 });
  });
});

describe("OKF contract messages are the reference's sentences", () => {
  const valid = {
    schema: "a3s.use.okf-bundle.v1",
    formatVersion: "0.2",
    root: "okf/k",
    contentDigest: `sha256:${"a".repeat(64)}`,
    conceptCount: 1,
    fileCount: 1,
    expandedBytes: 10,
    limits: { ...DEFAULT_OKF_LIMITS },
  };
  const parse = (o: unknown) =>
    parseOkfContractJson(enc.encode(typeof o === "string" ? o : JSON.stringify(o, null, 1)));
  const errorOf = (o: unknown) => {
    const r = parse(o);
    if (r.ok) throw new Error("expected the contract to be rejected");
    return r.error;
  };

  test("the valid contract parses", () => expect(parse(valid).ok).toBe(true));
  test("exceeds its input bounds (empty and over 128 KiB)", () => {
    expect(errorOf("")).toMatchObject({
      code: "use.okf.contract_invalid",
      message: "The OKF bundle contract exceeds its input bounds.",
    });
    expect(errorOf(" ".repeat(128 * 1024 + 1))).toMatchObject({
      message: "The OKF bundle contract exceeds its input bounds.",
    });
  });
  test("failed to decode: an unknown field, located at its key", () => {
    const e = errorOf({ ...valid, executor: "tool:x" });
    expect(e.message).toBe(`Failed to decode the OKF bundle contract at line ${e.at?.line}, column ${e.at?.column}.`);
    expect(e.at?.line).toBe(16); // after the seven fields and the five-line limits object
    expect(e.detail).toBe("unknown field 'executor'");
  });
  test("failed to decode: the key is placed by the one position module, after wide characters and a tab", () => {
    // `{"schema":"é😀",<tab>` is 16 scalars and 20 bytes before `"executor"` (é is 2 bytes, 😀 4).
    const e = errorOf('{"schema":"é😀",\t"executor":1}');
    expect(e.at).toEqual({ line: 1, column: 17, byte: 20 });
    expect(e.message).toBe("Failed to decode the OKF bundle contract at line 1, column 17.");
    expect(e.detail).toBe("unknown field 'executor'");
  });
  test("failed to decode: a syntax error", () => {
    const e = errorOf('{\n "schema": }');
    expect(e.message).toMatch(/^Failed to decode the OKF bundle contract at line 2, column \d+\.$/);
  });
  test("limits outside the supported bounds come before the schema", () => {
    expect(errorOf({ ...valid, schema: "x", limits: { ...valid.limits, maxFiles: 0 } }).message).toBe(
      "The OKF bundle limits are outside the supported bounds.",
    );
  });
  test("schema is unsupported", () =>
    expect(errorOf({ ...valid, schema: "a3s.use.okf-bundle.v2" })).toMatchObject({
      code: "use.okf.contract_invalid",
      message: "The OKF bundle contract schema is unsupported.",
    }));
  test("root is not canonical", () =>
    expect(errorOf({ ...valid, root: "../k" })).toMatchObject({
      code: "use.okf.path_escape",
      message: "The OKF bundle root '../k' is not a canonical bundle-relative path.",
    }));
  test("evidence is invalid", () =>
    expect(errorOf({ ...valid, conceptCount: 0 })).toMatchObject({
      code: "use.okf.contract_invalid",
      message: "The OKF bundle evidence is invalid.",
    }));
  test("does not match the declared contract", () => {
    const r = inspect({ "a.md": CONCEPT });
    if (!r.ok) throw new Error("bundle");
    const m = verifyInspection({ ...valid, conceptCount: 1, fileCount: 1, expandedBytes: 20 } as never, r.inspection);
    expect(m?.message).toBe(
      `The inspected OKF bundle does not match the declared contract: expected digest ${valid.contentDigest}, concepts 1, files 1, bytes 20; observed digest ${r.inspection.contentDigest}, concepts 1, files 1, bytes ${r.inspection.expandedBytes}.`,
    );
  });
});
