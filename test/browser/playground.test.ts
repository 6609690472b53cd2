/// <reference lib="dom" />
/**
 * The browser bundle and the playground in a real headless Chromium (Debian's `chromium`, driven
 * by playwright-core; never a downloaded browser). Without a Chromium this file is skipped with a
 * message saying how to install one; `.ci/run` installs it and sets YAOC_REQUIRE_SYSTEM_TOOLS=1, so
 * in CI a missing Chromium fails this file instead of skipping it.
 *
 * Playground: load the page, load an example from the menu, type a type error, see the diagnostic
 * on the line `yaoc check` reports for the same text, fix it, see the identity `yaoc check`
 * reports for the same text. A screenshot is saved under the test's temporary directory.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

describe.skipIf(!HAVE_CHROMIUM && !REQUIRE_SYSTEM_TOOLS)("in headless Chromium", () => {
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
    const shown = await page.$$eval("#diagnostics li", (items) =>
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
    expect(files.files["contract.yao"]).toMatch(/\(oops$/);
    await again.close();
    // A malformed address falls back to an example and says so.
    await page.goto("about:blank"); // a fragment-only change would not reload the page
    await page.goto(`${base}playground/index.html#p=not-base64!`);
    await page.waitForSelector("#verdict[data-state=valid]");
    expect(await page.textContent("#share-status")).toContain("no readable package");
  }, 120_000);
});
