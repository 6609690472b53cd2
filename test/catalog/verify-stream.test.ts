/** `Catalog.verify` reports each binding as it goes, so `catalog verify` can stream and show progress. */
import { describe, expect, it } from "vitest";
import { Catalog, MemoryCatalogStore } from "../../src/catalog/index.js";
import { smallPackage } from "./helpers.js";

describe("catalog verify callbacks", () => {
  it("calls onStart before and onEntry after each binding, in the report's order, with the problem of a bad one", async () => {
    const store = new MemoryCatalogStore();
    const cat = new Catalog(store);
    for (const id of ["a", "b", "c"])
      expect((await cat.installSource(`${id}.hns`, smallPackage(id, "1"))).status).toBe("installed");
    const events: string[] = [];
    const report = await cat.verify({
      onStart: (b, index, total) => events.push(`start ${b.id} ${index}/${total}`),
      onEntry: (e, problem) => events.push(`entry ${e.id} ${e.status}${problem ? ` ${problem.code}` : ""}`),
    });
    expect(report.ok).toBe(true);
    expect(events).toEqual(["start a 0/3", "entry a ok", "start b 1/3", "entry b ok", "start c 2/3", "entry c ok"]);
    expect(report.entries.map((e) => e.id)).toEqual(["a", "b", "c"]);
  });
});
