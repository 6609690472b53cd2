/**
 * The one output family: every reporting command takes --format human|json|sarif|github, its JSON
 * diagnostics validate against schemas/diagnostic.schema.json, and the same package renders the same
 * diagnostics through every command and format.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { yaoc } from "../support/cli.js";
import { REPO_ROOT } from "../support/shared.js";

const schema = JSON.parse(readFileSync(join(REPO_ROOT, "schemas/diagnostic.schema.json"), "utf8")) as Record<
  string,
  unknown
>;
const ajv = new Ajv2020({ allErrors: true, strict: true });
ajv.addSchema(schema, "diagnostic");
const validateDiagnostic = ajv.getSchema("diagnostic")!;
const validateResults = ajv.compile({ $ref: "diagnostic#/$defs/results" });

/** Every array named `diagnostics` anywhere in a JSON document. */
function diagnosticsIn(doc: unknown): unknown[] {
  const out: unknown[] = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (k === "diagnostics" && Array.isArray(x)) out.push(...x);
        else visit(x);
      }
    }
  };
  visit(doc);
  return out;
}

function expectValidDiagnostics(doc: unknown, atLeast: number): unknown[] {
  const ds = diagnosticsIn(doc);
  expect(ds.length).toBeGreaterThanOrEqual(atLeast);
  for (const d of ds) {
    const ok = validateDiagnostic(d);
    expect(ok, `${JSON.stringify(d)}\n${ajv.errorsText(validateDiagnostic.errors)}`).toBe(true);
  }
  return ds;
}

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "yaoc-formats-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("the JSON Schema of the diagnostic", () => {
  it("rejects a diagnostic that lacks a field or has a bad one (the schema can fail)", () => {
    const good = {
      code: "yao.unclosed_list",
      severity: "error",
      message: "m",
      reference_message: null,
      file: "a.hns",
      line: 1,
      column: 1,
      end_line: 1,
      end_column: 2,
      byte: 0,
      end_byte: 1,
      function: null,
      label: null,
      help: null,
      pointer: null,
      related: [],
      action: "block",
      layer: "L1",
      reason: "struct_unclosed_list",
    };
    expect(validateDiagnostic(good)).toBe(true);
    const { reason: _r, ...noReason } = good;
    expect(validateDiagnostic(noReason)).toBe(false);
    expect(validateDiagnostic({ ...good, column: 0 })).toBe(false);
    expect(validateDiagnostic({ ...good, hint: "old name" })).toBe(false);
    expect(validateDiagnostic({ ...good, related: [{ message: "x" }] })).toBe(false);
  });
});

