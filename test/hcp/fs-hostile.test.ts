/**
 * Hostile layouts that git cannot hold or that depend on the machine: symlinks leaving the pack,
 * FIFOs, loops, oversized files. Built in MemoryFs, and for FIFOs also on the real file system.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MemoryFs, type MemoryEntry } from "../../src/fs/memory-fs.js";
import { NodeFs } from "../../src/fs/node-fs.js";
import { checkHcp, detectHcp, MAX_PROTOCOL_FILE_BYTES } from "../../src/hcp/index.js";

const SURFACE = JSON.stringify({
  id: "acme.tickets",
  wrap: { bin: "./bin/tool" },
  openapi: { path: "./openapi.yaml" },
  verbs: Object.fromEntries(["a.list", "a.show", "a.make", "a.edit", "a.drop"].map((v) => [v, { argv: [v] }])),
});
const POLICY = JSON.stringify({
  surface_id: "acme.tickets",
  verbs: Object.fromEntries(["a.list", "a.show", "a.make", "a.edit", "a.drop"].map((v) => [v, { effect: "allow" }])),
});

function pack(overrides: Record<string, string | Uint8Array | MemoryEntry | null> = {}): MemoryFs {
  const files: Record<string, string | Uint8Array | MemoryEntry | null> = {
    "/p/surface.json": SURFACE,
    "/p/policy.json": POLICY,
    "/p/HARNESS.md": "# acme\n",
    "/p/bin/tool": "#!/bin/sh\n",
    "/p/openapi.yaml": "openapi: 3.1.0\n",
    "/outside/secret.json": SURFACE,
    ...overrides,
  };
  const kept = Object.fromEntries(
    Object.entries(files).filter((e): e is [string, string | Uint8Array | MemoryEntry] => e[1] !== null),
  );
  return MemoryFs.from(kept);
}

async function codes(fs: MemoryFs | NodeFs, path = "/p"): Promise<string[]> {
  const r = await checkHcp(fs, path);
  return r.diagnostics.map((d) => d.code);
}

describe("pack layout on hostile file systems", () => {
  it("accepts the base pack", async () => {
    const r = await checkHcp(pack(), "/p");
    expect(r.diagnostics).toEqual([]);
    expect(r.valid).toBe(true);
    expect(r.kind).toBe("hcp");
    expect(r.identity).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(r.sources?.get("/p/surface.json")).toBe(SURFACE);
  });

  it("reports a missing or non-directory root", async () => {
    expect(await codes(pack(), "/nowhere")).toEqual(["hcp.pack.not_directory"]);
    expect(await codes(pack(), "/p/HARNESS.md")).toEqual(["hcp.pack.not_directory"]);
  });

  it("rejects a protocol file that is a symlink leaving the pack", async () => {
    const fs = pack({ "/p/surface.json": { kind: "symlink", target: "/outside/secret.json" } });
    expect(await codes(fs)).toEqual(["hcp.pack.file_escapes"]);
  });

  it("accepts a protocol file that is a symlink inside the pack", async () => {
    const fs = pack({
      "/p/surface.json": { kind: "symlink", target: "real/surface.json" },
      "/p/real/surface.json": SURFACE,
    });
    expect(await codes(fs)).toEqual([]);
  });

  it("rejects a FIFO, a directory and a device without reading them", async () => {
    expect(await codes(pack({ "/p/policy.json": { kind: "fifo" } }))).toEqual(["hcp.pack.not_regular_file"]);
    expect(await codes(pack({ "/p/HARNESS.md": { kind: "directory" } }))).toEqual(["hcp.pack.not_regular_file"]);
    expect(await codes(pack({ "/p/HARNESS.md": { kind: "char-device" } }))).toEqual(["hcp.pack.not_regular_file"]);
  });

  it("reports symlink loops and dangling links", async () => {
    const loop = pack({ "/p/policy.json": { kind: "symlink", target: "policy.json" } });
    expect(await codes(loop)).toEqual(["hcp.pack.unreadable"]);
    const dangling = pack({ "/p/policy.json": { kind: "symlink", target: "gone.json" } });
    expect(await codes(dangling)).toEqual(["hcp.pack.missing_file"]);
  });

  it("rejects oversized protocol files before reading them", async () => {
    const big = new Uint8Array(MAX_PROTOCOL_FILE_BYTES + 1).fill(0x20);
    expect(await codes(pack({ "/p/HARNESS.md": big }))).toEqual(["hcp.file.too_large"]);
  });

  it("rejects manifest paths that escape through symlinks, and non-regular targets", async () => {
    expect(await codes(pack({ "/p/bin/tool": { kind: "symlink", target: "/outside/secret.json" } }))).toEqual([
      "hcp.path.escape",
    ]);
    expect(await codes(pack({ "/p/bin": { kind: "symlink", target: "/outside" }, "/p/bin/tool": null }))).toEqual([
      "hcp.path.escape",
    ]);
    expect(await codes(pack({ "/p/bin/tool": null }))).toEqual(["hcp.path.not_found"]);
    expect(await codes(pack({ "/p/openapi.yaml": { kind: "fifo" } }))).toEqual(["hcp.path.not_regular_file"]);
    expect(await codes(pack({ "/p/openapi.yaml": { kind: "symlink", target: "openapi.yaml" } }))).toEqual([
      "hcp.path.not_regular_file",
    ]);
  });

  it("detects packs by the exact names of the three files", async () => {
    expect(await detectHcp(pack(), "/p")).toBe(true);
    expect(await detectHcp(pack({ "/p/HARNESS.md": null, "/p/harness.md": "# x\n" }), "/p")).toBe(false);
    expect(await detectHcp(pack(), "/outside")).toBe(false);
    expect(await detectHcp(pack(), "/p/surface.json")).toBe(false);
    expect(await detectHcp(pack(), "/missing")).toBe(false);
  });
});

describe("on the real file system", () => {
  const dir = mkdtempSync(join(tmpdir(), "yaoc-hcp-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function realPack(name: string): string {
    const root = join(dir, name);
    mkdirSync(join(root, "bin"), { recursive: true });
    writeFileSync(join(root, "surface.json"), SURFACE);
    writeFileSync(join(root, "policy.json"), POLICY);
    writeFileSync(join(root, "HARNESS.md"), "# acme\n");
    writeFileSync(join(root, "bin/tool"), "#!/bin/sh\n");
    writeFileSync(join(root, "openapi.yaml"), "openapi: 3.1.0\n");
    return root;
  }

  it("rejects a FIFO protocol file without blocking", async () => {
    const root = realPack("fifo");
    rmSync(join(root, "policy.json"));
    execFileSync("mkfifo", [join(root, "policy.json")]);
    expect(await codes(new NodeFs(), root)).toEqual(["hcp.pack.not_regular_file"]);
  });

  it("rejects a FIFO named by openapi.path without blocking", async () => {
    const root = realPack("fifo-openapi");
    rmSync(join(root, "openapi.yaml"));
    execFileSync("mkfifo", [join(root, "openapi.yaml")]);
    expect(await codes(new NodeFs(), root)).toEqual(["hcp.path.not_regular_file"]);
  });

  it("rejects symlinks leaving the pack", async () => {
    const root = realPack("escape");
    writeFileSync(join(dir, "elsewhere.json"), SURFACE);
    rmSync(join(root, "surface.json"));
    symlinkSync(join(dir, "elsewhere.json"), join(root, "surface.json"));
    rmSync(join(root, "bin/tool"));
    symlinkSync("../../elsewhere.json", join(root, "bin/tool"));
    const r = await checkHcp(new NodeFs(), root);
    expect(r.diagnostics.map((d) => d.code)).toEqual(["hcp.pack.file_escapes"]);
    // surface.json is unusable, so manifest paths are not checked; restore it and check wrap.bin.
    rmSync(join(root, "surface.json"));
    writeFileSync(join(root, "surface.json"), SURFACE);
    expect(await codes(new NodeFs(), root)).toEqual(["hcp.path.escape"]);
  });

  it("follows a pack root that is itself a symlink", async () => {
    const root = realPack("target");
    symlinkSync(root, join(dir, "link"));
    expect(await codes(new NodeFs(), join(dir, "link"))).toEqual([]);
  });
});
