/**
 * The package a workspace file belongs to comes from the frontend table (src/check/frontends.ts),
 * which the language server asks instead of keeping its own marker list and suffix test; and the
 * frontend it names is the one `check` routes the package's root to, so the editor and `yaoc check`
 * cannot disagree about what a package is.
 */
import { describe, expect, it } from "vitest";
import { check } from "../../src/check/check.js";
import { packageOfFile } from "../../src/check/frontends.js";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { Workspace } from "../../src/lsp/workspace.js";

const fs = MemoryFs.from({
  "/w/app/harp.json": "{}\n",
  "/w/pack/surface.json": "{}\n",
  "/w/ext/a3s-use-extension.acl": "schema_version = 3\n",
  "/w/t.hns": "(manifest)\n",
  "/w/d.hns/manifest.yao": "(manifest)\n",
  "/w/d.hns/functions/f.yao": "(fn f)\n",
  "/w/lone.yao": "(eval 1)\n",
});

describe("packageOfFile: the package a file belongs to, by the frontend table", () => {
  const cases: [file: string, kind: string, root: string][] = [
    ["/w/app/harp.json", "harp", "/w/app"],
    ["/w/pack/surface.json", "hcp", "/w/pack"],
    ["/w/ext/a3s-use-extension.acl", "a3s", "/w/ext"],
    ["/w/t.hns", "hns", "/w/t.hns"],
    ["/w/d.hns/manifest.yao", "hns", "/w/d.hns"],
    ["/w/d.hns/functions/f.yao", "hns", "/w/d.hns"],
  ];

  it.each(cases)("%s belongs to the %s package at %s, which check routes the same way", async (file, kind, root) => {
    const pkg = await packageOfFile(fs, file);
    expect(pkg?.frontend.kind).toBe(kind);
    expect(pkg?.root).toBe(root);
    expect((await check(fs, root)).kind).toBe(kind);
  });

  it("a lone Yao source, and a file under a `.hns` name that is not a directory, belong to none", async () => {
    expect(await packageOfFile(fs, "/w/lone.yao")).toBeUndefined();
    expect(await packageOfFile(fs, "/w/t.hns/f.yao")).toBeUndefined();
  });

  it("is what the language server's owner of a file is", async () => {
    const ws = new Workspace(fs);
    expect(await ws.ownerOf("/w/app/harp.json")).toEqual({ kind: "other", root: "/w/app" });
    expect(await ws.ownerOf("/w/d.hns/functions/f.yao")).toEqual({ kind: "hns", root: "/w/d.hns" });
    expect(await ws.ownerOf("/w/lone.yao")).toEqual({ kind: "yao", root: "/w/lone.yao" });
  });
});
