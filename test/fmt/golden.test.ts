/**
 * Golden outputs of `yaoc fmt` for every shipped example and fixture (`.yao`/`.hns` files):
 * `golden/fmt/<path>.formatted` holds the formatted text, `golden/fmt/<path>.refused` the reader
 * diagnostic that refuses an invalid file. UPDATE_GOLDEN=1 rewrites them (review every change and
 * commit with a `[golden]` title); otherwise the test only reads them.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { formatSource } from "../../src/fmt/format.js";
import { UPDATE_GOLDEN } from "../support/update-golden.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const GOLDEN = join(ROOT, "golden/fmt");
const update = UPDATE_GOLDEN;

function yaoFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p, { throwIfNoEntry: false });
    if (st?.isDirectory()) out.push(...yaoFiles(p));
    else if (st?.isFile() && /\.(yao|hns)$/.test(name)) out.push(p);
  }
  return out;
}

const files = ["examples", "fixtures/hns", "fixtures/yao", "fixtures/fmt"].flatMap((t) => yaoFiles(join(ROOT, t)));

describe("golden/fmt", () => {
  it("covers the fixtures", () => {
    expect(files.length).toBeGreaterThan(300);
  });

  for (const file of files) {
    const rel = relative(ROOT, file);
    it(rel, () => {
      const r = formatSource(readFileSync(file), { file: rel });
      const [suffix, text] = r.ok
        ? [".formatted", r.text]
        : [
            ".refused",
            `${r.diagnostic.code} ${r.diagnostic.span?.start.line}:${r.diagnostic.span?.start.column} ${r.diagnostic.message}\n`,
          ];
      const golden = join(GOLDEN, rel + suffix);
      if (update) {
        mkdirSync(dirname(golden), { recursive: true });
        writeFileSync(golden, text);
      }
      expect(existsSync(golden), `missing ${golden}; run UPDATE_GOLDEN=1 and review`).toBe(true);
      expect(text).toBe(readFileSync(golden, "utf8"));
    });
  }
});
