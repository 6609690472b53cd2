import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { canonicalDigest, olpcCanonical, parseStrictJson } from "../../src/a3s/package/cjson.js";
import { A3S as SHARED_A3S, describeReference } from "./reference.js";

describeReference("OLPC canonical JSON digests of the A3S Use core fixtures", () => {
  const CORE = join(SHARED_A3S, "Use", "crates", "core", "fixtures");
  const cases = readdirSync(CORE, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(CORE, d.name))
        .filter((f) => f.endsWith(".sha256"))
        .map((f) => join(d.name, f.replace(/\.sha256$/, ""))),
    );
  test("there are 24 digest fixtures", () => expect(cases.length).toBe(24));
  test.each(cases)("%s", (name) => {
    const raw = readFileSync(join(CORE, `${name}.json`), "utf8");
    const value = parseStrictJson(raw);
    expect(olpcCanonical(value)).toBe(raw.replace(/\n$/, ""));
    expect(canonicalDigest(value)).toBe(readFileSync(join(CORE, `${name}.sha256`), "utf8").trim());
  });
});
