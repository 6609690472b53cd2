/**
 * The Run tab: the evaluator of `yaoc run` (src/eval, `yaoc/eval`, browser-safe) on the package's
 * typed IR, in the page. A pure program gives its value or its classified failure. An effectful one
 * stops with its pending requests (a tool call, an inference, a host operation, a program hand-off);
 * each is shown with a completion to edit (`{"id":ID,"value":V}` or `{"id":ID,"error":{"message":M}}`,
 * the same JSON `yaoc run --resume STATE --completion FILE` reads), and Resume continues the machine
 * from its serialized state with that one completion, as another worker would.
 */
import type { YaoProgram } from "../../ir/yao-ir-0.1.js";
import type { HnsPackage } from "../../src/hns/model.js";
import {
  CompletionError,
  displayValue,
  type EffectRequest,
  type Outcome,
  parseCompletion,
  resumeState,
  type RunResult,
  startProgram,
  valueText,
} from "../../src/eval/index.js";

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls !== undefined) e.className = cls;
  return e;
}

/** One line saying what a request asks for, as `yaoc run` prints it. */
function requestSummary(q: EffectRequest): string {
  const kind = String(q.get("kind"));
  if (kind === "tool") return `call ${String(q.get("tool"))} ${displayValue(q.get("arguments") ?? null)}`;
  if (kind === "host") return `${String(q.get("operation"))} ${displayValue(q.get("arguments") ?? null)}`;
  if (kind === "infer") return `infer ${String(q.get("source"))}`;
  return `run program ${String(q.get("hash"))}`;
}

/** The request as indented JSON (the value text the CLI prints, re-indented for reading). */
function requestJson(q: EffectRequest): string {
  const text = valueText(q);
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export class RunPanel {
  /** The serialized machine state the next completion resumes, while suspended. */
  private state: string | undefined;
  /** Which run a Resume belongs to: a new Run or a new program abandons the old requests. */
  private generation = 0;

  constructor(private readonly into: HTMLElement) {}

  /** Nothing to run (the package is invalid or not HNS): say why. */
  unavailable(why: string): void {
    this.generation++;
    this.state = undefined;
    this.into.replaceChildren(el("p", why));
    this.into.dataset["outcome"] = "none";
  }

  /**
   * Start the program and show what it gives. A package's entry admits the programs a model writes
   * against that package (its exported functions, the entry's tool bound), as `yaoc run PKG` does.
   */
  run(program: YaoProgram, pkg?: HnsPackage): void {
    this.generation++;
    let r: RunResult;
    try {
      r = startProgram(program, pkg === undefined ? {} : { package: pkg });
    } catch (e) {
      this.show({ outcome: "failure", failure: { class: "integrity", message: String(e) } }, []);
      return;
    }
    this.state = r.state();
    this.show(r.result, []);
  }

  private resume(text: string, generation: number, log: string[]): void {
    if (generation !== this.generation || this.state === undefined) return;
    let completion;
    try {
      completion = parseCompletion(text);
    } catch (e) {
      if (!(e instanceof CompletionError)) throw e;
      this.note(`not a completion: ${e.message}`);
      return;
    }
    const r = resumeState(this.state, completion);
    if (r.rejected) {
      // A refused completion changes nothing: the same requests stay pending.
      const f = r.result.outcome === "failure" ? r.result.failure.message : "refused";
      this.note(`refused (integrity): ${f}`);
      return;
    }
    this.state = r.state();
    this.show(r.result, [...log, `answered ${completion.id}`]);
  }

  private note(text: string): void {
    let note = this.into.querySelector<HTMLElement>(".run-note");
    if (note === null) {
      note = el("p", "", "run-note");
      note.setAttribute("role", "alert");
      this.into.append(note);
    }
    note.textContent = text;
  }

  private show(result: Outcome, log: string[]): void {
    const generation = this.generation;
    const out: HTMLElement[] = [];
    for (const entry of log) out.push(el("div", entry, "run-log"));
    this.into.dataset["outcome"] = result.outcome;
    if (result.outcome === "value") {
      const p = el("p");
      p.dataset["outcome"] = "value";
      p.append("value: ", el("code", displayValue(result.value)));
      out.push(p);
    } else if (result.outcome === "failure") {
      const f = result.failure;
      const at = f.span === undefined ? "" : ` at ${f.span.file}:${f.span.start.line}:${f.span.start.column}`;
      const p = el("p", `failure (${f.class})${at}: ${f.message}`);
      p.dataset["outcome"] = "failure";
      p.dataset["class"] = f.class;
      out.push(p);
    } else if (result.outcome === "suspended") {
      out.push(
        el(
          "p",
          `suspended: ${result.requests.length} pending request${result.requests.length === 1 ? "" : "s"}; answer one to resume`,
        ),
      );
      for (const q of result.requests) {
        const id = String(q.get("id"));
        const box = el("div", undefined, "request");
        box.dataset["id"] = id;
        box.dataset["kind"] = String(q.get("kind"));
        box.append(el("strong", `${String(q.get("kind"))} request`), " ", el("code", requestSummary(q)));
        const details = el("details");
        details.append(el("summary", "request JSON"), el("pre", requestJson(q)));
        const area = el("textarea");
        area.rows = 3;
        area.spellcheck = false;
        area.setAttribute("aria-label", `completion for ${id}`);
        area.value = JSON.stringify({ id, value: null });
        const button = el("button", "Resume");
        button.type = "button";
        button.addEventListener("click", () => this.resume(area.value, generation, log));
        box.append(details, area, button);
        out.push(box);
      }
    } else out.push(el("p", "running (step limit)"));
    this.into.replaceChildren(...out);
  }
}
