/// <reference lib="dom" />
/**
 * The browser bundle and the playground in a real headless Chromium (Debian's `chromium`, driven
 * by playwright-core; never a downloaded browser). Without a Chromium this file is skipped with a
 * message saying how to install one; `.ci/run` installs it and sets YAOC_REQUIRE_SYSTEM_TOOLS=1, so
 * in CI a missing Chromium fails this file instead of skipping it.
 *
 * Playground: load the page, load an example from the menu, type a type error, see the diagnostic
 * on the line `yaoc check` reports for the same text, fix it, see the identity `yaoc check`
 * reports for the same text. A screenshot is saved under the test's temporary directory. The layout
 * at a phone's, a tablet's and a laptop's width; hover and completion against the language
 * server's own functions run here in Node; Run against `yaoc run` for a pure and an effectful
 * program; the foldable IR against `yaoc ir`; related notes, auto-closed quotes, example names.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryFs } from "../../src/fs/memory-fs.js";
import { completeAt } from "../../src/lsp/completion.js";
import { Workspace } from "../../src/lsp/workspace.js";
import { REPO_ROOT } from "../support/shared.js";
import { REQUIRE_SYSTEM_TOOLS } from "../support/system-tools.js";

const CHROMIUM = process.env["YAOC_CHROMIUM"] ?? "/usr/bin/chromium";
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const BIN = join(REPO_ROOT, "bin/yaoc.js");

if (!HAVE_CHROMIUM && !REQUIRE_SYSTEM_TOOLS) {
  process.stderr.write(
    `test/browser: skipped: no Chromium at ${CHROMIUM}. Install it with 'sudo apt-get install -y chromium' (Debian/Ubuntu), or point YAOC_CHROMIUM at a Chromium executable.\n`,
  );
}

/** The playground's editor, as the page exposes it for tests. */
type PageView = {
  state: { doc: { toString(): string; length: number } };
  dispatch(t: unknown): void;
  focus(): void;
  coordsAtPos(pos: number): { left: number; right: number; top: number; bottom: number } | null;
};
declare const window: { yaocPlayground: { view: PageView } };

/** `yaoc` with `args` from the repository root: exit status and stdout. */
function yaoc(...args: string[]): { status: number | null; stdout: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, encoding: "utf8" });
  return { status: r.status, stdout: r.stdout };
}

/** `yaoc check --format json` of one file holding `text`, named `name`, in a fresh directory. */
function cliCheck(
  dir: string,
  name: string,
  text: string,
): { valid: boolean; identity: string | null; diagnostics: { code: string; line: number | null }[] } {
  const path = join(dir, name);
  writeFileSync(path, text);
  const r = spawnSync(process.execPath, [BIN, "check", "--format", "json", path], { encoding: "utf8" });
  return (JSON.parse(r.stdout) as { results: ReturnType<typeof cliCheck>[] }).results[0]!;
}

