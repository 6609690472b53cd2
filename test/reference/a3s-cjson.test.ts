/** The A3S Use core fixtures' OLPC canonical JSON digests, through the same routine as ours (test/a3s/cjson-cases.ts). */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { canonicalFilesOn } from "../a3s/cjson-cases.js";
import { A3S as SHARED_A3S, describeReference } from "./reference.js";

describeReference("OLPC canonical JSON digests of the A3S Use core fixtures", () => {
  const CORE = join(SHARED_A3S, "Use", "crates", "core", "fixtures");
  const cases = readdirSync(CORE, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(CORE, d.name))
        .filter((f) => f.endsWith(".sha256"))
        .map((f) => join(d.name, f.replace(/\.sha256$/, ".json"))),
    );
  test("there are 24 digest fixtures", () => expect(cases.length).toBe(24));
  canonicalFilesOn(CORE, cases, 24);
});
