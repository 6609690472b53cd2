/**
 * `yaoc lsp` under live editing, end to end against the real server: bursts of edits end in the
 * diagnostics of a cold check of the final text, a publication never carries diagnostics of a text
 * other than its version's, and changes on disk reach the checks through didChangeWatchedFiles
 * (or, for a client that cannot watch, through re-reading the disk on every check). No timing is
 * asserted; waits fail after a generous hang guard.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/shared.js";
import { LspClient, type Publication } from "./client.js";

/** Each comparison starts a cold server; on a loaded machine that takes seconds. A hang guard, not a timing. */
const SLOW = 240_000;

const WATCHING = { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } };

const VALID = `(manifest (id live) (version "1") (title "Live") (capabilities (tools read)))
(contract (purpose "live edits"))
(fn twice
  (visibility exported)
  (description "Double a number")
  (params (n Int))
  (returns Int)
  (effects)
  (body (add n n)))
(eval
  (requires (tools read))
  (seq
    (bind a (twice (n 1)))
    (bind b (add a 2))
    (list a b)))
`;

/** Deterministic pseudo-random numbers (the same edits on every run). */
function rng(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % n;
  };
}

/** Snippets a random edit inserts: type errors, unknown names, broken and balanced parens, text. */
const SNIPPETS = ['"x"', "7", " ", "(", ")", "nope", "(add 1 2)", '(twice (n "s"))', ";c\n", "\n", "q"];

interface Edit {
  readonly range: { start: { line: number; character: number }; end: { line: number; character: number } };
  readonly text: string;
}

/** One random edit of `text` (insert, delete or replace a short run), as an LSP change and the new text. */
function randomEdit(text: string, rand: (n: number) => number): { change: Edit; text: string } {
  const from = rand(text.length + 1);
  const to = Math.min(text.length, from + (rand(3) === 0 ? 0 : rand(6)));
  const insert = rand(4) === 0 ? "" : SNIPPETS[rand(SNIPPETS.length)]!;
  const pos = (offset: number) => {
    const before = text.slice(0, offset);
    const line = before.split("\n").length - 1;
    return { line, character: offset - (before.lastIndexOf("\n") + 1) };
  };
  return {
    change: { range: { start: pos(from), end: pos(to) }, text: insert },
    text: text.slice(0, from) + insert + text.slice(to),
  };
}

/** The diagnostics a fresh server (a cold check) publishes for `files` opened with the given texts. */
async function coldDiagnostics(root: string, files: ReadonlyMap<string, string>): Promise<Map<string, any[]>> {
  const cold = await LspClient.start(root, WATCHING);
  try {
    for (const [uri, text] of files)
      cold.notify("textDocument/didOpen", { textDocument: { uri, languageId: "yao", version: 1, text } });
    // Every file's package has been checked on the final texts once each file's version 1 is published.
    const out = new Map<string, any[]>();
    for (const uri of files.keys()) out.set(uri, await cold.diagnosticsAt(uri, 1));
    // The cold server's last word for each file (a later check of the package may refine it).
    await cold.request("textDocument/documentSymbol", { textDocument: { uri: [...files.keys()][0] } });
    for (const uri of files.keys()) out.set(uri, lastFor(cold.publications(), uri)!.diagnostics);
    return out;
  } finally {
    await cold.stop();
  }
}

