/**
 * Patterns by which a test can pass without testing (issue 33 item 6), found by reading test
 * sources line by line. Each finding names the file, the line and the rule; test-patterns.test.ts
 * runs this over every test file and first over made-up snippets, so a rule that never fires is
 * caught too.
 *
 * - `probe-return`: a test that ends early, silently, when the environment lacks something
 *   (`if (spawnSync("mkfifo", …).status !== 0) return;`). Say it: `ctx.skip(reason)`,
 *   `it.skipIf(cond)("… (skipped: reason)")`, or require the tool.
 * - `skip-without-reason`: a `.skipIf(…)`/`.runIf(…)` test or suite whose title does not say why it
 *   may be skipped — "(skipped …)" in the title, or a `…_SKIP_NOTE`/`SKIP_REASON` constant in it —
 *   so a report that lists it as skipped says why (a `ctx.skip(reason)` says it at run time).
 * - `placeholder`: a test whose body is empty or `() => undefined`, which asserts nothing.
 * - `unasserted-loop`: a loop over files found on disk or regex matches with no assertion before it
 *   that the list is not empty, so an empty list passes; also such a list iterated inline
 *   (`for (const m of text.matchAll(…))`), where there is no list to assert on. A loop whose
 *   list may rightly be empty says so and why in a `// may be empty: …` comment on or above it; a
 *   counter the loop increments and an assertion after it bounds from below count as an assertion.
 */

export interface Finding {
  readonly line: number;
  readonly rule: "probe-return" | "skip-without-reason" | "placeholder" | "unasserted-loop";
  readonly text: string;
}

/** What an environment probe looks like in a condition or in the comment after it. */
const PROBE =
  /spawnSync|execSync|existsSync|process\.platform|process\.env|getuid|mkfifo|which\b|unavailable|not available|on this system|not installed/;
