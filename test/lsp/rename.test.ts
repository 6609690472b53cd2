/**
 * Rename through the symbol index (src/lsp/rename.ts): every occurrence follows, across the files of
 * a directory package; the renamed package checks clean; refusals say why.
 */
import { describe, expect, it } from "vitest";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { prepareRename, rename, type RenamePlan } from "../../src/lsp/rename.js";
import { Workspace } from "../../src/lsp/workspace.js";
import { applyEdits } from "./apply-edits.js";

const SINGLE = `(manifest (id t) (version "1") (title "T") (capabilities (tools read)))
(contract (purpose "p"))
(fn mk
  (params (path String) (ok Bool))
  (returns Receipt)
  (body (record Receipt (path path) (verified ok))))
(fn load
  (visibility exported)
  (description "Read one file")
  (params (path String))
  (returns Json)
  (effects (tool read))
  (body (call read (path path))))
(eval
  (requires (tools read))
  (types (record Receipt (path String) (verified Bool)))
  (seq
    (bind r (mk (path "a") (ok true)))
    (bind doc (load (path "b")))
    (list r.verified (get r verified) (get (mk (path "c") (ok false)) verified))))
`;

const DIR: Record<string, string> = {
  "/w/d.hns/manifest.yao": `(manifest (id d) (version "1") (title "D") (entry "programs/main.yao") (capabilities (tools read)))`,
  "/w/d.hns/contract.yao": `(contract (purpose "p"))`,
  "/w/d.hns/functions/load-change.yao": `(fn load-change
  (visibility exported)
  (description "Read one file")
  (params (path String))
  (returns Json)
  (effects (tool read))
  (body (call read (path path))))
`,
  "/w/d.hns/functions/twice.yao": `(fn twice
  (params (path String))
  (returns (List Json))
  (effects (tool read))
  (body (seq (bind a (load-change (path path))) (bind b (load-change (path path))) (list a b))))
`,
  "/w/d.hns/programs/main.yao": `(eval
  (requires (tools read))
  (seq (bind a (load-change (path "x"))) (twice (path "y"))))
`,
};

function at(text: string, line: number, needle: string, delta = 0): { line: number; character: number } {
  const col = text.split("\n")[line]!.indexOf(needle);
  if (col < 0) throw new Error(`no ${needle} on line ${line}`);
  return { line, character: col + delta };
}

async function applied(files: Record<string, string>, plan: RenamePlan): Promise<Record<string, string>> {
  const out = { ...files };
  for (const [file, edits] of plan.edits) out[file] = applyEdits(out[file]!, edits);
  return out;
}

async function errorsOf(files: Record<string, string>, path: string): Promise<string[]> {
  const check = await new Workspace(MemoryFs.from(files)).check(path);
  return [...check.diagnostics.values()].flat().map((d) => `${d.code}: ${d.message}`);
}

