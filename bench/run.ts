/**
 * `npm run bench`: throughput of yaoc's hot paths, each reported with its ratio to a yardstick
 * measured in the same run on the same input (so machine speed cancels out):
 * - the Yao reader vs V8's JSON.parse on the same tree as JSON, and vs a minimal hand-written
 *   charCodeAt scanner (the floor a reader could reach);
 * - package load + identity vs SHA-256 alone over the same bytes.
 */
import { sha256Hex } from "../src/canonical/hash.js";
import { loadFromSource } from "../src/hns/load.js";
import { readAll } from "../src/syntax/reader.js";

interface Measure {
  readonly name: string;
  readonly bytes: number;
  readonly run: () => unknown;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Median MiB/s over repeated timed batches after a warm-up. */
function throughput(m: Measure, batches = 15): number {
  for (let i = 0; i < 5; i++) m.run();
  const rates: number[] = [];
  for (let b = 0; b < batches; b++) {
    let reps = 0;
    const start = performance.now();
    let elapsed = 0;
    do {
      m.run();
      reps++;
      elapsed = performance.now() - start;
    } while (elapsed < 40);
    rates.push((m.bytes * reps) / (1024 * 1024) / (elapsed / 1000));
  }
  return median(rates);
}

/** A deterministic ~200 KiB Yao source: nested lists of symbols, numbers and strings. */
function corpus(targetBytes: number): { yao: string; json: string } {
  let seed = 42;
  const rand = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const yaoParts: string[] = [];
  const jsonParts: string[] = [];
  let size = 0;
  while (size < targetBytes) {
    const depth = 1 + rand(6);
    let y = "";
    let j = "";
    for (let d = 0; d < depth; d++) {
      y += `(seq item-${rand(1000)} "text ${rand(1000)}" ${rand(100000)} `;
      j += `["seq","item-${rand(1000)}","text ${rand(1000)}",${rand(100000)},`;
    }
    y += ")".repeat(depth);
    j += "null" + "]".repeat(depth);
    yaoParts.push(y);
    jsonParts.push(j);
    size += y.length;
  }
  return { yao: `(eval ${yaoParts.join("\n")})`, json: `["eval",${jsonParts.join(",")}]` };
}

/** The floor: one pass of charCodeAt over the text, counting tokens, no tree. */
function scanOnly(text: string): number {
  let tokens = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 || c === 41) tokens++;
    else if (c === 34) {
      i = text.indexOf('"', i + 1);
      tokens++;
    } else if (c > 32) {
      while (i + 1 < text.length && text.charCodeAt(i + 1) > 41) i++;
      tokens++;
    }
  }
  return tokens;
}

const { yao, json } = corpus(200 * 1024);
const yaoBytes = new TextEncoder().encode(yao);
const pkgText = [
  '(manifest (id bench) (version "1.0.0") (title "Bench") (capabilities (tools read)))',
  '(contract (purpose "measure"))',
  yao.replace("(eval ", "(eval (requires (tools read)) "),
].join("\n");
const pkgBytes = new TextEncoder().encode(pkgText);

const rows: [string, Measure, Measure][] = [
  [
    "reader vs JSON.parse",
    { name: "yaoc readAll", bytes: yaoBytes.length, run: () => readAll(yaoBytes) },
    { name: "JSON.parse (same tree)", bytes: json.length, run: () => JSON.parse(json) },
  ],
  [
    "reader vs hand-written scan",
    { name: "yaoc readAll", bytes: yaoBytes.length, run: () => readAll(yaoBytes) },
    { name: "charCodeAt scan", bytes: yao.length, run: () => scanOnly(yao) },
  ],
  [
    "load+identity vs sha256",
    { name: "loadFromSource", bytes: pkgBytes.length, run: () => loadFromSource("bench.hns", pkgBytes) },
    { name: "sha256 only", bytes: pkgBytes.length, run: () => sha256Hex(pkgBytes) },
  ],
];

process.stdout.write(`input: ${(yaoBytes.length / 1024).toFixed(0)} KiB Yao, node ${process.version}\n`);
for (const [title, subject, yardstick] of rows) {
  const a = throughput(subject);
  const b = throughput(yardstick);
  process.stdout.write(
    `${title.padEnd(30)} ${subject.name} ${a.toFixed(1)} MiB/s | ${yardstick.name} ${b.toFixed(1)} MiB/s | ratio ${(a / b).toFixed(3)}\n`,
  );
}
