/**
 * Issue 34, item 2: hover is in Yao notation. Hover at every atom and every list of a package that
 * uses every kind of type (records, unions, List, Map, Option, Result, Ref, Program, Json) and of
 * effect (tool, host, infer, program), and of the shipped examples: no Rust Debug form
 * (`Named("Ticket")`, `EffectSet({…})`), no token name and no absolute path in any of them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { Workspace } from "../../src/lsp/workspace.js";
import { problems } from "../support/notation.js";
import { REPO_ROOT } from "../support/repo.js";

const RICH = `(manifest (id acme.rich) (version "1") (title "Rich") (capabilities (tools fetch-ticket read)))
(contract (purpose "every kind of type in hover"))
(fn get-ticket
  (visibility exported)
  (description "Fetch one ticket")
  (params (id Int))
  (returns Ticket)
  (effects (tool fetch-ticket))
  (body (seq (bind raw (call fetch-ticket (id id))) (decode Ticket raw))))
(fn summarise
  (params (t Ticket) (tags (List String)) (counts (Map Int)) (maybe (Option Int)) (r (Result Int String)))
  (returns Status)
  (body (if (eq t.title "") (variant Status.closed (reason "empty")) (variant Status.open))))
(fn run-it
  (params (p (Program Int (effects (tool read)))))
  (returns Int)
  (effects (program (tool read)))
  (body (run p)))
(eval
  (requires (tools fetch-ticket read))
  (types (record Ticket (id Int) (title String)) (union Status (open) (closed (reason String))))
  (seq
    (bind t (get-ticket (id 1)))
    (bind s (summarise (t t) (tags (list "a")) (counts (dict (a 1))) (maybe (some 1)) (r (ok 1 String))))
    (bind ctx (host.view runtime.context (returns Json)))
    (bind guess (infer (captures t) (returns (Option Ticket)) t))
    (bind e (evidence.commit (evidence (kind "note") (value (to-json t)))))
    (match s ((case Status.open) (list (get t title))) ((case Status.closed (reason why)) (list why)))))
`;

/** Hover at every atom start and every '(' of one file; every markdown shown. */
async function hoversOf(ws: Workspace, path: string, text: string): Promise<string[]> {
  const shown: string[] = [];
  const lines = text.split("\n");
  for (let line = 0; line < lines.length; line++) {
    for (const m of lines[line]!.matchAll(/\(|[A-Za-z][\w.-]*/g)) {
      const hover = await ws.hover(path, { line, character: m.index });
      if (hover !== undefined) shown.push(hover.markdown);
    }
  }
  return shown;
}

describe("hover is in Yao notation", () => {
  it("every atom and list of a package with every kind of type and effect", async () => {
    const path = "/tmp/abs/rich.hns";
    const ws = new Workspace(MemoryFs.from({ [path]: RICH }));
    const found = [...(await ws.check(path)).diagnostics.values()].flat();
    expect(found.map((d) => `${d.code} ${d.message}`)).toEqual([]);
    const shown = await hoversOf(ws, path, RICH);
    expect(shown.length).toBeGreaterThan(150);
    // The types are there, in Yao's notation, so the scan sees what it checks.
    const all = shown.join("\n");
    for (const yao of ["Ticket", "(List String)", "(Map Int)", "(Option Int)", "(Result Int String)", "Status"])
      expect(all).toContain(yao);
    expect(all).toContain("(tool fetch-ticket)");
    expect(shown.flatMap((h) => problems(h).map((p) => `${p}: ${h}`))).toEqual([]);
  });

  it("completion details everywhere in that package, after (get X and in argument and type positions", async () => {
    const path = "/tmp/abs/rich.hns";
    const ws = new Workspace(MemoryFs.from({ [path]: RICH }));
    const lines = RICH.split("\n");
    const details: string[] = [];
    for (let line = 0; line < lines.length; line++)
      for (const m of lines[line]!.matchAll(/[ (]/g)) {
        for (const c of await ws.completion(path, { line, character: m.index + 1 })) details.push(c.detail);
      }
    expect(details.length).toBeGreaterThan(1000);
    const all = details.join("\n");
    for (const yao of ["title : String (field of Ticket)", "(List String)", "(Option Int)"]) expect(all).toContain(yao);
    expect(details.flatMap((d) => problems(d).map((p) => `${p}: ${d}`))).toEqual([]);
  });

  it("every atom and list of the shipped examples", async () => {
    const files: Record<string, string> = {};
    const review = readFileSync(join(REPO_ROOT, "examples/review.hns"), "utf8");
    files["/tmp/abs/review.hns"] = review;
    for (const rel of ["manifest.yao", "contract.yao", "mind.yao", "functions/load-change.yao", "programs/main.yao"]) {
      files[`/tmp/abs/review-dir.hns/${rel}`] = readFileSync(join(REPO_ROOT, "examples/review-dir.hns", rel), "utf8");
    }
    const ws = new Workspace(MemoryFs.from(files));
    const shown: string[] = [];
    for (const [path, text] of Object.entries(files)) shown.push(...(await hoversOf(ws, path, text)));
    expect(shown.length).toBeGreaterThan(20);
    expect(shown.flatMap((h) => problems(h).map((p) => `${p}: ${h}`))).toEqual([]);
  });
});