describe.skipIf(!HAVE_CHROMIUM && !REQUIRE_SYSTEM_TOOLS)("in Chromium (skipped without it)", () => {
  let tmp = "";
  let server: Server;
  let base = "";
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), "yaoc-browser-"));
    const { buildPlayground } = await import("../../playground/build.mjs");
    const { buildBrowserBundle } = await import("../../scripts/build-browser.mjs");
    await buildPlayground();
    await buildBrowserBundle();
    const { servePlayground } = await import("../../playground/serve.mjs");
    ({ server, url: base } = await servePlayground(join(REPO_ROOT, "dist")));
    context = await chromium.launchPersistentContext(join(tmp, "profile"), {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on("pageerror", (e) => pageErrors.push(String(e)));
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    // Keep the screenshot for whoever runs the test by hand; remove everything else.
    if (tmp !== "") rmSync(join(tmp, "profile"), { recursive: true, force: true });
    if (tmp !== "" && process.env["YAOC_KEEP_SCREENSHOTS"] === undefined) rmSync(tmp, { recursive: true, force: true });
  });

  it("the browser bundle checks packages in the page with the identities Node computes, loading frontends lazily", async () => {
    await page.goto(`${base}playground/index.html`);
    const review = readFileSync(join(REPO_ROOT, "examples/review.hns"), "utf8");
    const hcpFiles = Object.fromEntries(
      ["surface.json", "policy.json", "HARNESS.md"].map((f) => [
        `/valid/${f}`,
        readFileSync(join(REPO_ROOT, "fixtures/hcp/valid", f), "utf8"),
      ]),
    );
    // A string, so the test runner's module transform leaves the page's own import() alone.
    const script = `(async () => {
      const yaoc = await import("/browser/yaoc.min.js");
      const hns = await yaoc.checkSource("review.hns", ${JSON.stringify(review)});
      const hcp = await yaoc.check(yaoc.MemoryFs.from(${JSON.stringify(hcpFiles)}), "/valid");
      const bad = await yaoc.checkSource("bad.hns", "(manifest");
      return { hns: [hns.valid, hns.identity], hcp: [hcp.kind, hcp.valid, hcp.identity], bad: bad.diagnostics.map((d) => d.code) };
    })()`;
    const inPage = (await page.evaluate(script)) as { hns: unknown[]; hcp: unknown[]; bad: string[] };
    const cli = (path: string) =>
      JSON.parse(
        spawnSync(process.execPath, [BIN, "check", "--format", "json", path], { cwd: REPO_ROOT, encoding: "utf8" })
          .stdout,
      ).results[0];
    expect(inPage.hns).toEqual([true, cli("examples/review.hns").identity]);
    expect(inPage.hcp).toEqual(["hcp", true, cli("fixtures/hcp/valid").identity]);
    expect(inPage.bad).toEqual(cliCheck(tmp, "bad.hns", "(manifest").diagnostics.map((d) => d.code));
  }, 120_000);

  it("playground: semantic highlighting is the language server's classification", async () => {
    await page.goto(`${base}playground/index.html`);
    await page.waitForSelector("#verdict[data-state=valid]");
    await page.selectOption("#examples", "review.hns");
    await page.waitForSelector("#verdict[data-state=valid]");
    await page.waitForSelector(".cm-yao-function");
    const marked = async (cls: string) => page.$$eval(`.cm-yao-${cls}`, (els) => els.map((e) => e.textContent));
    expect(await marked("function")).toEqual(["load-change", "load-change"]);
    expect(await marked("interface")).toEqual(["read", "search", "read", "read", "read", "search"]);
    expect(await marked("parameter")).toEqual(["path", "path", "path", "path"]);
    expect(await marked("type")).toEqual(["String", "Json"]);
    expect(await marked("declaration")).toEqual(["load-change", "path"]);
  }, 60_000);

  it("playground: example → type error on the CLI's line → fix → the CLI's identity", async () => {
    await page.goto(`${base}playground/index.html`);
    await page.waitForSelector("#verdict[data-state=valid]");
    await page.selectOption("#examples", "review.hns");
    await page.waitForSelector("#verdict[data-state=valid]");
    const original = readFileSync(join(REPO_ROOT, "examples/review.hns"), "utf8");
    expect(
      await page.evaluate(() =>
        (
          window as unknown as { yaocPlayground: { view: { state: { doc: { toString(): string } } } } }
        ).yaocPlayground.view.state.doc.toString(),
      ),
    ).toBe(original);

    // Introduce a type error by typing: the function returns Json, declare Int instead.
    const select = async (needle: string) => {
      await page.evaluate((needle) => {
        const view = (
          window as unknown as {
            yaocPlayground: {
              view: { state: { doc: { toString(): string } }; dispatch(t: unknown): void; focus(): void };
            };
          }
        ).yaocPlayground.view;
        const at = view.state.doc.toString().indexOf(needle);
        if (at < 0) throw new Error(`${needle} not in the editor`);
        view.dispatch({ selection: { anchor: at, head: at + needle.length } });
        view.focus();
      }, needle);
    };
    await select("(returns Json)");
    await page.keyboard.type("(returns Int)");
    const broken = original.replace("(returns Json)", "(returns Int)");
    const expected = cliCheck(tmp, "review.hns", broken);
    expect(expected.valid).toBe(false);
    const first = expected.diagnostics[0]!;
    await page.waitForSelector("#verdict[data-state=invalid]");
    const shown = await page.$$eval("#diagnostics > li", (items) =>
      items.map((li) => ({ code: li.getAttribute("data-code"), line: li.getAttribute("data-line") })),
    );
    expect(shown).toEqual(
      expected.diagnostics.map((d) => ({ code: d.code, line: d.line === null ? null : String(d.line) })),
    );
    expect(first.code).toBe("yao.type_mismatch");
    // Inline too: the editor marks the same line.
    await page.waitForSelector(".cm-lintRange-error");
    const markedLine = await page.evaluate(() => {
      const view = (
        window as unknown as {
          yaocPlayground: {
            view: { state: { doc: { lineAt(n: number): { number: number } } }; posAtDOM(n: Node): number };
          };
        }
      ).yaocPlayground.view;
      return view.state.doc.lineAt(view.posAtDOM(document.querySelector(".cm-lintRange-error")!)).number;
    });
    expect(markedLine).toBe(first.line);
    await page.screenshot({ path: join(tmp, "playground-type-error.png") });

    // Fix it by typing, and the identity is the CLI's for the same text.
    await select("(returns Int)");
    await page.keyboard.type("(returns Json)");
    await page.waitForSelector("#verdict[data-state=valid]");
    const identity = cliCheck(tmp, "review.hns", original).identity;
    expect(identity).toMatch(/^sha256:/);
    expect(await page.textContent("#tab-identity")).toContain(`identity:     ${identity}`);
    await page.screenshot({ path: join(tmp, "playground-fixed.png") });
    expect(existsSync(join(tmp, "playground-fixed.png"))).toBe(true);

    // The other tabs: typed IR and evaluation profile of the valid package; fmt says what it can.
    await page.click("#tabs [data-tab=ir]");
    expect(JSON.parse((await page.textContent("#tab-ir"))!)).toBeTypeOf("object");
    expect(await page.textContent("#tab-profile")).toContain("load-change");
    const fmt = (await page.textContent("#tab-fmt"))!;
    if (existsSync(join(REPO_ROOT, "src/fmt/index.ts"))) expect(fmt).not.toContain("formatter not available");
    else expect(fmt).toContain("formatter not available");
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it("playground: a directory package shows its file tree, and a shared address restores the edited package", async () => {
    await page.goto(`${base}playground/index.html`);
    await page.waitForSelector("#verdict[data-state=valid]");
    await page.selectOption("#examples", "review-dir.hns");
    await page.waitForSelector("#file-tree button[data-file='manifest.yao']");
    const tree = await page.$$eval("#file-tree button", (b) => b.map((x) => x.getAttribute("data-file")));
    expect(tree).toContain("contract.yao");
    await page.waitForSelector("#verdict[data-state=valid]");
    await page.click("#file-tree button[data-file='contract.yao']");
    await page.click(".cm-content");
    await page.keyboard.press("Control+End");
    await page.keyboard.type("\n(oops");
    await page.waitForSelector("#verdict[data-state=invalid]");
    await page.click("#share");
    await page.waitForFunction(() => location.hash.startsWith("#p="));
    const url = page.url();
    expect(url).toContain("#p=");
    const again = await context.newPage();
    await again.goto(url);
    await again.waitForSelector("#verdict[data-state=invalid]");
    const files = await again.evaluate(
      () =>
        (window as unknown as { yaocPlayground: { package: { name: string; files: Record<string, string> } } })
          .yaocPlayground.package,
    );
    expect(files.name).toBe("review-dir.hns");
    // The typed `(` was closed by the editor.
    expect(files.files["contract.yao"]).toMatch(/\(oops\)$/);
    await again.close();
    // A malformed address falls back to an example and says so.
    await page.goto("about:blank"); // a fragment-only change would not reload the page
    await page.goto(`${base}playground/index.html#p=not-base64!`);
    await page.waitForSelector("#verdict[data-state=valid]");
    expect(await page.textContent("#share-status")).toContain("no readable package");
  }, 120_000);
  /** Put the cursor at the end of the first `needle` in the editor (or its start with `atStart`). */
  const cursorAt = async (needle: string, atStart = false) => {
    await page.evaluate(
      ([needle, atStart]) => {
        const view = window.yaocPlayground.view;
        const at = view.state.doc.toString().indexOf(needle as string);
        if (at < 0) throw new Error(`${needle} not in the editor`);
        const pos = atStart ? at : at + (needle as string).length;
        view.dispatch({ selection: { anchor: pos } });
        view.focus();
      },
      [needle, atStart] as const,
    );
  };
  const editorText = () => page.evaluate(() => window.yaocPlayground.view.state.doc.toString());
  const loadExample = async (name: string) => {
    await page.goto(`${base}playground/index.html`);
    await page.waitForSelector("#verdict[data-state=valid]");
    await page.selectOption("#examples", name);
    await page.waitForFunction(
      (name) =>
        (window as unknown as { yaocPlayground: { package: { name: string } } }).yaocPlayground.package.name === name,
      name,
    );
    await page.waitForSelector("#verdict[data-state=valid]");
  };

  it("playground: at 390, 768 and 1366 px the editor has the width, and on a phone the panels stack under it", async () => {
    const boxes: Record<
      number,
      Record<string, { left: number; top: number; right: number; bottom: number; width: number }>
    > = {};
    try {
      for (const width of [390, 768, 1366]) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(`${base}playground/index.html`);
        await page.waitForSelector("#verdict[data-state=valid]");
        boxes[width] = await page.evaluate(() => {
          const box = (sel: string) => {
            const r = document.querySelector(sel)!.getBoundingClientRect();
            return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width };
          };
          const page = document.documentElement.clientWidth;
          return {
            editor: box("#editor .cm-editor"),
            files: box("#files"),
            side: box("#side"),
            outputs: box("#outputs"),
            page: { left: 0, top: 0, right: page, bottom: 0, width: page },
          };
        });
        await page.screenshot({ path: join(tmp, `playground-${width}.png`), fullPage: true });
      }
    } finally {
      await page.setViewportSize({ width: 1366, height: 800 });
    }
    for (const width of [390, 768, 1366]) {
      const b = boxes[width]!;
      expect(b["editor"]!.width, `editor at ${width}`).toBeGreaterThan(0);
      // Nothing sticks out sideways.
      for (const k of ["editor", "files", "side", "outputs"])
        expect(b[k]!.right, `${k} at ${width}`).toBeLessThanOrEqual(b["page"]!.width + 1);
    }
    // Phone: the editor fills the width; the file list above it, the diagnostics and outputs below.
    const phone = boxes[390]!;
    expect(phone["editor"]!.width).toBeGreaterThanOrEqual(phone["page"]!.width - 2);
    expect(phone["files"]!.bottom).toBeLessThanOrEqual(phone["editor"]!.top + 1);
    expect(phone["side"]!.top).toBeGreaterThanOrEqual(phone["editor"]!.bottom - 1);
    expect(phone["outputs"]!.top).toBeGreaterThanOrEqual(phone["side"]!.bottom - 1);
    expect(phone["side"]!.width).toBeGreaterThanOrEqual(phone["page"]!.width - 2);
    // Tablet: the editor beside the file list has most of the width; the diagnostics under both.
    const tablet = boxes[768]!;
    expect(tablet["editor"]!.width).toBeGreaterThan(0.7 * 768);
    expect(tablet["side"]!.top).toBeGreaterThanOrEqual(tablet["editor"]!.bottom - 1);
    // Laptop: three columns, files | editor | diagnostics.
    const laptop = boxes[1366]!;
    expect(laptop["editor"]!.left).toBeGreaterThanOrEqual(laptop["files"]!.right - 1);
    expect(laptop["side"]!.left).toBeGreaterThanOrEqual(laptop["editor"]!.right - 1);
    expect(laptop["editor"]!.width).toBeGreaterThan(0.5 * 1366);
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it("playground: hover is the language server's Workspace.hover, completion its completeAt order", async () => {
    await loadExample("review.hns");
    const text = await editorText();
    const workspace = new Workspace(MemoryFs.from({ "/review.hns": text }));
    const lineOf = (offset: number) => {
      const before = text.slice(0, offset);
      return { line: before.split("\n").length - 1, character: offset - (before.lastIndexOf("\n") + 1) };
    };
    // An operator, the package's own function (with its analysed type), a parameter's use.
    const points = [
      ["(call read", 2],
      ["(load-change (path", 2],
      ["(path path)", 7],
    ] as const;
    for (const [needle, delta] of points) {
      const offset = text.indexOf(needle) + delta;
      expect(offset, needle).toBeGreaterThanOrEqual(delta);
      const expected = await workspace.hover("/review.hns", lineOf(offset));
      expect(expected, needle).toBeDefined();
      const at = await page.evaluate((pos) => {
        const c = window.yaocPlayground.view.coordsAtPos(pos)!;
        return { x: c.left + 2, y: (c.top + c.bottom) / 2 };
      }, offset);
      await page.mouse.move(0, 0);
      await page.waitForSelector(".yao-hover", { state: "detached" });
      await page.mouse.move(at.x, at.y);
      await page.waitForSelector(".yao-hover");
      const shown = (await page.textContent(".yao-hover"))!;
      // The same text, without the markdown's fences and backticks.
      const plain = (s: string) =>
        s
          .replace(/```[a-z]*/g, "")
          .replace(/`/g, "")
          .replace(/\s+/g, "");
      expect(plain(shown), needle).toBe(plain(expected!.markdown));
      // The code block is a <pre>.
      expect(await page.$$eval(".yao-hover pre", (p) => p.length), needle).toBeGreaterThan(0);
    }
    await page.mouse.move(0, 0);

    // Completion in a function's argument list, asked for explicitly: the callee's parameter first,
    // in completeAt's order, and choosing it inserts its snippet.
    await cursorAt('(load-change (path "CHANGELOG.md")', true);
    await page.keyboard.press("End");
    await page.keyboard.type("\n(eval (load-change ");
    const now = await editorText();
    const offset = now.indexOf("(eval (load-change ") + "(eval (load-change ".length;
    const expected = completeAt(now, offset)
      .map((c, i) => ({ c, i }))
      .sort((a, b) => (a.c.sortText < b.c.sortText ? -1 : a.c.sortText > b.c.sortText ? 1 : a.i - b.i))
      .map(({ c }) => c.label);
    expect(expected[0]).toBe("path");
    await page.keyboard.press("Control+Space");
    // Under load the list can first show what the typing's own completion found; wait for the
    // explicit request's full list (a list that stays at one entry times out and fails).
    await page.waitForFunction(() => document.querySelectorAll(".cm-tooltip-autocomplete li").length > 1);
    const listed = await page.$$eval(".cm-tooltip-autocomplete li .cm-completionLabel", (l) =>
      l.map((x) => x.textContent),
    );
    expect(listed.length).toBeGreaterThan(1);
    expect(listed.slice(0, 10)).toEqual(expected.slice(0, Math.min(10, listed.length)));
    // CodeMirror ignores Enter for its interactionDelay (75 ms) after the list opens.
    await page.waitForTimeout(200);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() =>
      window.yaocPlayground.view.state.doc.toString().includes("(eval (load-change (path ))"),
    );
    // While typing an atom (the list still unclosed before the auto-closed paren): own names match.
    await page.keyboard.press("Control+End");
    await page.keyboard.type("\n(eval (load-");
    await page.waitForSelector(".cm-tooltip-autocomplete li");
    const typed = await page.$$eval(".cm-tooltip-autocomplete li .cm-completionLabel", (l) =>
      l.map((x) => x.textContent),
    );
    expect(typed[0]).toBe("load-change");
    await page.keyboard.press("Escape");
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it("playground: Run gives a pure program's value, and an effectful one's requests, answered and resumed, as yaoc run does", async () => {
    // Pure: the value, as `yaoc run` prints it.
    await loadExample("order-total.hns");
    const cliPure = yaoc("run", "playground/examples/order-total.hns");
    expect(cliPure.status).toBe(0);
    const valueLine = cliPure.stdout.split("\n")[0]!;
    expect(valueLine).toMatch(/^value: \(record Total /);
    await page.click("#run");
    await page.waitForSelector("#tab-run [data-outcome=value]");
    expect(await page.isVisible("#tab-run")).toBe(true);
    expect((await page.textContent("#tab-run [data-outcome=value]"))!.trim()).toBe(valueLine);

    // Effectful: the tool request `yaoc run --format json` gives, with the same id.
    await loadExample("review.hns");
    const cli = JSON.parse(yaoc("run", "--format", "json", "examples/review.hns").stdout) as {
      outcome: string;
      requests: { id: string; kind: string; tool: string }[];
      state: unknown;
    };
    expect(cli.outcome).toBe("suspended");
    expect(cli.requests.map((r) => [r.kind, r.tool])).toEqual([["tool", "read"]]);
    const id = cli.requests[0]!.id;
    await page.click("#run");
    await page.waitForSelector("#tab-run .request");
    const requests = await page.$$eval("#tab-run .request", (rs) =>
      rs.map((r) => [r.getAttribute("data-id"), r.getAttribute("data-kind")]),
    );
    expect(requests).toEqual([[id, "tool"]]);
    expect(await page.textContent("#tab-run .request")).toContain("call read");

    // A completion for another id is refused and changes nothing.
    await page.fill("#tab-run .request textarea", JSON.stringify({ id: "yao-effect:0:9", value: null }));
    await page.click("#tab-run .request button");
    await page.waitForSelector("#tab-run .run-note");
    expect(await page.textContent("#tab-run .run-note")).toContain("refused (integrity)");
    expect(await page.$$eval("#tab-run .request", (rs) => rs.length)).toBe(1);

    // The user's answer resumes the machine: the value `yaoc run --resume` gives for the same completion.
    const completion = { id, value: { content: "# Changelog", lines: 1 } };
    const stateFile = join(tmp, "review.state.json");
    const completionFile = join(tmp, "review.completion.json");
    writeFileSync(stateFile, typeof cli.state === "string" ? cli.state : JSON.stringify(cli.state));
    writeFileSync(completionFile, JSON.stringify(completion));
    const resumed = yaoc("run", "--resume", stateFile, "--completion", completionFile);
    expect(resumed.status).toBe(0);
    const resumedLine = resumed.stdout.split("\n")[0]!;
    expect(resumedLine).toMatch(/^value: /);
    await page.fill("#tab-run .request textarea", JSON.stringify(completion));
    await page.click("#tab-run .request button");
    await page.waitForSelector("#tab-run [data-outcome=value]");
    expect((await page.textContent("#tab-run [data-outcome=value]"))!.trim()).toBe(resumedLine);

    // Nothing to run for a pack that is not HNS.
    await loadExample("harness-pack");
    await page.waitForSelector("#run[disabled]");
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it("playground: Run admits a model-written program against the package, with yaoc run's refusal", async () => {
    const text = `(manifest (id acme.notes) (version "1.0.0") (title "Notes") (capabilities (tools read)))
(contract (purpose "notes"))
(fn normalize (params (path String)) (returns String) (body path))
(eval (requires (tools read)) (seq (bind p (infer (returns (Program String (effects))) "write a program")) (run p)))
`;
    // The model applies the package's internal function: admitted against the tool schemas alone,
    // it would run; admitted against the package, it is refused.
    const internal = '(eval (normalize (path "b.md")))';
    const pkgFile = join(tmp, "notes.hns");
    writeFileSync(pkgFile, text);
    const started = JSON.parse(yaoc("run", "--format", "json", pkgFile).stdout) as {
      requests: { id: string; kind: string }[];
      state: unknown;
    };
    expect(started.requests.map((r) => r.kind)).toEqual(["infer"]);
    const id = started.requests[0]!.id;
    const stateFile = join(tmp, "notes.state.json");
    const completionFile = join(tmp, "notes.completion.json");
    writeFileSync(stateFile, typeof started.state === "string" ? started.state : JSON.stringify(started.state));
    writeFileSync(completionFile, JSON.stringify({ id, text: internal }));
    const refused = yaoc("run", "--resume", stateFile, "--completion", completionFile, "--format", "json");
    const cliFailure = JSON.parse(refused.stdout) as { class: string; message: string };
    expect(cliFailure.class).toBe("inference");
    expect(cliFailure.message).toMatch(/^the model's program is not admitted against acme\.notes 1\.0\.0 sha256:/);

    await loadExample("order-total.hns");
    await page.evaluate((text) => {
      const view = window.yaocPlayground.view;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    }, text);
    // Run starts the last typed IR: wait until it is the new package's (its infer's prompt is in it).
    await page.waitForFunction(() => document.querySelector("#tab-ir")?.textContent?.includes("write a program"));
    await page.waitForSelector("#verdict[data-state=valid]");
    await page.click("#run");
    // The page's request id is its own: the program's spans name the playground's file.
    await page.waitForSelector("#tab-run .request[data-kind=infer]");
    const pageId = await page.getAttribute("#tab-run .request", "data-id");
    await page.fill("#tab-run .request textarea", JSON.stringify({ id: pageId, text: internal }));
    await page.click("#tab-run .request button");
    await page.waitForSelector("#tab-run [data-outcome=failure]");
    expect(await page.getAttribute("#tab-run [data-outcome=failure]", "data-class")).toBe("inference");
    expect(await page.textContent("#tab-run [data-outcome=failure]")).toContain(cliFailure.message);
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it("playground: a foldable pretty IR, related notes, auto-closed quotes, examples named for what they are", async () => {
    const labels = await page.$$eval("#examples option", (o) => o.map((x) => [x.getAttribute("value"), x.textContent]));
    expect(labels.length).toBeGreaterThan(3);
    expect(labels.map(([v]) => v)).not.toContain("valid");
    expect(labels.find(([v]) => v === "harness-pack")?.[1]).toContain("HCP");
    expect(labels.find(([v]) => v === "order-total.hns")?.[1]).toContain("pure");
    expect(labels.find(([v]) => v === "review-dir.hns")?.[1]).toContain("directory");

    await loadExample("review.hns");
    await page.click("#tabs [data-tab=ir]");
    await page.waitForSelector("#tab-ir details");
    // Pretty-printed: one line per member; foldable: objects and arrays are <details>.
    const lines = await page.$$eval("#tab-ir .line, #tab-ir summary", (l) => l.length);
    expect(lines).toBeGreaterThan(20);
    const ir = yaoc("ir", "examples/review.hns");
    expect(ir.status).toBe(0);
    expect(JSON.parse((await page.textContent("#tab-ir"))!)).toEqual(JSON.parse(ir.stdout));
    const firstNested = "#tab-ir > details > details";
    expect(await page.$eval(firstNested, (d) => (d as HTMLDetailsElement).open)).toBe(true);
    await page.click(`${firstNested} > summary`);
    expect(await page.$eval(firstNested, (d) => (d as HTMLDetailsElement).open)).toBe(false);

    // Related notes under the diagnostic, at the line the CLI names; help after them.
    await cursorAt("(returns Json)", true);
    await page.evaluate(() => {
      const view = window.yaocPlayground.view;
      const at = view.state.doc.toString().indexOf("(returns Json)");
      view.dispatch({ changes: { from: at, to: at + "(returns Json)".length, insert: "(returns Int)" } });
    });
    await page.waitForSelector("#verdict[data-state=invalid]");
    const cli = cliCheck(tmp, "review.hns", await editorText());
    const related = cli.diagnostics[0] as unknown as { related: { line: number; message: string }[]; help: string };
    expect(related.related.length).toBeGreaterThan(0);
    await page.waitForSelector("#diagnostics .related li");
    const notes = await page.$$eval("#diagnostics .related li", (l) =>
      l.map((x) => [x.getAttribute("data-line"), x.textContent]),
    );
    expect(notes.map(([line]) => line)).toEqual(related.related.map((r) => String(r.line)));
    for (const [i, r] of related.related.entries()) expect(notes[i]![1]).toContain(r.message);
    expect(await page.textContent("#diagnostics .help")).toBe(`help: ${related.help}`);

    // Typed quotes and parentheses are closed.
    await page.click(".cm-content");
    await page.keyboard.press("Control+End");
    await page.keyboard.type('\n(x "');
    expect((await editorText()).endsWith('\n(x "")')).toBe(true);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
