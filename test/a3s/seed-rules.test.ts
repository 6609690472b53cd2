/**
 * Issue 28, item 4: seed 004 rules that were enforced but never tested. Each case has a control
 * that differs only in the rule's subject and stays free of that finding.
 */
import { describe, expect, it } from "vitest";
import { checkManifestText } from "../../src/a3s/index.js";

const manifest = (head: string, blocks = "") => `extension "acme/x" {
  ${head}
  version        = "1.0.0"
  route          = "x"
  requires_use   = ">=0.3.0, <0.4.0"
  actions        = ["read"]

  repository {
    url      = "https://github.com/acme/x"
    revision = "0123456789abcdef0123456789abcdef01234567"
  }
${blocks}
  skill "review" {
    path     = "skills/review/SKILL.md"
    optional = false
  }
}
`;

const codes = (text: string) => checkManifestText(text, "a3s-use-extension.acl").diagnostics.map((d) => d.code);

describe("seed 004 rules with a test each", () => {
  it("schema_version = 2 is rejected; 3 is accepted", () => {
    expect(codes(manifest("schema_version = 2"))).toEqual(["a3s.manifest.schema_version"]);
    expect(codes(manifest("schema_version = 3"))).toEqual([]);
  });

  it.each(["url", "registry"])("a dependency block cannot set %s", (attr) => {
    const dep = (extra: string) => `
  dependency "acme/base" {
    version = "^1.4.0"${extra}
  }
`;
    expect(codes(manifest("schema_version = 3", dep(`\n    ${attr} = "https://example.com/r"`)))).toContain(
      "a3s.manifest.unknown_attribute",
    );
    expect(codes(manifest("schema_version = 3", dep("")))).toEqual([]);
  });

  it("a Flow engine must be a3s-flow", () => {
    const flow = (engine: string) => `
  tool "convert" {
    workload    = "task"
    interface   = "cli"
    executable  = "tools/convert"
    command     = "acme-x-convert"
    json_output = true
    interactive = false
    timeout_ms  = 1000
    activation  = "lazy"
    optional    = false
  }

  flow "review" {
    engine        = "${engine}"
    runtime       = "native-ts"
    source        = "flows/review.ts"
    export        = "run"
    requires_tool = ["convert"]
    optional      = false
  }
`;
    expect(codes(manifest("schema_version = 3", flow("temporal")))).toEqual(["a3s.manifest.flow"]);
    expect(codes(manifest("schema_version = 3", flow("a3s-flow")))).toEqual([]);
  });
});
