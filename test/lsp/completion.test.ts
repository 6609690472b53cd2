/**
 * Context-aware completion (issue 34, item 6): fields after `(get X `, a callee's parameters in
 * argument position, types in type position, local names before built-ins — ordered by sortText and
 * still working while lists are unclosed, as they are while typing.
 */
import { describe, expect, it } from "vitest";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { completeAt, type ContextCompletion } from "../../src/lsp/completion.js";
import { Workspace } from "../../src/lsp/workspace.js";

const HEAD = `(manifest (id t) (version "1") (title "T") (capabilities (tools read)))
(contract (purpose "p"))
(fn mk (params (path String) (ok Bool)) (returns Receipt) (body (record Receipt (path path) (verified ok))))
`;
const ENTRY = `(eval (requires (tools read)) (types (record Receipt (path String) (verified Bool)) (record Other (zeta Int))) 1)\n`;

/** Complete where `|` is, and return the labels in the order an editor shows them (by sortText). */
function at(textWithCursor: string, others: string[] = []): ContextCompletion[] {
  const offset = textWithCursor.indexOf("|");
  const text = textWithCursor.replace("|", "");
  return completeAt(text, offset, others).sort((a, b) =>
    a.sortText < b.sortText ? -1 : a.sortText > b.sortText ? 1 : a.label < b.label ? -1 : 1,
  );
}
const labels = (cs: readonly ContextCompletion[]): string[] => cs.map((c) => c.label);

