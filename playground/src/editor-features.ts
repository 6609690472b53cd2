/**
 * Hover and completion in the playground from the language server's own core, so the page and
 * `yaoc lsp` cannot disagree: hover is `Workspace.hover` (src/lsp/workspace.ts, over the last
 * check of the package, with the typed IR for the type under the cursor), and completion is
 * `completeAt` (src/lsp/completion.ts, the tolerant context-aware completion that keeps working
 * with unclosed lists), ordered by its `sortText`. Both are browser-safe.
 */
import {
  autocompletion,
  type Completion,
  type CompletionContext,
  type CompletionResult,
  snippet,
} from "@codemirror/autocomplete";
import type { Extension } from "@codemirror/state";
import { hoverTooltip, type EditorView } from "@codemirror/view";
import type { PackageFs } from "../../src/fs/package-fs.js";
import { completeAt, type CompletionKind } from "../../src/lsp/completion.js";
import { Workspace } from "../../src/lsp/workspace.js";

/** What the features need of the page: the file being edited and the package's other Yao texts. */
export interface FeatureHost {
  /** The workspace path of the edited file (`/review.hns`, `/review-dir.hns/contract.yao`), or undefined when it is not Yao. */
  currentPath(): string | undefined;
  /** The texts of the package's other Yao files (for their functions, types and tools). */
  otherTexts(): string[];
  /** The package as a file system, for the hover's check. */
  packageFs(): PackageFs;
  /** Changes whenever the package text changes, so a hover never reads an older check. */
  revision(): number;
}

/** CodeMirror's icon for each completion kind. */
const ICON: Readonly<Record<CompletionKind, string>> = {
  operator: "keyword",
  keyword: "keyword",
  function: "function",
  type: "type",
  field: "property",
  tool: "interface",
  variable: "variable",
};

/** A symbol's characters, as the reader splits atoms (whitespace, parentheses, quotes, `;`). */
const ATOM = /[^\s()";]*/;

function completionSource(host: FeatureHost) {
  return (context: CompletionContext): CompletionResult | null => {
    if (host.currentPath() === undefined) return null;
    const word = context.matchBefore(ATOM);
    const from = word?.from ?? context.pos;
    // Only when asked, or while typing an atom: not after every space.
    if (!context.explicit && (word === null || word.from === word.to)) return null;
    const items = completeAt(context.state.doc.toString(), context.pos, host.otherTexts());
    const sorted = items
      .map((c, i) => ({ c, i }))
      .sort((a, b) => (a.c.sortText < b.c.sortText ? -1 : a.c.sortText > b.c.sortText ? 1 : a.i - b.i));
    const n = sorted.length;
    const options: Completion[] = sorted.map(({ c }, rank) => ({
      label: c.label,
      detail: c.detail,
      type: ICON[c.kind],
      // CodeMirror orders by match quality, then boost: spread completeAt's order over -99…99.
      boost: n <= 1 ? 0 : Math.round(99 - (198 * rank) / (n - 1)),
      ...(c.snippet === undefined ? {} : { apply: snippet(c.snippet.replace(/\$(\d+)/g, "${$1}")) }),
    }));
    return { from, options, validFor: /^[^\s()";]*$/ };
  };
}

/** The hover markdown (code fences, inline code, paragraphs) as DOM, text only: never innerHTML. */
export function renderMarkdown(markdown: string): HTMLElement {
  const root = document.createElement("div");
  const parts = markdown.split(/```[a-z]*\n?/);
  parts.forEach((part, i) => {
    if (i % 2 === 1) {
      const pre = document.createElement("pre");
      const code = document.createElement("code");
      code.textContent = part.replace(/\n$/, "");
      pre.append(code);
      root.append(pre);
      return;
    }
    for (const para of part.split(/\n{2,}/)) {
      if (para.trim() === "") continue;
      const p = document.createElement("p");
      para.split(/(`[^`]*`)/).forEach((seg, j) => {
        if (j % 2 === 1) {
          const code = document.createElement("code");
          code.textContent = seg.slice(1, -1);
          p.append(code);
        } else p.append(seg);
      });
      root.append(p);
    }
  });
  return root;
}

function hoverSource(host: FeatureHost) {
  let cached: { revision: number; workspace: Workspace } | undefined;
  const workspace = (): Workspace => {
    const revision = host.revision();
    if (cached?.revision !== revision) cached = { revision, workspace: new Workspace(host.packageFs()) };
    return cached.workspace;
  };
  return async (view: EditorView, pos: number) => {
    const path = host.currentPath();
    if (path === undefined) return null;
    const line = view.state.doc.lineAt(pos);
    const revision = host.revision();
    const hover = await workspace().hover(path, { line: line.number - 1, character: pos - line.from });
    if (hover === undefined || host.revision() !== revision) return null;
    const start = hover.range === undefined ? pos : view.state.doc.line(hover.range.start.line + 1).from;
    const end = hover.range === undefined ? pos : view.state.doc.line(hover.range.end.line + 1).from;
    return {
      pos: hover.range === undefined ? pos : Math.min(start + hover.range.start.character, view.state.doc.length),
      end: hover.range === undefined ? pos : Math.min(end + hover.range.end.character, view.state.doc.length),
      above: true,
      create() {
        const dom = renderMarkdown(hover.markdown);
        dom.className = "yao-hover";
        return { dom };
      },
    };
  };
}

/** The hover tooltip and the completion popup for the playground's editor. */
export function editorFeatures(host: FeatureHost): Extension[] {
  return [
    autocompletion({ override: [completionSource(host)], activateOnTyping: true }),
    hoverTooltip(hoverSource(host), { hoverTime: 300 }),
  ];
}