/** Calls that produce a list of found things: files on disk, regex matches, generated corpora. */
const FOUND =
  /readdirSync|readdir\(|matchAll\(|\.match\(|globSync|glob\(|sourceFiles\(|goldenEntries\(|filesUnder\(|listFiles\(|walk\(|fixtureNames\(|fixtureDirs\(/;
/** An assertion that a list is not empty, or has a given size. */
const NON_EMPTY =
  /toBeGreaterThan(OrEqual)?\(|not\.toHaveLength\(0\)|toHaveLength\(|\.length\)\.toBe\(|\.size\)\.toBe\(|toEqual\(\[(?!\s*\])/;

export function findTestPatterns(source: string): Finding[] {
  const lines = source.split("\n");
  const out: Finding[] = [];
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (/^(\*|\/\/|\/\*)/.test(raw)) continue; // comments
    const code = withoutStrings(raw);
    // `if (probe) return;`, or the block form `if (probe) {` whose next line is a bare `return;`.
    const blockReturn = /^if \(.*\) \{$/.test(code) && /^return;?$/.test(lines[i + 1]?.trim() ?? "");
    if ((/^if \(.*\) return;?$/.test(code) || blockReturn) && PROBE.test(raw))
      out.push({ line: i + 1, rule: "probe-return", text: raw });
    if (/\.(skipIf|runIf)\(/.test(code) && !SKIP_REASON.test(titleRegion(lines, i)))
      out.push({ line: i + 1, rule: "skip-without-reason", text: raw });
    if (
      /\b(it|test)(\.(skip|only|concurrent))?\(\s*(""|''|``),\s*(async\s*)?\(\)\s*=>\s*(undefined|\{\s*\})\s*\)/.test(
        code,
      )
    )
      out.push({ line: i + 1, rule: "placeholder", text: raw });
    const loop = /\bfor \((?:const|let) .+? of (.+?)\)\s*(\{|[^{].*)?$/.exec(raw);
    if (loop === null || /\/\/ may be empty: /.test(`${lines[i - 1] ?? ""}${raw}`)) continue;
    const body = loopBody(lines, i);
    if (!/(^|[^.\w])(expect|it|test)(\.\w+)*\(/.test(body.text) || countedAfter(lines, body)) continue;
    const iterated = loop[1]!;
    if (FOUND.test(iterated)) {
      out.push({ line: i + 1, rule: "unasserted-loop", text: raw });
      continue;
    }
    const name = /^\[?\.{0,3}([A-Za-z_$][\w$]*)\]?$/.exec(iterated.trim())?.[1];
    if (name === undefined) continue;
    const decl = declarationOf(lines, i, name);
    if (decl === undefined || !FOUND.test(decl.text)) continue;
    const mentions = new RegExp(`\\b${name.replace(/\$/g, "\\$")}\\b`);
    const asserted = lines
      .slice(decl.line, i)
      .some((l) => l.includes("expect(") && mentions.test(l) && NON_EMPTY.test(l));
    if (!asserted) out.push({ line: i + 1, rule: "unasserted-loop", text: raw });
  }
  return out;
}

/** What a conditional test's title says about why it may be skipped. */
const SKIP_REASON = /\bskipped\b|SKIP_NOTE\b|\bSKIP_REASON\b/;

/** From a `.skipIf(`/`.runIf(` call to the test's callback (`=>`), at most four lines: the condition and the title. */
function titleRegion(lines: readonly string[], at: number): string {
  const text = lines.slice(at, at + 4).join("\n");
  const from = text.search(/\.(skipIf|runIf)\(/);
  const to = text.indexOf("=>", from);
  return text.slice(from, to < 0 ? undefined : to);
}

/**
 * The loop starting at line `at`: the rest of its line and the lines indented deeper than it, and
 * the line after them. A loop whose body neither asserts nor declares tests only collects (a
 * directory walk); whoever uses the list asserts on it.
 */
function loopBody(lines: readonly string[], at: number): { text: string; end: number } {
  const indent = (l: string): number => l.length - l.trimStart().length;
  const base = indent(lines[at]!);
  let text = lines[at]!.slice(lines[at]!.indexOf(" of "));
  let k = at + 1;
  for (; k < lines.length; k++) {
    const l = lines[k]!;
    if (l.trim() !== "" && indent(l) <= base) break;
    text += `\n${l}`;
  }
  return { text, end: k };
}

/** A counter the body increments (`n++`, `n += 1`) that an assertion after the loop bounds from below. */
function countedAfter(lines: readonly string[], body: { text: string; end: number }): boolean {
  const counters = [...body.text.matchAll(/\b([A-Za-z_$][\w$]*)(\+\+|\s*\+=)/g)].map((m) => m[1]!);
  const after = lines.slice(body.end, body.end + 12);
  return counters.some((c) =>
    after.some((l) => new RegExp(`expect\\(\\s*${c}\\b`).test(l) && /toBeGreaterThan(OrEqual)?\(|toBe\([1-9]/.test(l)),
  );
}

/** The line with string literals emptied (quotes kept) and a trailing `//` comment removed. */
function withoutStrings(line: string): string {
  let out = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < line.length && line[j] !== c) j += line[j] === "\\" ? 2 : 1;
      out += c + c;
      i = j;
      continue;
    }
    if (c === "/" && line[i + 1] === "/") break;
    out += c;
  }
  return out.trimEnd();
}

/** The nearest `const|let NAME =` before line `before`, with the statement's text (up to 8 lines). */
function declarationOf(
  lines: readonly string[],
  before: number,
  name: string,
): { line: number; text: string } | undefined {
  const decl = new RegExp(`\\b(const|let) ${name.replace(/\$/g, "\\$")}\\b(\\s*:[^=]+)?\\s*=`);
  for (let k = before - 1; k >= 0; k--) {
    if (!decl.test(lines[k]!)) continue;
    let text = "";
    for (let j = k; j < Math.min(lines.length, k + 8, before + 1); j++) {
      text += `${lines[j]}\n`;
      if (lines[j]!.trimEnd().endsWith(";")) break;
    }
    return { line: k, text };
  }
  return undefined;
}
