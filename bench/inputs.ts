/**
 * The bench's generated inputs, in a module of their own so single-figure scripts (bench/reader.ts)
 * can use the same inputs without importing bench/run.ts, whose import runs the whole bench.
 */
function rng(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % n;
  };
}

/** A deterministic Yao expression tree of about `targetBytes`, as Yao and as JSON. */
export function corpus(targetBytes: number): { yao: string; json: string } {
  const rand = rng(42);
  const yaoParts: string[] = [];
  const jsonParts: string[] = [];
  let size = 0;
  while (size < targetBytes) {
    const depth = 1 + rand(6);
    let y = "";
    let j = "";
    for (let d = 0; d < depth; d++) {
      y += `(seq item-${rand(1000)} "text ${rand(1000)}" ${rand(100000)} `;
      j += `["seq","item-${rand(1000)}",{"s":"text ${rand(1000)}"},"${rand(100000)}",`;
    }
    y += ")".repeat(depth);
    j += `null${"]".repeat(depth)}`;
    yaoParts.push(y);
    jsonParts.push(j);
    size += y.length + 1;
  }
  return { yao: `(eval ${yaoParts.join("\n")})`, json: `["eval",${jsonParts.join(",")}]` };
}

/** A realistic single-file HNS package of about `targetBytes`: manifest, contract, functions, entry. */
export function hnsPackage(targetBytes: number, seed = 7): string {
  const rand = rng(seed);
  const head = [
    `(manifest (id bench-${seed}) (version "1.0.0") (title "Bench package") (capabilities (tools read)))`,
    '(contract (purpose "answer questions about files") (identity bench))',
    "(mind (frame (id bench/core)))",
  ];
  const fns: string[] = [];
  let size = head.join("\n").length + 200;
  // At most 128 functions and 4,096 typed HIR nodes per module: larger packages get longer
  // descriptions (prose is most of a large real package), not more code.
  const binds = 3;
  const words = [
    "checks",
    "the",
    "value",
    "against",
    "its",
    "limit",
    "and",
    "reports",
    "whether",
    "it",
    "fits",
    "within",
    "budget",
  ];
  const prose = Math.max(0, Math.floor(targetBytes / 120) - 200);
  for (let i = 0; size < targetBytes && i < 120; i++) {
    const k = rand(1000);
    let body = `(bind v0 (add value ${k}))`;
    for (let j = 1; j < binds && size + body.length < targetBytes; j++)
      body += ` (bind v${j} (add v${j - 1} ${rand(100)}))`;
    const last = (body.match(/\(bind /g) ?? []).length - 1;
    let text = `Step ${i}: add ${k} then compare.`;
    while (text.length < prose) text += ` ${words[rand(words.length)]}`;
    const f = `(fn step-${i} (visibility exported) (description "${text}") (params (value Int) (limit Int)) (returns Bool) (effects) (body (seq ${body} (lt v${last} limit))))`;
    fns.push(f);
    size += f.length + 1;
  }
  const entry = `(eval (requires (tools read)) (seq (bind ok (step-0 (value 1) (limit 100))) (call read (path "README.md"))))`;
  return [
    ...head,
    ...fns,
    fns.length === 0 ? entry.replace("(bind ok (step-0 (value 1) (limit 100))) ", "") : entry,
  ].join("\n");
}

/**
 * Yao text of about `targetBytes` with everything a reader meets in real packages: line comments,
 * escapes, block strings, CJK text, nesting several levels deep, symbols of every length.
 */
export function readerCorpus(targetBytes: number, seed = 11): string {
  const rand = rng(seed);
  const cjk = ["检查", "数值", "限制", "报告", "预算", "文件"];
  const parts: string[] = [];
  const enc = new TextEncoder();
  let size = 0;
  for (let i = 0; ; i++) {
    const k = rand(1000);
    const note = `; step ${i}: adds ${k}, then compares against the limit (${cjk[rand(cjk.length)]})`;
    const doc = `"Step ${i} \\"adds\\" ${k}.\\n\\tThen ${cjk[rand(cjk.length)]} compares; path C:\\\\tmp\\\\${k}"`;
    const block = `"""\n  Long form of step ${i}: the value goes in,\n  "quoted" words stay raw, ${cjk[rand(cjk.length)]}.\n"""`;
    const f = `${note}\n(fn step-${i}\n  (description ${doc})\n  (notes ${block})\n  (params (value Int) (limit Int))\n  (body (seq (bind v0 (add value ${k})) (bind v1 (mul v0 ${rand(100)})) ; inline\n    (if (lt v1 limit) (ok v1) (err "over \\"limit\\"")))))\n`;
    // Sized in UTF-8 bytes (the reader's limit counts bytes); never past the target.
    const bytes = enc.encode(f).length + 1;
    if (size + bytes > targetBytes) break;
    parts.push(f);
    size += bytes;
  }
  return parts.join("\n");
}