describe("context-aware completion", () => {
  it("after (get X the fields of X's record come first, with an unclosed list", () => {
    const cs = at(`${HEAD}(fn f (params (r Receipt)) (returns Bool) (body (get r |\n${ENTRY}`);
    expect(labels(cs).slice(0, 2)).toEqual(["path", "verified"]);
    expect(cs[0]!.detail).toBe("path : String (field of Receipt)");
    expect(labels(cs)).toContain("zeta");
    expect(labels(cs).indexOf("zeta")).toBeGreaterThan(1);
    expect(cs.every((c) => c.kind === "field")).toBe(true);
  });

  it("in the arguments of a package function: its parameters, as (NAME …) snippets, first", () => {
    const cs = at(`${HEAD}(eval (requires (tools read)) (mk |`);
    expect(labels(cs).slice(0, 2)).toEqual(["ok", "path"]);
    expect(cs[0]!.snippet).toBe("(ok $1)");
    // One already given is not offered again.
    expect(labels(at(`${HEAD}(eval (requires (tools read)) (mk (path "a") |`)).slice(0, 1)).toEqual(["ok"]);
  });

  it("in a type position: declared types, then built-in types, and nothing else", () => {
    const cs = at(`${HEAD}(fn g (params (x |`, [ENTRY]);
    expect(labels(cs).slice(0, 2)).toEqual(["Other", "Receipt"]);
    expect(labels(cs)).toContain("Option");
    expect(cs.every((c) => c.kind === "type")).toBe(true);
    expect(labels(at(`${HEAD}(fn g (params) (returns |`, [ENTRY]))[0]).toBe("Other");
    expect(labels(at(`(eval (none |`))).toContain("Int");
  });

  it("local names before the package's functions, and those before built-in forms", () => {
    const cs = labels(at(`${HEAD}(fn h (params (count Int)) (returns Int) (body (seq (bind twice 2) (add |`));
    expect(cs.indexOf("count")).toBeLessThan(cs.indexOf("mk"));
    expect(cs.indexOf("twice")).toBeLessThan(cs.indexOf("mk"));
    expect(cs.indexOf("mk")).toBeLessThan(cs.indexOf("add"));
    // A function's own parameters are not offered outside it.
    expect(labels(at(`${HEAD}(eval (requires (tools read)) (add |`))).not.toContain("count");
  });

  it("in head position: forms and functions, not values; after (call: the manifest's tools first", () => {
    const head = at(`${HEAD}(eval (requires (tools read)) (|`);
    expect(labels(head)).toContain("mk");
    expect(labels(head)).toContain("get");
    expect(head.find((c) => c.label === "mk")!.snippet).toBe("mk (path $1) (ok $2)");
    expect(labels(head)).not.toContain("runtime");
    expect(labels(at(`${HEAD}(eval (requires (tools read)) (call |`))[0]).toBe("read");
  });

  it("the language server answers with the position, sorted by sortText, from an unclosed document", async () => {
    const text = `${HEAD}(fn f (params (r Receipt)) (returns Bool) (body (get r \n${ENTRY}`;
    const ws = new Workspace(MemoryFs.from({ "/w/t.hns": text }));
    const line = text.split("\n").findIndex((l) => l.includes("(get r "));
    const character = text.split("\n")[line]!.indexOf("(get r ") + "(get r ".length;
    const items = await ws.completion("/w/t.hns", { line, character });
    const sorted = [...items].sort((a, b) => (a.sortText! < b.sortText! ? -1 : a.sortText! > b.sortText! ? 1 : 0));
    expect(sorted.slice(0, 2).map((i) => i.label)).toEqual(["path", "verified"]);
    expect(items.every((i) => i.sortText !== undefined)).toBe(true);
  });

  describe("in a directory package, while the file being typed does not read", () => {
    // The edited files end in an unclosed list, so the package does not load: the other files'
    // functions must come from the package's listing, not from a loaded package.
    const root = "/w/p.hns";
    const files: Record<string, string> = {
      [`${root}/manifest.yao`]: `(manifest (id acme.t) (version "1.0.0") (title "T") (entry "programs/main.yao") (capabilities (tools read)))`,
      [`${root}/contract.yao`]: `(contract (purpose "p"))`,
      [`${root}/functions/load-change.yao`]: `(fn load-change (visibility exported) (description "d") (params (path String) (depth Int)) (returns Json) (effects (tool read)) (body (call read (path path))))`,
      [`${root}/functions/wrap.yao`]: `(fn wrap (params (name String) (n Int)) (returns Json) (effects (tool read)) (body (load-change `,
      [`${root}/programs/main.yao`]: `(eval (requires (tools read)) (load-change (path "a") `,
    };
    const complete = async (path: string): Promise<{ label: string; sortText?: string; detail?: string }[]> => {
      const ws = new Workspace(MemoryFs.from(files));
      const text = files[path]!;
      const items = await ws.completion(path, { line: 0, character: text.length });
      return [...items].sort((a, b) => (a.sortText! < b.sortText! ? -1 : a.sortText! > b.sortText! ? 1 : 0));
    };

    it("a callee defined in another file offers its parameters first, in the entry", async () => {
      const items = await complete(`${root}/programs/main.yao`);
      // (path "a") is given already, so only depth is left.
      expect(items[0]).toMatchObject({ label: "depth", detail: "depth : Int (parameter of load-change)" });
      expect(items.map((i) => i.label)).not.toContain("path");
    });

    it("inside a function: the callee's parameters, then the enclosing fn's own parameters", async () => {
      const items = await complete(`${root}/functions/wrap.yao`);
      const labels = items.map((i) => i.label);
      expect(labels.slice(0, 2)).toEqual(["depth", "path"]);
      expect(items[0]!.detail).toBe("depth : Int (parameter of load-change)");
      // The enclosing fn's parameters are values here, after the callee's parameter names.
      expect(labels.indexOf("n")).toBeGreaterThan(1);
      expect(labels.indexOf("name")).toBeGreaterThan(1);
      expect(items.find((i) => i.label === "name")!.detail).toBe("name : String");
      expect(labels.indexOf("name")).toBeLessThan(labels.indexOf("add"));
    });

    it("in an argument's value: the enclosing fn's parameters before the package's functions", async () => {
      const path = `${root}/functions/wrap.yao`;
      const ws = new Workspace(MemoryFs.from({ ...files, [path]: `${files[path]!}(path ` }));
      const text = `${files[path]!}(path `;
      const items = await ws.completion(path, { line: 0, character: text.length });
      const labels = [...items]
        .sort((a, b) => (a.sortText! < b.sortText! ? -1 : a.sortText! > b.sortText! ? 1 : 0))
        .map((i) => i.label);
      expect(labels).toContain("name");
      expect(labels.indexOf("name")).toBeLessThan(labels.indexOf("load-change"));
      expect(labels.indexOf("load-change")).toBeLessThan(labels.indexOf("add"));
    });
  });
});
