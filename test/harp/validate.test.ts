import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { checkHarp, detectHarp, parseHarpJson, selectArgv, validateManifestText } from "../../src/harp/index.js";
import { looksLikeJwt } from "../../src/harp/validate.js";
import { HARP_BASE as base, harpJson } from "../support/harp-manifest.js";

const text = (m: object) => JSON.stringify(m, null, 2);
const codes = (m: object) => validateManifestText(text(m)).diagnostics.map((d) => `${d.code} ${d.pointer ?? ""}`);

describe("manifest validation", () => {
  it("accepts the minimal manifest and ignores x-<vendor> members", () => {
    expect(codes(base)).toEqual([]);
    expect(codes({ ...base, "x-fellow": { anything: [1, { deep: true }] }, "x-a-b-1": 3 })).toEqual([]);
  });

  it("rejects unknown and reserved members (C02)", () => {
    expect(codes({ ...base, ready: { kind: "http" } })).toEqual(["harp.reserved_field /ready"]);
    expect(codes({ ...base, operations: [] })).toEqual(["harp.reserved_field /operations"]);
    expect(codes({ ...base, extra: 1 })).toEqual(["harp.unknown_field /extra"]);
    expect(codes({ ...base, start: { argv: ["node"], env: {} } })).toEqual(["harp.unknown_field /start/env"]);
    expect(codes({ ...base, "x-": 1 })).toEqual(["harp.unknown_field /x-"]);
  });

  it("distinguishes reserved (C15) from unknown (C03) kinds", () => {
    for (const k of ["http-static", "window", "headless", "oneshot", "container", "wasm"]) {
      expect(codes({ ...base, runtime: { kind: k } })).toEqual(["harp.unsupported_kind /runtime/kind"]);
    }
    for (const k of ["grpc", "HTTP", "", 7, null]) {
      expect(codes({ ...base, runtime: { kind: k } })).toEqual(["harp.invalid_kind /runtime/kind"]);
    }
  });

  it("refuses higher schemaVersions without guessing and names non-manifests", () => {
    expect(codes({ ...base, schemaVersion: 3, whatever: true })).toEqual([
      "harp.unsupported_schema_version /schemaVersion",
    ]);
    expect(codes({ ...base, schemaVersion: "1" })).toEqual(["harp.invalid_value /schemaVersion"]);
    const { schemaVersion: _, ...noVersion } = base;
    expect(codes(noVersion)).toEqual(["harp.not_a_manifest "]);
  });

  it("gives pointer, reason and line/column for schema errors", () => {
    const v = validateManifestText(
      '{\n  "schemaVersion": 1,\n  "id": "Bad Id",\n  "name": "N",\n  "version": "1",\n  "runtime": {"kind": "http"},\n  "start": {"argv": ["node", "s.mjs"]}\n}\n',
    );
    expect(v.diagnostics).toHaveLength(1);
    const d = v.diagnostics[0]!;
    expect(d.pointer).toBe("/id");
    expect(d.message).toContain("/id");
    // The caret is on the offending value, not on the member's key.
    expect(d.span?.start).toEqual({ byte: 32, line: 3, column: 9 });
  });

  it("checks argv paths lexically (§7.3, §7.5)", () => {
    const argv = (...a: string[]) => codes({ ...base, start: { argv: a } });
    expect(argv("./bin/app", "data/x.json", "--port", "https://x/y")).toEqual([]);
    expect(argv("/bin/sh")).toEqual(["harp.executable_path_invalid /start/argv/0"]);
    expect(argv("./../x")).toEqual(["harp.executable_path_invalid /start/argv/0"]);
    expect(argv("bin\\app")).toEqual(["harp.executable_path_invalid /start/argv/0"]);
    expect(argv(".hidden")).toEqual(["harp.executable_path_invalid /start/argv/0"]);
    expect(argv("no de")).toEqual(["harp.runtime_name_invalid /start/argv/0"]);
    expect(argv("node", "/etc/passwd")).toEqual(["harp.argv_path_escapes /start/argv/1"]);
    expect(argv("node", "C:\\x")).toEqual(["harp.argv_path_escapes /start/argv/1"]);
    expect(argv("node", "--f=../x")).toEqual(["harp.argv_path_escapes /start/argv/1"]);
    const plat = codes({ ...base, start: { argv: ["node"], platforms: { "linux-x64": { argv: ["/abs"] } } } });
    expect(plat).toEqual(["harp.executable_path_invalid /start/platforms/linux-x64/argv/0"]);
  });

  // One case per row of the argv form table in docs/harp.md ("argv path forms").
  const argvCodes = (...args: string[]) => codes({ ...base, start: { argv: ["node", ...args] } });
  it.each([
    ["the whole value", ["/etc/passwd", "~/notes", "C:\\x", "sub/../../x"], ["data/x.json"]],
    [
      "--name=V, --name:V, -n=V",
      ["--config=/etc/notes.conf", "--config:/etc/x", "-c=/etc/x"],
      ["--config=conf/notes.toml"],
    ],
    ["key=V, key:V", ["config:/etc/passwd", "db=../x.db"], ["mode:fast", "name=notes"]],
    ["@V", ["@/etc/shadow", "@../args.txt"], ["@args.txt"]],
    ["-XV", ["-I/usr/include", "-L../lib"], ["-Iinclude", "-p8080", "-v"]],
    ["file: URL", ["file:///etc/passwd", "file://host/x", "file:%2E%2E/x", "FILE:///x"], ["file:data/x.json"]],
    ["nested forms", ["-Dconf=@/etc/x", "--opt=key:/abs", "x:///etc/passwd"], ["-Dconf=@conf/x"]],
    ["a URL with an authority", [], ["https://example.com/a/../b", "https://example.com/etc/passwd"]],
  ])("argv path forms: %s", (_form, flagged, valid) => {
    for (const a of flagged) expect(argvCodes(a), a).toEqual(["harp.argv_path_escapes /start/argv/1"]);
    for (const a of valid) expect(argvCodes(a), a).toEqual([]);
  });

  it.each([
    ["/data/notes.db", "harp.absolute_path"],
    ["/workspace/app/config.json", "harp.absolute_path"],
    ["/export/home/alice", "harp.absolute_path"],
    ["notes live in /srv/x (see docs)", "harp.absolute_path"],
    ["PATH=/usr/local/bin:/opt/x", "harp.absolute_path"],
    ["D:/data", "harp.absolute_path"],
    ["\\\\fileserver\\share", "harp.absolute_path"],
    ["open file:///var/notes", "harp.absolute_path"],
    ["~/notes", "harp.home_directory"],
    ["see ~alice/notes", "harp.home_directory"],
  ])("any absolute or home path in a value is reported: %s", (value, code) => {
    expect(codes({ ...base, description: value })).toEqual([`${code} /description`]);
  });

  it.each([
    "https://example.com/data/notes.db",
    "see https://example.com/a/b and http://127.0.0.1:8080/x",
    "reads and/or writes text/html, 24/7",
    "relative/path/only.txt",
    "./data",
    "a / b",
  ])("near misses stay valid: %s", (value) => {
    expect(codes({ ...base, description: value })).toEqual([]);
  });

  it("flags secrets, absolute paths and home directories (§9.4, §17)", () => {
    expect(codes({ ...base, "x-a": { password: "hunter2hunter2" } })).toEqual([
      "harp.secret_in_manifest /x-a/password",
    ]);
    expect(codes({ ...base, "x-a": { key: "AKIAABCDEFGHIJKLMNOP" } })).toEqual(["harp.secret_in_manifest /x-a/key"]);
    expect(codes({ ...base, "x-a": { note: "-----BEGIN RSA PRIVATE KEY-----" } })).toEqual([
      "harp.secret_in_manifest /x-a/note",
    ]);
    expect(codes({ ...base, start: { argv: ["node", "s.mjs", "--token=abcdef0123456789"] } })).toEqual([
      "harp.secret_in_manifest /start/argv/2",
    ]);
    expect(codes({ ...base, "x-a": { token: "${TOKEN}" } })).toEqual([]);
    expect(codes({ ...base, "x-a": { dir: "C:\\Users\\bob" } })).toEqual(["harp.home_directory /x-a/dir"]);
    expect(codes({ ...base, "x-a": { dir: "~/notes" } })).toEqual(["harp.home_directory /x-a/dir"]);
    expect(codes({ ...base, "x-a": { dir: "/var/lib/notes" } })).toEqual(["harp.absolute_path /x-a/dir"]);
    // URL paths are not file-system paths.
    expect(codes({ ...base, health: { path: "/usr/health" } })).toEqual([]);
  });

  it("selects argv per platform and refuses a missing platform (§7.5.3)", () => {
    const start = { argv: ["./bin/a"], platforms: { "win32-x64": { argv: ["./bin/a.exe"] } } };
    expect(selectArgv(start, "win32-x64")).toMatchObject({ ok: true, argv: ["./bin/a.exe"] });
    expect(selectArgv(start, "linux-x64")).toMatchObject({ ok: false });
    expect(selectArgv({ argv: ["node"] }, "linux-x64")).toMatchObject({ ok: true, argv: ["node"] });
  });
});

