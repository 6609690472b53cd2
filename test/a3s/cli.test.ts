/**
 * docs/a3s.md, "Not implemented": catalog signatures and TUF metadata are out of scope, and every
 * resolve/lock command says so, in human output (stderr) and in JSON, so nobody reads a valid lock
 * as a verified one.
 */
import { describe, expect, it } from "vitest";
import { yaoc } from "../support/cli.js";

const NOTE = "catalog signatures and TUF metadata are not verified";
const REGISTRY = "fixtures/a3s/registry/closure/records";
const LOCK = "fixtures/a3s/locks/closure.json";

describe("a3s resolve and lock verify state what they do not verify", () => {
  it("resolve and lock verify say catalog signatures and TUF metadata are not verified", () => {
    const resolved = yaoc([
      "a3s",
      "resolve",
      "acme/root",
      "--registry",
      REGISTRY,
      "--target",
      "linux-x86_64",
      "--use-version",
      "0.3.0",
    ]);
    expect(resolved.code).toBe(0);
    expect(resolved.err).toContain(NOTE);
    const human = yaoc(["a3s", "lock", "verify", LOCK]);
    expect(human.code).toBe(0);
    expect(human.err).toContain(NOTE);
    const json = yaoc(["a3s", "lock", "verify", LOCK, "--json"]);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.out) as { verification: string }).verification).toContain(NOTE);
  });
});