describe("every command's --format json validates against schemas/diagnostic.schema.json", () => {
  it.each([
    ["check (HNS reader error)", ["check", "--format", "json", "fixtures/hns/failure/yao.unclosed_list/single.hns"], 1],
    [
      "check (HNS warnings, strict)",
      ["check", "--strict", "--format", "json", "fixtures/hns/success/warn-unknown-field.hns"],
      1,
    ],
    [
      "check (HARP, HCP, A3S)",
      [
        "check",
        "--format",
        "json",
        "fixtures/harp/invalid-types",
        "fixtures/hcp/policy-unknown-stimulus",
        "fixtures/a3s/packages/readme-missing",
      ],
      3,
    ],
    [
      "hcp lint --format json",
      ["hcp", "lint", "--format", "json", "fixtures/hcp/id-missing", "fixtures/hcp/policy-unknown-stimulus"],
      2,
    ],
    ["hcp lint --json", ["hcp", "lint", "--json", "fixtures/hcp/id-missing"], 1],
    ["harp validate --format json", ["harp", "validate", "--format", "json", "fixtures/harp/invalid-types"], 1],
    ["a3s check --format json", ["a3s", "check", "--format", "json", "fixtures/a3s/packages/readme-missing"], 1],
  ])("%s: a {results} document", (_name, args, atLeast) => {
    const r = yaoc(args as string[]);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.out) as unknown;
    expect(validateResults(doc), ajv.errorsText(validateResults.errors)).toBe(true);
    expectValidDiagnostics(doc, atLeast as number);
  });

  it.each([
    ["a3s model", ["a3s", "model", "--format", "json", "fixtures/a3s/packages/acl-unterminated-string"], 1, 1],
    ["a3s readiness", ["a3s", "readiness", "--format", "json", "fixtures/a3s/packages/acl-unterminated-string"], 1, 1],
    ["a3s readiness (valid)", ["a3s", "readiness", "--json", "fixtures/a3s/packages/valid-okf"], 0, 0],
    ["okf check", ["okf", "check", "--format", "json", "fixtures/a3s/okf/link-escape"], 1, 1],
  ])("%s: the command's document with diagnostics in the one shape", (_name, args, code, atLeast) => {
    const r = yaoc(args as string[]);
    expect(r.code).toBe(code);
    expectValidDiagnostics(JSON.parse(r.out), atLeast as number);
  });

  it("catalog verify --format json", () => {
    const catalog = join(tmp, "catalog");
    expect(yaoc(["catalog", "install", "--catalog", catalog, "examples/review.hns"]).code).toBe(0);
    // Damage the one stored object so verify reports a diagnostic.
    const objects = join(catalog, "objects");
    const name = readdirSync(objects)[0]!;
    writeFileSync(join(objects, name), "(not a package");
    const r = yaoc(["catalog", "verify", "--catalog", catalog, "--format", "json"]);
    expect(r.code).toBe(1);
    expectValidDiagnostics(JSON.parse(r.out), 1);
    // Human: one line per binding as it is verified, its problem in the one human form, no progress when piped.
    const human = yaoc(["catalog", "verify", "--catalog", catalog]);
    expect(human.code).toBe(1);
    expect(human.out).toMatch(/^corrupt acme\.review@1\.0\.0 sha256:[0-9a-f]{64}\n1 package verified: 0 ok, 1 corrupt/);
    expect(human.err).toMatch(/error\[catalog\.corrupt\]: /);
    expect(human.err).not.toContain("\r");
  });

  it("golden verify --format json", () => {
    const root = join(tmp, "golden-root");
    mkdirSync(join(root, "examples"), { recursive: true });
    cpSync(join(REPO_ROOT, "examples/review.hns"), join(root, "examples/review.hns"));
    // An empty golden directory: nothing frozen yet (a missing one is an I/O error, exit 2).
    mkdirSync(join(root, "golden/evidence"), { recursive: true });
    const r = yaoc(["golden", "verify", "--root", root, "--format", "json"]);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.out) as { diagnostics: { code: string }[] };
    expect(doc.diagnostics.map((d) => d.code)).toContain("evidence.golden_missing");
    expectValidDiagnostics(doc, 1);
  });
});