describe("rename", () => {
  const files = { "/w/t.hns": SINGLE };

  it("renames a function at its declaration and every call; the package still checks", async () => {
    const ws = new Workspace(MemoryFs.from(files));
    expect(await errorsOf(files, "/w/t.hns")).toEqual([]);
    const prep = await prepareRename(ws, "/w/t.hns", at(SINGLE, 2, "mk", 1));
    expect(prep).toEqual({ range: { start: at(SINGLE, 2, "mk"), end: at(SINGLE, 2, "mk", 2) }, placeholder: "mk" });
    const plan = await rename(ws, "/w/t.hns", at(SINGLE, 17, "mk"), "make-receipt");
    if ("refused" in plan) throw new Error(plan.refused);
    expect(plan.edits.get("/w/t.hns")).toHaveLength(3);
    expect(plan.note).toMatch(/identity changes/);
    const after = await applied(files, plan);
    expect(after["/w/t.hns"]).toContain("(fn make-receipt");
    expect(after["/w/t.hns"]).toContain("(bind r (make-receipt (path");
    expect(after["/w/t.hns"]).toContain("(get (make-receipt (path");
    expect(await errorsOf(after, "/w/t.hns")).toEqual([]);
  });

  it("renames a parameter with its uses and the named arguments of every call", async () => {
    const ws = new Workspace(MemoryFs.from(files));
    const plan = await rename(ws, "/w/t.hns", at(SINGLE, 3, "(ok Bool)", 1), "fine");
    if ("refused" in plan) throw new Error(plan.refused);
    const after = (await applied(files, plan))["/w/t.hns"]!;
    expect(after).toContain("(params (path String) (fine Bool))");
    expect(after).toContain("(verified fine)");
    expect(after).toContain('(mk (path "a") (fine true))');
    expect(after).toContain('(mk (path "c") (fine false))');
    // load's parameter `path` and the tool argument `path` are other symbols.
    expect(after).toContain("(body (call read (path path)))");
    expect(await errorsOf({ "/w/t.hns": after }, "/w/t.hns")).toEqual([]);
  });

  it("renames a binding with its dotted uses, leaving the field segment", async () => {
    const ws = new Workspace(MemoryFs.from(files));
    const plan = await rename(ws, "/w/t.hns", at(SINGLE, 19, "r.verified"), "receipt");
    if ("refused" in plan) throw new Error(plan.refused);
    const after = (await applied(files, plan))["/w/t.hns"]!;
    expect(after).toContain("(bind receipt (mk");
    expect(after).toContain("(list receipt.verified (get receipt verified)");
    expect(await errorsOf({ "/w/t.hns": after }, "/w/t.hns")).toEqual([]);
  });

  it("renames a record type and a field through gets, dotted reads and constructions", async () => {
    const ws = new Workspace(MemoryFs.from(files));
    const typePlan = await rename(ws, "/w/t.hns", at(SINGLE, 4, "Receipt"), "Proof");
    if ("refused" in typePlan) throw new Error(typePlan.refused);
    const typed = (await applied(files, typePlan))["/w/t.hns"]!;
    expect(typed.match(/Proof/g)).toHaveLength(3);
    expect(await errorsOf({ "/w/t.hns": typed }, "/w/t.hns")).toEqual([]);

    const fieldPlan = await rename(ws, "/w/t.hns", at(SINGLE, 19, "r.verified", 2), "checked");
    if ("refused" in fieldPlan) throw new Error(fieldPlan.refused);
    const fielded = (await applied(files, fieldPlan))["/w/t.hns"]!;
    expect(fielded).toContain("(verified Bool)".replace("verified", "checked"));
    expect(fielded).toContain("(record Receipt (path path) (checked ok))");
    expect(fielded).toContain('(list r.checked (get r checked) (get (mk (path "c") (ok false)) checked))');
    expect(await errorsOf({ "/w/t.hns": fielded }, "/w/t.hns")).toEqual([]);
  });

  it("renames a function across the files of a directory package", async () => {
    const ws = new Workspace(MemoryFs.from(DIR));
    const main = "/w/d.hns/programs/main.yao";
    expect(await errorsOf(DIR, main)).toEqual([]);
    const plan = await rename(ws, main, at(DIR[main]!, 2, "load-change", 3), "read-change");
    if ("refused" in plan) throw new Error(plan.refused);
    expect([...plan.edits.keys()].sort()).toEqual([
      "/w/d.hns/functions/load-change.yao",
      "/w/d.hns/functions/twice.yao",
      main,
    ]);
    expect(plan.edits.get("/w/d.hns/functions/twice.yao")).toHaveLength(2);
    expect(plan.note).toMatch(/4 occurrences in 3 files/);
    const after = await applied(DIR, plan);
    expect(await errorsOf(after, main)).toEqual([]);
  });

  it("refuses with a reason: collisions, invalid names, built-ins, tools, keywords", async () => {
    const ws = new Workspace(MemoryFs.from(files));
    const fn = at(SINGLE, 2, "mk");
    const refused = async (pos: { line: number; character: number }, name: string) => {
      const r = await rename(ws, "/w/t.hns", pos, name);
      if (!("refused" in r)) throw new Error(`rename to ${name} was not refused`);
      return r.refused;
    };
    expect(await refused(fn, "load")).toMatch(/function named 'load' already exists/);
    expect(await refused(fn, "9lives")).toMatch(/not a valid Yao name/);
    expect(await refused(fn, "a.b")).toMatch(/not a valid Yao name/);
    expect(await refused(fn, "add")).toMatch(/built-in Yao name/);
    expect(await refused(fn, "String")).toMatch(/built-in Yao type/);
    expect(await refused(fn, "read")).toMatch(/is a tool of this package/);
    expect(await refused(at(SINGLE, 3, "(ok Bool)", 1), "path")).toMatch(/already bound in this function 'mk'/);
    expect(await refused(at(SINGLE, 17, "(bind r", 6), "doc")).toMatch(/already bound in this program/);
    expect(await refused(at(SINGLE, 4, "Receipt"), "Json")).toMatch(/built-in Yao type/);
    expect(await refused(at(SINGLE, 5, "(path path)", 1), "verified")).toMatch(/already has a field named 'verified'/);
    const tool = await prepareRename(ws, "/w/t.hns", at(SINGLE, 12, "read"));
    expect(tool).toEqual({ refused: expect.stringMatching(/'read' is a tool/) });
    const builtin = await prepareRename(ws, "/w/t.hns", at(SINGLE, 16, "seq"));
    expect(builtin).toEqual({ refused: expect.stringMatching(/'seq' is built into Yao/) });
    const nothing = await prepareRename(ws, "/w/t.hns", at(SINGLE, 1, '"p"', 1));
    expect(nothing).toEqual({ refused: expect.stringMatching(/Nothing to rename here/) });
  });
});