function lastFor(pubs: readonly Publication[], uri: string): Publication | undefined {
  return pubs.filter((p) => p.uri === uri).at(-1);
}

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "yaoc-lsp-live-"));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("yaoc lsp under live editing", () => {
  it(
    "after bursts of random edits, the published diagnostics equal a cold check of the final text (single-file package)",
    async () => {
      const file = join(dir, "live.hns");
      writeFileSync(file, VALID);
      const uri = pathToFileURL(file).href;
      const client = await LspClient.start(dir, WATCHING);
      try {
        client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "yao", version: 1, text: VALID } });
        await client.diagnosticsAt(uri, 1);
        const rand = rng(17);
        let text = VALID;
        let version = 1;
        for (let burst = 0; burst < 8; burst++) {
          // A burst: several edits sent back to back, as fast typing does.
          const n = 1 + rand(6);
          for (let i = 0; i < n; i++) {
            const e = randomEdit(text, rand);
            text = e.text;
            client.notify("textDocument/didChange", {
              textDocument: { uri, version: ++version },
              contentChanges: [e.change],
            });
          }
          const warm = await client.diagnosticsAt(uri, version);
          const cold = await coldDiagnostics(dir, new Map([[uri, text]]));
          expect(warm, `burst ${burst}, text:\n${text}`).toEqual(cold.get(uri));
        }
        // Versions are published in order: nothing older arrives after something newer.
        const versions = client
          .publications()
          .filter((p) => p.uri === uri)
          .map((p) => p.version!);
        expect(versions).toEqual([...versions].sort((a, b) => a - b));
        // The random edits did produce errors (so the comparison was not of empty lists only).
        expect(client.publications().some((p) => p.diagnostics.length > 0)).toBe(true);
      } finally {
        await client.stop();
      }
    },
    SLOW,
  );

  it(
    "after interleaved random edits to two files of a directory package, every file's diagnostics equal a cold check",
    async () => {
      const root = join(dir, "dir-random.hns");
      cpSync(join(REPO_ROOT, "examples/review-dir.hns"), root, { recursive: true });
      const paths = [join(root, "functions/load-change.yao"), join(root, "programs/main.yao")];
      const uris = paths.map((p) => pathToFileURL(p).href);
      const texts = paths.map((p) => readFileSync(p, "utf8"));
      const versions = [1, 1];
      const client = await LspClient.start(dir, WATCHING);
      try {
        uris.forEach((uri, i) =>
          client.notify("textDocument/didOpen", {
            textDocument: { uri, languageId: "yao", version: 1, text: texts[i] },
          }),
        );
        for (const uri of uris) await client.diagnosticsAt(uri, 1);
        const rand = rng(5);
        for (let burst = 0; burst < 5; burst++) {
          for (let i = 0, n = 2 + rand(5); i < n; i++) {
            const k = rand(2);
            const e = randomEdit(texts[k]!, rand);
            texts[k] = e.text;
            client.notify("textDocument/didChange", {
              textDocument: { uri: uris[k], version: ++versions[k]! },
              contentChanges: [e.change],
            });
          }
          // The package is checked as a whole: both files' newest versions get published, and a
          // request answered after them flushes whatever that check published for the other files.
          await client.diagnosticsAt(uris[0]!, versions[0]!);
          await client.diagnosticsAt(uris[1]!, versions[1]!);
          await client.request("textDocument/documentSymbol", { textDocument: { uri: uris[0] } });
          const warm = uris.map((u) => lastFor(client.publications(), u)!);
          expect(warm.map((w) => w.version)).toEqual(versions);
          const cold = await coldDiagnostics(dir, new Map(uris.map((u, i) => [u, texts[i]!])));
          expect(warm[0]!.diagnostics, `burst ${burst}`).toEqual(cold.get(uris[0]!));
          expect(warm[1]!.diagnostics, `burst ${burst}`).toEqual(cold.get(uris[1]!));
        }
        expect(client.publications().some((p) => p.diagnostics.length > 0)).toBe(true);
      } finally {
        await client.stop();
      }
    },
    SLOW,
  );

  it(
    "an overtaken version publishes nothing stale: each publication carries its own version's diagnostics",
    async () => {
      // Two texts alternate: even versions are valid, odd ones carry one type error. Sent with and
      // without pauses, to a client that cannot watch (so every check re-reads the disk and yields
      // to incoming changes mid-check) and to one that can.
      const invalid = VALID.replace("(add a 2)", '(add a "2")');
      for (const capabilities of [{}, WATCHING]) {
        const root = join(dir, `overtake-${capabilities === WATCHING ? "watch" : "nowatch"}.hns`);
        cpSync(join(REPO_ROOT, "examples/review-dir.hns"), root, { recursive: true });
        const file = join(root, "functions/load-change.yao");
        const valid = readFileSync(file, "utf8");
        const broken = valid.replace("(returns Json)", "(returns Int)");
        const uri = pathToFileURL(file).href;
        const single = join(dir, `overtake-${capabilities === WATCHING ? "watch" : "nowatch"}-single.hns`);
        writeFileSync(single, VALID);
        const singleUri = pathToFileURL(single).href;
        const client = await LspClient.start(dir, capabilities);
        try {
          const textOf = (u: string, v: number) =>
            u === uri ? (v % 2 === 0 ? valid : broken) : v % 2 === 0 ? VALID : invalid;
          client.notify("textDocument/didOpen", { textDocument: { uri, languageId: "yao", version: 2, text: valid } });
          client.notify("textDocument/didOpen", {
            textDocument: { uri: singleUri, languageId: "yao", version: 2, text: VALID },
          });
          await client.diagnosticsAt(uri, 2);
          await client.diagnosticsAt(singleUri, 2);
          let v = 2;
          for (let round = 0; round < 40; round++) {
            v++;
            for (const u of [uri, singleUri])
              client.notify("textDocument/didChange", {
                textDocument: { uri: u, version: v },
                contentChanges: [{ text: textOf(u, v) }],
              });
            if (round % 3 === 0) await new Promise((r) => setImmediate(r));
            if (round % 5 === 0) await new Promise((r) => setTimeout(r, round));
          }
          const last = v;
          await client.diagnosticsAt(uri, last);
          await client.diagnosticsAt(singleUri, last);
          for (const u of [uri, singleUri]) {
            const pubs = client.publications().filter((p) => p.uri === u);
            for (const p of pubs) {
              expect(p.version, "every publication for an open document names its version").toBeTypeOf("number");
              expect(p.diagnostics.length, `${u} version ${p.version}`).toBe(p.version! % 2 === 0 ? 0 : 1);
            }
            const vs = pubs.map((p) => p.version!);
            expect(vs).toEqual([...vs].sort((a, b) => a - b));
            expect(vs.at(-1)).toBe(last);
          }
        } finally {
          await client.stop();
        }
      }
    },
    SLOW,
  );

  it(
    "a watched-file change on disk of a non-open file of a directory package is picked up",
    async () => {
      const root = join(dir, "watched.hns");
      cpSync(join(REPO_ROOT, "examples/review-dir.hns"), root, { recursive: true });
      const mainPath = join(root, "programs/main.yao");
      const fnPath = join(root, "functions/load-change.yao");
      const mainUri = pathToFileURL(mainPath).href;
      const fnUri = pathToFileURL(fnPath).href;
      const fnText = readFileSync(fnPath, "utf8");
      const client = await LspClient.start(dir, WATCHING);
      try {
        client.notify("textDocument/didOpen", {
          textDocument: { uri: mainUri, languageId: "yao", version: 1, text: readFileSync(mainPath, "utf8") },
        });
        expect(await client.diagnosticsAt(mainUri, 1)).toEqual([]);
        expect(await client.diagnosticsFor(fnUri, 0)).toEqual([]);
        expect(
          client.serverRequests.find((r) => r.method === "client/registerCapability")?.params.registrations[0],
        ).toMatchObject({
          method: "workspace/didChangeWatchedFiles",
        });
        // The function file (not open) changes on disk: its body no longer returns what it declares.
        writeFileSync(fnPath, fnText.replace("(returns Json)", "(returns Int)"));
        let since = client.notifications.length;
        client.notify("workspace/didChangeWatchedFiles", { changes: [{ uri: fnUri, type: 2 }] });
        const ds = await client.diagnosticsFor(fnUri, since);
        expect(ds.map((d) => d.code)).toEqual(["yao.type_mismatch"]);
        // And back: the error is cleared.
        writeFileSync(fnPath, fnText);
        since = client.notifications.length;
        client.notify("workspace/didChangeWatchedFiles", { changes: [{ uri: fnUri, type: 2 }] });
        expect(await client.diagnosticsFor(fnUri, since)).toEqual([]);
        // A new function file created on disk joins the package (its listing is re-read).
        const extra = join(root, "functions/extra.yao");
        writeFileSync(
          extra,
          '(fn extra (visibility exported) (description "x") (params) (returns Int) (effects) (body "not an int"))\n',
        );
        since = client.notifications.length;
        client.notify("workspace/didChangeWatchedFiles", { changes: [{ uri: pathToFileURL(extra).href, type: 1 }] });
        expect((await client.diagnosticsFor(pathToFileURL(extra).href, since)).map((d) => d.code)).toEqual([
          "yao.type_mismatch",
        ]);
      } finally {
        await client.stop();
      }
    },
    SLOW,
  );

  it(
    "only files whose diagnostics or text changed are published again; closing a document re-reads it from disk",
    async () => {
      const root = join(dir, "resend.hns");
      cpSync(join(REPO_ROOT, "examples/review-dir.hns"), root, { recursive: true });
      const mainPath = join(root, "programs/main.yao");
      const fnPath = join(root, "functions/load-change.yao");
      const mainUri = pathToFileURL(mainPath).href;
      const fnUri = pathToFileURL(fnPath).href;
      const mainText = readFileSync(mainPath, "utf8");
      const fnText = readFileSync(fnPath, "utf8");
      const client = await LspClient.start(dir, WATCHING);
      try {
        client.notify("textDocument/didOpen", {
          textDocument: { uri: mainUri, languageId: "yao", version: 1, text: mainText },
        });
        await client.diagnosticsAt(mainUri, 1);
        expect(await client.diagnosticsFor(fnUri, 0)).toEqual([]);
        // An edit that changes no diagnostics: only the edited document is published (its new version).
        let since = client.notifications.length;
        client.notify("textDocument/didChange", {
          textDocument: { uri: mainUri, version: 2 },
          contentChanges: [{ text: `${mainText}; note\n` }],
        });
        await client.diagnosticsAt(mainUri, 2, since);
        await client.request("textDocument/documentSymbol", { textDocument: { uri: mainUri } });
        expect(client.publications(since).map((p) => p.uri)).toEqual([mainUri]);
        // The function file is saved broken by another program (no watcher event), opened with that
        // text, and closed: the check after closing reads the disk afresh, not what it read before.
        writeFileSync(fnPath, fnText.replace("(returns Json)", "(returns Int)"));
        client.notify("textDocument/didOpen", {
          textDocument: { uri: fnUri, languageId: "yao", version: 1, text: readFileSync(fnPath, "utf8") },
        });
        expect((await client.diagnosticsAt(fnUri, 1)).map((d) => d.code)).toEqual(["yao.type_mismatch"]);
        since = client.notifications.length;
        client.notify("textDocument/didClose", { textDocument: { uri: fnUri } });
        // A change to main forces a publication after the close's check.
        client.notify("textDocument/didChange", {
          textDocument: { uri: mainUri, version: 3 },
          contentChanges: [{ text: mainText }],
        });
        await client.diagnosticsAt(mainUri, 3, since);
        await client.request("textDocument/documentSymbol", { textDocument: { uri: mainUri } });
        expect(lastFor(client.publications(), fnUri)!.diagnostics.map((d) => d.code)).toEqual(["yao.type_mismatch"]);
      } finally {
        await client.stop();
      }
    },
    SLOW,
  );

  it(
    "a client that cannot watch files: every check re-reads the disk, so a change on disk shows at the next edit",
    async () => {
      const root = join(dir, "unwatched.hns");
      cpSync(join(REPO_ROOT, "examples/review-dir.hns"), root, { recursive: true });
      const mainPath = join(root, "programs/main.yao");
      const fnPath = join(root, "functions/load-change.yao");
      const mainUri = pathToFileURL(mainPath).href;
      const mainText = readFileSync(mainPath, "utf8");
      const client = await LspClient.start(dir, {});
      try {
        client.notify("textDocument/didOpen", {
          textDocument: { uri: mainUri, languageId: "yao", version: 1, text: mainText },
        });
        expect(await client.diagnosticsAt(mainUri, 1)).toEqual([]);
        // The package's other files are published right after the entry; wait for the function's.
        expect(await client.diagnosticsFor(pathToFileURL(fnPath).href, 0)).toEqual([]);
        expect(client.serverRequests.some((r) => r.method === "client/registerCapability")).toBe(false);
        writeFileSync(fnPath, readFileSync(fnPath, "utf8").replace("(returns Json)", "(returns Int)"));
        const since = client.notifications.length;
        client.notify("textDocument/didChange", {
          textDocument: { uri: mainUri, version: 2 },
          contentChanges: [{ text: `${mainText}\n` }],
        });
        const ds = await client.diagnosticsFor(pathToFileURL(fnPath).href, since);
        expect(ds.map((d) => d.code)).toEqual(["yao.type_mismatch"]);
      } finally {
        await client.stop();
      }
    },
    SLOW,
  );
});
