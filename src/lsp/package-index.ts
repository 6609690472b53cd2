/**
 * The symbol index of the package a file belongs to, built once per analysis: it is kept while the
 * package's last check and every document it was built from are the ones the workspace still holds,
 * and rebuilt when either changed. A check older than the texts (an edit the scheduler has not
 * re-checked yet) is redone first, so the typed IR's spans and types are those of the text the
 * features edit. Browser-safe.
 */
import type { SNode } from "../syntax/tree.js";
import type { YaoDocument } from "./yao-document.js";
import { NO_PAUSE, type Pause } from "./pause.js";
import { SymbolIndex } from "./symbol-index.js";
import { MAX_PACKAGE_STATES, type PackageState, type Workspace } from "./workspace.js";

export interface PackageView {
  readonly state: PackageState;
  readonly docs: readonly YaoDocument[];
  readonly index: SymbolIndex;
}

const cache = new WeakMap<Workspace, Map<PackageState, PackageView>>();

/**
 * The view of the package `path` belongs to. `pause` is called between the slices of the work a
 * new view takes (after the check, after each document, in the index build), so a long first
 * request after an edit gives way to others; a view found current costs no pause.
 */
export async function packageView(workspace: Workspace, path: string, pause: Pause = NO_PAUSE): Promise<PackageView> {
  let state = await workspace.packageState(path);
  if (!(await checkedTextsAreCurrent(workspace, state))) {
    await pause();
    await workspace.check(path);
    await pause();
    state = await workspace.packageState(path);
  }
  const files = state.files.includes(path) ? state.files : [...state.files, path];
  const docs: YaoDocument[] = [];
  for (const f of files) {
    const known = workspace.hasDocument(f);
    docs.push(await workspace.document(f));
    if (!known) await pause();
  }
  const views = cache.get(workspace) ?? cache.set(workspace, new Map()).get(workspace)!;
  const last = views.get(state);
  if (last !== undefined && last.docs.length === docs.length && last.docs.every((d, i) => d === docs[i])) return last;
  // A new check replaces the package's state: drop views of older states of any package.
  if (last === undefined) for (const s of views.keys()) if (s.files.some((f) => files.includes(f))) views.delete(s);
  const index = await SymbolIndex.build(docs, state.pkg?.manifest.tools ?? [], state.analysis, pause);
  // Another request may have built a view of the same texts while this one paused: keep one.
  const raced = views.get(state);
  if (raced !== undefined && raced.docs.length === docs.length && raced.docs.every((d, i) => d === docs[i]))
    return raced;
  const view = { state, docs, index };
  views.set(state, view);
  // Bounded like the workspace's package states, so views of packages checked long ago do not pile up.
  while (views.size > MAX_PACKAGE_STATES) views.delete(views.keys().next().value!);
  return view;
}

/** Did the last check read the texts the documents hold now? (The loaded forms keep the text they were read from.) */
async function checkedTextsAreCurrent(workspace: Workspace, state: PackageState): Promise<boolean> {
  const pkg = state.pkg;
  if (pkg === undefined) return true;
  for (const form of [pkg.entry.form, ...pkg.functions.map((f) => f.form)]) {
    const source = (form as SNode & { source?: { file: string; text: string } }).source;
    if (source === undefined) continue;
    const file = state.files.find((f) => f === source.file || f.endsWith(`/${source.file}`));
    if (file !== undefined && (await workspace.document(file)).text !== source.text) return false;
  }
  return true;
}