describe("hostile input", () => {
  it("bounds nesting depth and never throws", () => {
    const deep = `{"schemaVersion":1,"x-a":${"[".repeat(100000)}${"]".repeat(100000)}}`;
    expect(validateManifestText(deep).diagnostics[0]?.code).toBe("harp.json_too_deep");
    expect(validateManifestText("").diagnostics[0]?.code).toBe("harp.json_syntax");
    expect(validateManifestText("\uFEFF{}").diagnostics[0]?.code).toBe("harp.json_syntax");
    expect(validateManifestText('{"a":"\\ud800"}').diagnostics[0]?.code).toBe("harp.json_syntax");
    expect(
      validateManifestText('{"__proto__": {"x": 1}, "schemaVersion": 1}').diagnostics.map((d) => d.pointer),
    ).toContain("/__proto__");
  });

  it("parses exactly what JSON.parse parses (property)", () => {
    fc.assert(
      fc.property(fc.json(), (s) => {
        const r = parseHarpJson(s);
        // fc.json can repeat keys only via distinct objects, so both parsers must agree.
        expect(r.ok).toBe(true);
        if (r.ok) expect(JSON.stringify(r.json.value)).toBe(JSON.stringify(JSON.parse(s)));
      }),
      { numRuns: 300 },
    );
  });

  it("finds a JWT exactly where the textbook regular expression does (property)", () => {
    const jwt = /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/;
    const piece = fc.constantFrom(
      "eyJ",
      "e",
      "y",
      "J",
      "a",
      "9",
      "_",
      "-",
      ".",
      "..",
      " ",
      "\u00e9",
      "abcdefgh",
      "eyJhbGciOi",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (parts) => {
        const s = parts.join("");
        expect(looksLikeJwt(s), JSON.stringify(s)).toBe(jwt.test(s));
      }),
      { numRuns: 5000 },
    );
    expect(looksLikeJwt("Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlX3g")).toBe(true);
    expect(looksLikeJwt("xeyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlX3g")).toBe(false);
  });

  // Each input is built to defeat one pattern of the secret/path scan with backtracking (a
  // quadratic scan took >150 s on 1 MB of `eyJ-`). Linear code answers each in milliseconds; the
  // bound only catches a regression to super-linear time, it is not a benchmark.
  const MiB = 1024 * 1024;
  const fill = (unit: string, prefix = "") =>
    prefix + unit.repeat(Math.floor((MiB - 400 - prefix.length) / unit.length));
  it.each([
    ["JWT restarts", fill("eyJ-")],
    ["JWT without dots", fill("a", "eyJ")],
    ["JWT one short segment", fill("eyJaaaaaaaa.a.")],
    ["PEM header without end", fill("A", "-----BEGIN ")],
    ["PEM headers", fill("-----BEGIN A")],
    ["key prefixes", fill("sk-ghp_xoxb-AKIAAIza")],
    ["assignment without value", fill("token = ")],
    ["home without slash", fill("a", " ~")],
    ["home prefixes", fill(" ~a")],
    ["absolute prefixes", fill(" /usr/home/")],
  ])("judges 1 MiB of %s in bounded time", (_label, note) => {
    const t0 = Date.now();
    validateManifestText(text({ ...base, "x-acme": { note } }));
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it("never throws on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string(), (s) => void validateManifestText(s)),
      { numRuns: 500 },
    );
  });
});

