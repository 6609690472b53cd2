/**
 * Issue 35, the command-line surfaces: every reader of a command's own input is bounded (items 6
 * and 10), `fmt` never changes a verdict and keeps links, owners and modes (item 7), and every I/O
 * failure is exit 2 with words for people (item 8). Small sizes: the inputs over a limit are sparse
 * files or streams cut off by the reader, so nothing here allocates the sizes it is refused for.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { growingFunction, writeDirectoryPackage } from "../../../bench/lsp-uses.js";
import { BIN, yaoc } from "../../support/cli.js";
import { REPO_ROOT } from "../../support/shared.js";
import { AS_ROOT, NO_NOBODY_RUN, NOBODY } from "../../support/unprivileged.js";

const root = mkdtempSync(join(tmpdir(), "yaoc-surfaces-cli-"));
chmodSync(root, 0o755);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const LIMIT = 16 * 1024 * 1024;

/** Run the CLI with `input` bytes on stdin (a Buffer, so sizes past the limit need no string). */
function withStdin(args: readonly string[], input: Buffer) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: root, input, encoding: "utf8", timeout: 60_000 });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

function expectCleanIoError(r: { code: number; out: string; err: string }, words: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.err + r.out).toMatch(words);
  expect(r.err).not.toMatch(/internal error|\n\s+at /);
}

describe("bounded inputs (evidence, fmt, check -)", () => {
  it("evidence hash refuses standard input past 16 MiB with exit 2, not an abort", () => {
    expectCleanIoError(withStdin(["evidence", "hash"], Buffer.alloc(LIMIT + 1, 0x20)), /input limit of 16777216/);
  });

  it("fmt - refuses standard input past 16 MiB", () => {
    expectCleanIoError(withStdin(["fmt", "-"], Buffer.alloc(LIMIT + 1, 0x20)), /input limit of 16777216/);
  });

  it("check - refuses standard input past 16 MiB as cli.stdin", () => {
    const r = withStdin(["check", "-"], Buffer.alloc(LIMIT + 1, 0x20));
    expectCleanIoError(r, /cli\.stdin/);
  });

  it("fmt --check and evidence canon refuse a huge sparse file by its size, before reading it", () => {
    const big = join(root, "big.yao");
    writeFileSync(big, "");
    truncateSync(big, 1024 * 1024 * 1024);
    expectCleanIoError(yaoc(["fmt", "--check", big]), /has 1073741824 bytes, more than the input limit/);
    const json = join(root, "big.json");
    writeFileSync(json, "");
    truncateSync(json, 200 * 1024 * 1024);
    expectCleanIoError(yaoc(["evidence", "canon", json]), /has 209715200 bytes, more than the input limit/);
  });

  it("yaoc check refuses a package over the total by its files' metadata, before reading any, and says so", () => {
    // 8 sparse files of 200 MB beside each frontend's marker: 1.6 GB by their sizes, over the 1 GiB
    // the snapshot holds. HARP and A3S hold files that large, so the tree is refused whole; a
    // refusal must name the limit, not read as a missing directory.
    for (const [name, marker, text] of [
      ["big-harp", "harp.json", readFileSync(join(REPO_ROOT, "fixtures/harp/valid-minimal/harp.json"), "utf8")],
      ["big-a3s", "a3s-use-extension.acl", "use extension demo {}\n"],
    ] as const) {
      const dir = join(root, name);
      mkdirSync(dir);
      writeFileSync(join(dir, marker), text);
      for (let i = 0; i < 8; i++) {
        writeFileSync(join(dir, `big${i}.bin`), "");
        truncateSync(join(dir, `big${i}.bin`), 200 * 1024 * 1024);
      }
      const r = yaoc(["check", "--format", "json", dir]);
      expect(r.code, name).toBe(1);
      const [result] = (JSON.parse(r.out) as { results: { valid: boolean; diagnostics: { message: string }[] }[] })
        .results;
      expect(result!.valid).toBe(false);
      expect(result!.diagnostics.map((d) => d.message).join("\n")).toMatch(
        /the package's files hold 1677721\d{3} bytes by their metadata, more than the limit of 1073741824; nothing was read/,
      );
      expect(result!.diagnostics.map((d) => d.message).join("\n")).not.toMatch(/does not exist/);
    }
  });

  it("evidence canon of a device or FIFO is refused without reading it", () => {
    expectCleanIoError(yaoc(["evidence", "canon", "/dev/zero"]), /not a regular file/);
    expectCleanIoError(yaoc(["evidence", "hash", "/dev/zero"]), /not a regular file/);
    expectCleanIoError(yaoc(["fmt", "--check", "/dev/zero"]), /neither a regular file nor a directory/);
    expectCleanIoError(yaoc(["fmt", "--write", "/dev/zero"]), /neither a regular file nor a directory/);
    const fifo = join(root, "fifo.json");
    const mk = spawnSync("mkfifo", [fifo]);
    if (mk.status === 0)
      expectCleanIoError(yaoc(["fmt", "--check", fifo]), /neither a regular file|not a regular file/);
  });
});