describe("one diagnostic, every command and format", () => {
  const pkg = "fixtures/hcp/policy-unknown-stimulus";
  it("check, hcp lint and their formats report the same codes at the same places", () => {
    const viaCheck = JSON.parse(yaoc(["check", "--format", "json", pkg]).out) as {
      results: { diagnostics: { code: string; file: string; line: number; column: number }[] }[];
    };
    const viaLint = JSON.parse(yaoc(["hcp", "lint", "--format", "json", pkg]).out) as typeof viaCheck;
    const key = (d: { code: string; file: string; line: number; column: number }) =>
      `${d.file}:${d.line}:${d.column} ${d.code}`;
    const expected = viaCheck.results[0]!.diagnostics.map(key);
    expect(expected.length).toBeGreaterThan(0);
    expect(viaLint.results[0]!.diagnostics.map(key)).toEqual(expected);
    const human = yaoc(["hcp", "lint", pkg]).out;
    const github = yaoc(["hcp", "lint", "--format", "github", pkg]).out;
    for (const d of viaCheck.results[0]!.diagnostics) {
      expect(human).toContain(
        `${d.file}:${d.line}:${d.column}: ${(d as unknown as { severity: string }).severity}[${d.code}]:`,
      );
      expect(github).toContain(`file=${d.file},line=${d.line},col=${d.column},`);
      expect(github).toContain(`title=${d.code}::`);
    }
  });

  it("harp validate renders with the one human renderer (code frame, error[code]) and streams nothing to stderr", () => {
    const r = yaoc(["harp", "validate", "fixtures/harp/invalid-reserved-kind"]);
    expect(r.code).toBe(1);
    expect(r.out).toContain("fixtures/harp/invalid-reserved-kind/harp.json:8:5: error[harp.unsupported_kind]:");
    expect(r.out).toMatch(/\n\s*8 \| /); // the code frame's source line
    expect(r.out).toContain("fixtures/harp/invalid-reserved-kind: invalid (harp)");
  });

  it("a3s check prints human output by default with cwd-relative paths (not package-relative)", () => {
    const r = yaoc(["a3s", "check", "fixtures/a3s/packages/acl-unterminated-string"]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      /^fixtures\/a3s\/packages\/acl-unterminated-string\/a3s-use-extension\.acl:\d+:\d+: error\[/m,
    );
    const json = JSON.parse(yaoc(["check", "--format", "json", "fixtures/a3s/packages/readme-missing"]).out) as {
      results: { diagnostics: { file: string }[] }[];
    };
    const files = json.results[0]!.diagnostics.map((d) => d.file);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(f.startsWith("fixtures/a3s/packages/readme-missing/")).toBe(true);
  });

  it("a3s model --format github puts the manifest diagnostics on stdout as annotations", () => {
    const r = yaoc(["a3s", "model", "--format", "github", "fixtures/a3s/packages/acl-unterminated-string"]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      /^::error file=fixtures\/a3s\/packages\/acl-unterminated-string\/a3s-use-extension\.acl,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=a3s\.[a-z_.]+::/m,
    );
  });

  it("JSON diagnostics carry end positions, byte offsets, help and the reason code", () => {
    const doc = JSON.parse(
      yaoc(["check", "--format", "json", "fixtures/hns/failure/yao.unclosed_list/single.hns"]).out,
    ) as { results: { diagnostics: Record<string, unknown>[] }[] };
    const d = doc.results[0]!.diagnostics[0]!;
    expect(d).toMatchObject({
      code: "yao.unclosed_list",
      line: 3,
      column: 1,
      byte: 68,
      action: "block",
      layer: "L1",
      reason: "struct_unclosed_list",
    });
    expect(typeof d["end_line"]).toBe("number");
    expect(d["end_byte"] as number).toBeGreaterThan(d["byte"] as number);
  });

  it("JSON diagnostics name the HNS function a type error is inside", () => {
    const file = join(tmp, "fn.hns");
    writeFileSync(
      file,
      '(manifest (id demo) (version "1") (title "Demo"))\n(contract (purpose "p"))\n(fn add-one (params (n Int)) (returns Int) (body "one"))\n(eval (requires (tools)) (add-one (n 1)))\n',
    );
    const doc = JSON.parse(yaoc(["check", "--format", "json", file]).out) as {
      results: { diagnostics: Record<string, unknown>[] }[];
    };
    const d = doc.results[0]!.diagnostics.find((x) => x["code"] === "yao.type_mismatch")!;
    expect(d["function"]).toBe("add-one");
  });

  it("JSON columns are display columns: two per CJK character before the span", () => {
    const narrow = join(tmp, "narrow.hns");
    const wide = join(tmp, "wide.hns");
    const text = (title: string) =>
      `(manifest (id demo) (version "1") (title "${title}") (colour "red"))\n(contract (purpose "p"))\n(eval 42)\n`;
    writeFileSync(narrow, text("ab"));
    writeFileSync(wide, text("中文"));
    const col = (f: string) =>
      (
        JSON.parse(yaoc(["check", "--format", "json", f]).out) as {
          results: { diagnostics: { code: string; column: number; end_column: number }[] }[];
        }
      ).results[0]!.diagnostics.find((d) => d.code === "hns.unknown_field")!;
    const n = col(narrow);
    const w = col(wide);
    expect(w.column).toBe(n.column + 2);
    expect(w.end_column).toBe(n.end_column + 2);
  });
});