describe("package checks through PackageFs", () => {
  const manifest = (argv: string[]) => harpJson({ start: { argv } });

  it("rejects an executable link that escapes the package (§7.5.2)", async () => {
    const fs = MemoryFs.from({ "/p/harp.json": manifest(["./bin/app"]), "/outside/app": "#!/bin/sh" });
    fs.symlink("/p/bin/app", "/outside/app");
    const r = await checkHarp(fs, "/p");
    expect(r.diagnostics.map((d) => d.code)).toEqual(["harp.executable_escapes", "harp.package_file_rejected"]);
  });

  it("rejects a FIFO or directory as executable and a special file in the tree", async () => {
    const fs = MemoryFs.from({ "/p/harp.json": manifest(["./bin/app"]), "/p/bin/app": { kind: "fifo" } });
    expect((await checkHarp(fs, "/p")).diagnostics.map((d) => d.code)).toEqual([
      "harp.executable_not_file",
      "harp.package_file_rejected",
    ]);
    const fs2 = MemoryFs.from({
      "/p/harp.json": manifest(["node", "s.mjs"]),
      "/p/s.mjs": "",
      "/p/pipe": { kind: "fifo" },
    });
    expect((await checkHarp(fs2, "/p")).diagnostics.map((d) => d.code)).toEqual(["harp.package_file_rejected"]);
  });

  it("rejects an argument that leaves the package through a link", async () => {
    const fs = MemoryFs.from({ "/p/harp.json": manifest(["node", "lib/main.mjs"]), "/secret/main.mjs": "x" });
    fs.symlink("/p/lib", "/secret");
    const r = await checkHarp(fs, "/p");
    expect(r.diagnostics.map((d) => d.code)).toContain("harp.argv_path_escapes");
  });

  it.each(["--config=lib/main.mjs", "@lib/main.mjs", "-Ilib/main.mjs", "conf:lib/main.mjs", "file:lib/main.mjs"])(
    "rejects %s when the path it carries leaves the package through a link",
    async (arg) => {
      const fs = MemoryFs.from({ "/p/harp.json": manifest(["node", arg]), "/secret/main.mjs": "x" });
      fs.symlink("/p/lib", "/secret");
      expect((await checkHarp(fs, "/p")).diagnostics.map((d) => d.code)).toContain("harp.argv_path_escapes");
      const inside = MemoryFs.from({ "/p/harp.json": manifest(["node", arg]), "/p/lib/main.mjs": "x" });
      expect((await checkHarp(inside, "/p")).diagnostics.map((d) => d.code)).toEqual([]);
    },
  );

  it("refuses a harp.json that is a link out of the package", async () => {
    const fs = MemoryFs.from({ "/elsewhere/harp.json": text(base) });
    fs.symlink("/p/harp.json", "/elsewhere/harp.json");
    const r = await checkHarp(fs, "/p");
    expect(r.diagnostics.map((d) => d.code)).toEqual(["harp.manifest_unreadable"]);
    expect(await detectHarp(fs, "/p")).toBe(false);
  });

  it("warns when start.platforms lacks the current platform", async () => {
    const m = text({
      ...base,
      start: { argv: ["node", "s.mjs"], platforms: { "win32-x64": { argv: ["node", "s.mjs"] } } },
    });
    const fs = MemoryFs.from({ "/p/harp.json": m, "/p/s.mjs": "" });
    const r = await checkHarp(fs, "/p", { platform: "linux-x64" });
    expect(r.valid).toBe(true);
    expect(r.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(["warning harp.platform_unavailable"]);
  });

  it("gives the same digest for the same content and a different one after a change", async () => {
    const files = {
      "/p/harp.json": text(base),
      "/p/server.mjs": "a",
      "/q/harp.json": text(base),
      "/q/server.mjs": "a",
    };
    const fs = MemoryFs.from(files);
    const a = await checkHarp(fs, "/p");
    expect(a.identity).toBe((await checkHarp(fs, "/q")).identity);
    fs.writeFile("/q/server.mjs", "b");
    expect(a.identity).not.toBe((await checkHarp(fs, "/q")).identity);
    expect(a.sources?.get("/p/harp.json")).toBe(text(base));
  });
});

describe("a byte order mark (docs/harp.md: the strict parser rejects a BOM)", () => {
  const manifest = harpJson({ start: { argv: ["node", "s.mjs"] } }, { compact: true });
  it("a BOM-prefixed harp.json read from disk is a syntax error at 1:1", async () => {
    const fs = MemoryFs.from({
      "/p/harp.json": new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(manifest)]),
      "/p/s.mjs": "",
    });
    const r = await checkHarp(fs, "/p");
    expect(r.valid).toBe(false);
    expect(r.diagnostics.map((d) => [d.code, d.span?.start.line, d.span?.start.column])).toEqual([
      ["harp.json_syntax", 1, 1],
    ]);
  });
  it("the same manifest without the BOM is valid", async () => {
    const fs = MemoryFs.from({ "/p/harp.json": manifest, "/p/s.mjs": "" });
    expect((await checkHarp(fs, "/p")).valid).toBe(true);
  });
});