/** A valid Yao source under the reader's 262,144-byte limit whose formatted text is over it. */
function growingSource(): string {
  let s = "(eval (seq";
  while (s.length < 261_000) s += " (fn-call-x 1 2)";
  return `${s}))\n`;
}

describe("fmt never changes a verdict, keeps links, owners and modes", () => {
  it("--write refuses a rewrite that would cross the source limit and leaves the file as it was", () => {
    const file = join(root, "grows.yao");
    const text = growingSource();
    writeFileSync(file, text);
    const w = yaoc(["fmt", "--write", file]);
    expect(w.code).toBe(1);
    expect(w.err).toMatch(/yao\.source_limit/);
    expect(w.err).toMatch(/would make it \d+ bytes, more than the limit of 262144/);
    expect(readFileSync(file, "utf8")).toBe(text);
    const c = yaoc(["fmt", "--check", file]);
    expect(c.code).toBe(1);
    expect(c.err).toMatch(/yao\.source_limit/);
  });

  /**
   * A directory package of `n` function files, each ~9.5 KB as written and ~200 KB formatted (3,000
   * comment lines inside lists nested 30 deep get indented): every file stays under the reader's
   * 262,144-byte limit after formatting, but 22 of them pass the package's 4 MiB total.
   */
  function growingPackage(name: string, n: number): string {
    const functions: [string, string][] = [];
    for (let i = 0; i < n; i++) functions.push([`f${i}`, growingFunction(`f${i}`)]);
    return writeDirectoryPackage(join(root, name), {
      id: "acme.grow",
      title: "Grow",
      main: "(eval (requires (tools)) 1)\n",
      functions,
    });
  }

  it("--write and --check refuse to format a directory package past its 4 MiB total; the verdict stays", () => {
    const pkg = growingPackage("grows-dir.hns", 22);
    expect(yaoc(["check", pkg]).code).toBe(0);
    const before = readFileSync(join(pkg, "functions", "f3.yao"), "utf8");
    const c = yaoc(["fmt", "--check", pkg]);
    expect(c.code).toBe(1);
    expect(c.err).toMatch(/hns\.package_limit/);
    expect(c.err).toMatch(/formatting the files of .*grows-dir\.hns would make the package fail its size limit/);
    expect(c.err).not.toMatch(/\n\s+at /);
    const w = yaoc(["fmt", "--write", pkg]);
    expect(w.code).toBe(1);
    expect(w.err).toMatch(/f3\.yao is left as it is: formatting its package would pass the package's size limit/);
    expect(readFileSync(join(pkg, "functions", "f3.yao"), "utf8")).toBe(before);
    expect(yaoc(["check", pkg]).code).toBe(0);
  });

  it("a directory package whose formatted files stay under the total is formatted and stays valid", () => {
    const pkg = growingPackage("grows-dir-fits.hns", 12);
    const before = readFileSync(join(pkg, "functions", "f3.yao"), "utf8");
    const w = yaoc(["fmt", "--write", pkg]);
    expect(w.code, w.err).toBe(0);
    const after = readFileSync(join(pkg, "functions", "f3.yao"), "utf8");
    expect(after.length).toBeGreaterThan(before.length * 10);
    expect(yaoc(["check", pkg]).code).toBe(0);
  });

  it("--write on a symbolic link formats the target and keeps the link", () => {
    const dir = join(root, "link");
    mkdirSync(dir);
    writeFileSync(join(dir, "real.yao"), "(eval   1)\n");
    symlinkSync("real.yao", join(dir, "via.yao"));
    const r = yaoc(["fmt", "--write", join(dir, "via.yao")]);
    expect(r.code, r.err).toBe(0);
    expect(lstatSync(join(dir, "via.yao")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, "via.yao"))).toBe("real.yao");
    expect(readFileSync(join(dir, "real.yao"), "utf8")).toBe("(eval 1)\n");
  });

  it.skipIf(!AS_ROOT)("as root (else skipped), another user's file keeps owner and group, loses setuid/setgid", () => {
    const file = join(root, "theirs.yao");
    writeFileSync(file, "(eval   2)\n");
    chownSync(file, NOBODY, NOBODY);
    chmodSync(file, 0o6755);
    const r = yaoc(["fmt", "--write", file]);
    expect(r.code, r.err).toBe(0);
    const st = statSync(file);
    expect(readFileSync(file, "utf8")).toBe("(eval 2)\n");
    expect([st.uid, st.gid]).toEqual([NOBODY, NOBODY]);
    expect(st.mode & 0o7777).toBe(0o755);
  });

  it("a file the writer owns keeps every mode bit, setuid included", () => {
    const file = join(root, "mine.yao");
    writeFileSync(file, "(eval   3)\n");
    chmodSync(file, 0o4750);
    const r = yaoc(["fmt", "--write", file]);
    expect(r.code, r.err).toBe(0);
    expect(statSync(file).mode & 0o7777).toBe(0o4750);
  });
});

describe("CLI I/O error paths are exit 2 with a clear message", () => {
  it("a 300-character file name (ENAMETOOLONG)", () => {
    const name = `${"a".repeat(300)}.hns`;
    for (const args of [
      ["check", name],
      ["fmt", "--check", name],
      ["evidence", "canon", name],
    ]) {
      expectCleanIoError(yaoc(args, { cwd: root }), /too long/);
    }
  });

  it("a link loop (ELOOP)", () => {
    symlinkSync("loop", join(root, "loop"));
    expectCleanIoError(yaoc(["check", "loop"], { cwd: root }), /loop of symbolic links/);
    expectCleanIoError(yaoc(["evidence", "hash", "loop"], { cwd: root }), /link loop/);
  });

  it("an argument that is not UTF-8 is named as such, not as missing", () => {
    // Node receives the argument with U+FFFD in place of the bytes; the real name exists on disk.
    mkdirSync(Buffer.from(join(root, "\xff.hns"), "latin1"));
    const raw = spawnSync("/bin/sh", ["-c", `exec "${process.execPath}" "${BIN}" check "$(printf '\\377.hns')"`], {
      cwd: root,
      encoding: "utf8",
    });
    expectCleanIoError({ code: raw.status ?? -1, out: raw.stdout, err: raw.stderr }, /not UTF-8/);
  });

  it.skipIf(!AS_ROOT || NO_NOBODY_RUN !== null)("unreadable directory and file (EACCES; skipped unless root)", () => {
    const dir = join(root, "closed");
    mkdirSync(dir);
    writeFileSync(join(dir, "harp.json"), "{}");
    chmodSync(dir, 0o000);
    const file = join(root, "closed.hns");
    writeFileSync(file, "(eval 1)");
    chmodSync(file, 0o000);
    const as = (args: string[]) => {
      const r = spawnSync(process.execPath, [BIN, ...args], {
        cwd: root,
        uid: NOBODY,
        gid: NOBODY,
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1" },
      });
      return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
    };
    const d = as(["check", dir]);
    expectCleanIoError(d, /cli\.unreadable.*directory cannot be listed/);
    expect(d.out).not.toMatch(/check\.no_marker/);
    expectCleanIoError(as(["check", file]), /permission denied/);
    expectCleanIoError(as(["fmt", "--check", join(root, "closed.hns")]), /permission denied/);
    expectCleanIoError(as(["evidence", "canon", file]), /permission denied/);
  });
});

describe("receipts name the resolved path", () => {
  it("a package and a symbolic link to it give one ReproHash", () => {
    const pkg = join(root, "pkg.hns");
    writeFileSync(pkg, readFileSync(join(REPO_ROOT, "examples/review.hns"), "utf8"));
    symlinkSync("pkg.hns", join(root, "alias.hns"));
    const hash = (p: string) => {
      const r = yaoc(["evidence", "receipt", p], { cwd: root });
      return (JSON.parse(r.out) as { receipts: { repro_hash: string }[] }).receipts[0]!.repro_hash;
    };
    expect(hash("alias.hns")).toBe(hash("pkg.hns"));
  });
});
