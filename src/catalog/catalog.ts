/**
 * The persistent package catalog (HNS §6.3, §10.3, §12; loader reference §8): install checked
 * packages content-addressed by identity, bind (id, version) → identity exactly once, and reload,
 * verify, export and garbage-collect. Storage goes through a CatalogStore; why the protocol below is
 * safe under crashes, racing installers and gc racing install is explained in docs/catalog.md.
 */
import { compareCodePoints, loadableSource, type IdentityInput } from "../canonical/package-identity.js";
import { hasErrors, type Diagnostic } from "../diagnostics/diagnostic.js";
import type { CheckResult } from "../diagnostics/result.js";
import type { PackageFs } from "../fs/package-fs.js";
import { check, checkSource, type PackageCheckResult } from "../check/check.js";
import { MemoryFs } from "../fs/memory-fs.js";
import { DEFAULT_LOAD_LIMITS, type LoadLimits } from "../hns/context.js";
import type { HnsPackage } from "../hns/model.js";
import { diagnostic, type CatalogCode } from "./codes.js";
import {
  BINDING_NAME,
  BINDINGS_DIR,
  bindingPath,
  encodeBinding,
  FORMAT_FILE,
  FORMAT_TEXT,
  identityHex,
  KNOWN_ROOT_NAMES,
  nonce,
  OBJECT_NAME,
  OBJECTS_DIR,
  objectPathForHex,
  parseBinding,
  TRASH_DIR,
  TRASH_NAME,
  type BindingRecord,
} from "./layout.js";
import { StoreError, TEMP_DIR, type CatalogStore } from "./store.js";

export type { BindingRecord } from "./layout.js";

export interface CatalogOptions {
  /** Run the module analysis as part of `install`'s full check (HNS §11 step 8). Default true, as `yaoc check`. */
  readonly analyze?: boolean | undefined;
  readonly limits?: Partial<LoadLimits> | undefined;
  /** Clock for `installedAt` and gc grace periods (tests). */
  readonly now?: (() => number) | undefined;
}

/** How a refusal names a package of a kind the catalog does not hold, and where it can go instead. */
const FOREIGN_KINDS = {
  harp: { name: "a HARP app", hint: "a HARP app is installed with `yaoc harp install`; " },
  hcp: { name: "an HCP pack", hint: "" },
  a3s: { name: "an A3S extension", hint: "" },
} as const;

export type InstallStatus = "installed" | "unchanged" | "conflict" | "rejected" | "error";

export interface InstallOutcome {
  /** The path installed from, when installing from a file system. */
  readonly path: string | null;
  readonly status: InstallStatus;
  readonly id: string | null;
  readonly version: string | null;
  readonly identity: string | null;
  /** Check warnings, and the reason when the status is not installed/unchanged. */
  readonly diagnostics: readonly Diagnostic[];
  /** The check result (with sources for code frames) when installing from a path. */
  readonly check?: CheckResult;
  /** A storage or read failure (exit 2) rather than an invalid or conflicting package (exit 1). */
  readonly ioError: boolean;
}

export type GetResult =
  | { readonly ok: true; readonly binding: BindingRecord; readonly package: HnsPackage; readonly source: string }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[]; readonly ioError: boolean };

export interface ListResult {
  /** Sorted by (id, version), code point order. */
  readonly entries: readonly BindingRecord[];
  readonly diagnostics: readonly Diagnostic[];
  readonly ioError: boolean;
}

export type EntryStatus = "ok" | "corrupt" | "dangling";

export interface VerifyEntry extends BindingRecord {
  readonly status: EntryStatus;
}

/** Callbacks so a caller can show progress and stream entries while a large catalog is verified. */
export interface VerifyOptions {
  /** Binding `index` of `total` is about to be reloaded. */
  readonly onStart?: (binding: { readonly id: string; readonly version: string }, index: number, total: number) => void;
  /** A binding was verified; `problem` is its diagnostic when it is not ok. */
  readonly onEntry?: (entry: VerifyEntry, problem: Diagnostic | undefined) => void;
}

export interface VerifyReport {
  readonly ok: boolean;
  readonly entries: readonly VerifyEntry[];
  readonly objects: number;
  readonly unreferenced: number;
  readonly diagnostics: readonly Diagnostic[];
  readonly ioError: boolean;
}

export interface GcOptions {
  /** Temp files and abandoned trash younger than this are left alone (default one hour). */
  readonly graceMs?: number;
}

export interface GcReport {
  readonly ok: boolean;
  readonly removedObjects: number;
  readonly restoredObjects: number;
  readonly removedTemp: number;
  readonly diagnostics: readonly Diagnostic[];
  readonly ioError: boolean;
}

export const DEFAULT_GC_GRACE_MS = 60 * 60 * 1000;

const encoder = new TextEncoder();
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;

/** A failure that ends the current operation with one diagnostic. */
class CatalogFailure extends Error {
  constructor(
    readonly diagnostic: Diagnostic,
    readonly ioError: boolean,
  ) {
    super(diagnostic.message);
  }
}

function fail(
  code: CatalogCode,
  message: string,
  where: { file?: string; hint?: string } = {},
  ioError = false,
): never {
  throw new CatalogFailure(diagnostic(code, message, where), ioError);
}

/** The identity inputs of a loaded package, for the loadable encoding. */
export function identityInputOf(pkg: HnsPackage): IdentityInput {
  return {
    manifest: pkg.manifest,
    entryId: pkg.entry.id,
    contract: pkg.contract,
    mind: pkg.mind,
    functions: pkg.functions,
    entrySource: pkg.entry.source,
  };
}

export class Catalog {
  private readonly limits: LoadLimits;
  private readonly now: () => number;

  constructor(
    readonly store: CatalogStore,
    private readonly options: CatalogOptions = {},
  ) {
    this.limits = { ...DEFAULT_LOAD_LIMITS, ...options.limits };
    this.now = options.now ?? Date.now;
  }

  // ---------------------------------------------------------------- install

  /**
   * The full check `install` runs: `yaoc check`'s, keeping the loaded package to store. `kind`
   * "hns" skips detection (text held in memory is a single-file package by its name); without it
   * the path is routed as `yaoc check` routes it, so a refusal gives `check`'s own findings.
   */
  private check(fs: PackageFs, path: string, kind?: "hns"): Promise<PackageCheckResult> {
    const { analyze, limits } = this.options;
    return check(fs, path, { ...(kind === undefined ? {} : { kind }), keepAnalysis: true, analyze, limits });
  }

  /**
   * Full check of the package at `path`, then install it. Invalid packages are never stored, and
   * only HNS packages are: a package of another kind is refused with what `check` says of it.
   */
  async install(fs: PackageFs, path: string): Promise<InstallOutcome> {
    const check = await this.check(fs, path);
    if (!check.valid || check.package === undefined) {
      const errors = check.diagnostics.filter((d) => d.severity === "error").length;
      const found = `check found ${errors} error${errors === 1 ? "" : "s"}`;
      const foreign = check.kind === "hns" || check.kind === "unknown" ? undefined : FOREIGN_KINDS[check.kind];
      const why = check.ioError
        ? "it could not be read"
        : foreign !== undefined
          ? `it is ${foreign.name}, and the catalog holds HNS packages only${errors === 0 ? "" : ` (${found})`}`
          : found;
      const hint = check.ioError
        ? "check the path"
        : foreign !== undefined
          ? `${foreign.hint}the catalog takes harness packages (a NAME.hns file or directory)`
          : `fix the errors above (\`yaoc check ${path}\` shows them) and install again`;
      return {
        path,
        status: check.ioError ? "error" : "rejected",
        // Another kind's id and version are not a catalog's (id, version).
        id: foreign === undefined ? ((check.extra?.id as string | null | undefined) ?? null) : null,
        version: foreign === undefined ? ((check.extra?.version as string | null | undefined) ?? null) : null,
        identity: null,
        diagnostics: [
          ...check.diagnostics,
          diagnostic("catalog.rejected", `${path} was not installed: ${why}`, { file: path, hint }),
        ],
        check,
        ioError: check.ioError,
      };
    }
    const outcome = await this.installPackage(check.package);
    return { ...outcome, path, diagnostics: [...check.diagnostics, ...outcome.diagnostics], check };
  }

  /**
   * Install an already checked package: store its loadable encoding under its identity, then bind
   * (id, version) → identity by exclusive create. The caller is responsible for the full check.
   */
  async installPackage(pkg: HnsPackage): Promise<InstallOutcome> {
    const { id, version } = pkg.manifest;
    const base = { path: null, id, version, identity: pkg.identity };
    try {
      const name = `${id}@${version}`;
      if (id.trim() === "" || version.trim() === "" || CONTROL.test(id) || CONTROL.test(version)) {
        fail(
          "catalog.bad_name",
          `${JSON.stringify(id)}@${JSON.stringify(version)} cannot be installed: the id and version must be non-empty and free of control characters`,
          {
            hint: "change the manifest's (id …) and (version …) to printable text",
          },
        );
      }
      const source = loadableSource(identityInputOf(pkg));
      const bytes = encoder.encode(source);
      const hex = identityHex(pkg.identity);
      // `export` promises one loadable file: refuse what a loader with the default single-file
      // limit would reject, rather than store a package that can never be exported.
      if (bytes.length > DEFAULT_LOAD_LIMITS.maxSourceBytes) {
        fail(
          "catalog.export_limit",
          `${name} was not installed: its single-file encoding has ${bytes.length} bytes, more than the ${DEFAULT_LOAD_LIMITS.maxSourceBytes}-byte limit of a single .hns file, so \`catalog export\` could not write it as one loadable file`,
          {
            hint: `make the package smaller (contract, mind and functions together under ${DEFAULT_LOAD_LIMITS.maxSourceBytes} bytes as one file), or distribute it as a directory without the catalog`,
          },
        );
      }
      // Store only what reloads: the stored text must re-parse to the same identity.
      const problem = await this.objectProblem(bytes, hex);
      if (typeof problem === "string") {
        fail(
          "catalog.corrupt",
          `${name} was not installed: its loadable encoding ${problem}; this is a yaoc bug, please report it`,
        );
      }
      await this.ensureFormat(true);
      const bPath = bindingPath(id, version);

      const existing = await this.readBinding(bPath);
      if (existing !== null) return await this.settleExisting(existing, pkg, bytes, hex, base);

      await this.ensureObject(hex, bytes);
      const record: BindingRecord = {
        id,
        version,
        identity: pkg.identity,
        installedAt: new Date(this.now()).toISOString(),
      };
      const created = await this.store.createExclusive(bPath, encodeBinding(record));
      if (!created) {
        const winner = await this.readBinding(bPath);
        if (winner === null)
          fail(
            "catalog.io",
            `the binding of ${name} vanished after it was created (${this.where(bPath)}); bindings are never removed, so something outside yaoc changed the catalog`,
            {},
            true,
          );
        return await this.settleExisting(winner, pkg, bytes, hex, base);
      }
      // A gc that ran between our object write and our binding may have taken the object: put it back.
      await this.ensureObject(hex, bytes);
      return { ...base, status: "installed", diagnostics: [], ioError: false };
    } catch (e) {
      return { ...base, ...this.failure(e), status: this.isIo(e) ? "error" : this.statusOf(e) };
    }
  }

  /** Reinstall of a bound key: same identity is an idempotent success (healing the object); else a conflict. */
  private async settleExisting(
    existing: BindingRecord,
    pkg: HnsPackage,
    bytes: Uint8Array,
    hex: string,
    base: { path: null; id: string; version: string; identity: string },
  ): Promise<InstallOutcome> {
    if (existing.identity === pkg.identity) {
      await this.ensureObject(hex, bytes);
      return { ...base, status: "unchanged", diagnostics: [], ioError: false };
    }
    const name = `${pkg.manifest.id}@${pkg.manifest.version}`;
    return {
      ...base,
      status: "conflict",
      ioError: false,
      diagnostics: [
        diagnostic(
          "catalog.conflict",
          `Harness '${name}' is already installed with identity ${existing.identity} and cannot be replaced by a different artifact with identity ${pkg.identity}; nothing was overwritten`,
          {
            file: pkg.origin,
            hint: `an installed (id, version) never changes content: publish the new content under a new version, or re-install the exact package with identity ${existing.identity}`,
            related: [{ message: `installed ${existing.installedAt} as ${existing.identity}` }],
          },
        ),
      ],
    };
  }

  /** Install from single-file text held in memory (runtimes); `name` must end in `.hns`. */
  async installSource(name: string, text: string | Uint8Array): Promise<InstallOutcome> {
    const check = await this.check(MemoryFs.from({ [name]: text }), name, "hns");
    if (check.package === undefined) {
      return {
        path: name,
        status: "rejected",
        id: null,
        version: null,
        identity: null,
        diagnostics: [
          ...check.diagnostics,
          diagnostic("catalog.rejected", `${name} was not installed: it does not load`, { file: name }),
        ],
        ioError: false,
      };
    }
    const { diagnostics } = check;
    if (hasErrors(diagnostics)) {
      return {
        path: name,
        status: "rejected",
        id: check.package.manifest.id,
        version: check.package.manifest.version,
        identity: null,
        diagnostics: [
          ...diagnostics,
          diagnostic("catalog.rejected", `${name} was not installed: check found errors`, { file: name }),
        ],
        ioError: false,
      };
    }
    const outcome = await this.installPackage(check.package);
    return { ...outcome, path: name, diagnostics: [...diagnostics, ...outcome.diagnostics] };
  }

  // ---------------------------------------------------------------- read

  /** The package bound to exactly (id, version), reloaded from storage and checked against its identity. */
  async get(id: string, version: string): Promise<GetResult> {
    try {
      await this.ensureFormat(false);
      const bPath = bindingPath(id, version);
      const binding = await this.readBinding(bPath);
      if (binding === null) {
        fail("catalog.not_found", `no package is installed as ${id}@${version} in ${this.store.location}`, {
          hint: await this.versionsHint(id),
        });
      }
      const loaded = await this.loadBound(binding, bPath);
      if (!loaded.ok) throw new CatalogFailure(loaded.diagnostic, false);
      return { ok: true, binding, package: loaded.package, source: loaded.source };
    } catch (e) {
      return { ok: false, ...this.failure(e) };
    }
  }

  /**
   * Resolve a command-line `ID@VERSION`. Ids and versions may themselves contain `@`, so every split
   * point is tried; exactly one must name an installed package.
   */
  async resolve(ref: string): Promise<GetResult> {
    try {
      await this.ensureFormat(false);
      const splits: Array<[string, string]> = [];
      for (let i = ref.indexOf("@"); i >= 0; i = ref.indexOf("@", i + 1)) {
        if (i > 0 && i < ref.length - 1) splits.push([ref.slice(0, i), ref.slice(i + 1)]);
      }
      if (splits.length === 0) {
        fail(
          "catalog.bad_reference",
          `${JSON.stringify(ref)} is not a package reference`,
          { hint: "write ID@VERSION, for example acme.review@1.0.0; `yaoc catalog list` shows what is installed" },
          true,
        );
      }
      const found: Array<[string, string]> = [];
      for (const [id, version] of splits)
        if ((await this.store.read(bindingPath(id, version))) !== null) found.push([id, version]);
      if (found.length > 1) {
        fail(
          "catalog.ambiguous_reference",
          `${ref} names more than one installed package: ${found.map(([i, v]) => `id ${JSON.stringify(i)} version ${JSON.stringify(v)}`).join(", ")}`,
          { hint: "use the library API get(id, version) to address one exactly" },
          true,
        );
      }
      const [id, version] = found[0] ?? splits[splits.length - 1]!;
      return await this.get(id, version);
    } catch (e) {
      return { ok: false, ...this.failure(e) };
    }
  }

  /** Every binding, sorted by (id, version). Unreadable bindings are reported, not listed. */
  async list(): Promise<ListResult> {
    try {
      await this.ensureFormat(false);
      const { bindings, diagnostics } = await this.readAllBindings();
      return { entries: bindings.map((b) => b.record), diagnostics, ioError: false };
    } catch (e) {
      return { entries: [], ...this.failure(e) };
    }
  }

  // ---------------------------------------------------------------- verify

  /**
   * Re-read every binding and object: each binding must be well-formed, filed under its own key, and
   * name an object that reloads to exactly that identity, id and version, in the canonical loadable
   * encoding. Reports catalog.corrupt / catalog.dangling per entry.
   */
  async verify(options: VerifyOptions = {}): Promise<VerifyReport> {
    const diagnostics: Diagnostic[] = [];
    const entries: VerifyEntry[] = [];
    try {
      await this.ensureFormat(false);
      const { bindings, diagnostics: bindingProblems } = await this.readAllBindings();
      for (const d of bindingProblems) diagnostics.push(d);
      const referenced = new Set<string>();
      for (const [index, { record, path }] of bindings.entries()) {
        referenced.add(identityHex(record.identity));
        options.onStart?.(record, index, bindings.length);
        const loaded = await this.loadBound(record, path);
        if (loaded.ok) entries.push({ ...record, status: "ok" });
        else {
          entries.push({ ...record, status: loaded.diagnostic.code === "catalog.dangling" ? "dangling" : "corrupt" });
          diagnostics.push(loaded.diagnostic);
        }
        options.onEntry?.(entries[entries.length - 1]!, loaded.ok ? undefined : loaded.diagnostic);
      }
      let objects = 0;
      let unreferenced = 0;
      for (const entry of await this.store.list(OBJECTS_DIR)) {
        const m = OBJECT_NAME.exec(entry.name);
        if (m === null) {
          diagnostics.push(this.stray(`${OBJECTS_DIR}/${entry.name}`));
          continue;
        }
        objects++;
        if (referenced.has(m[1]!)) continue;
        unreferenced++;
        let problem: string | HnsPackage | undefined;
        try {
          const bytes = await this.store.read(`${OBJECTS_DIR}/${entry.name}`, this.maxObjectBytes());
          problem = bytes === null ? undefined : await this.objectProblem(bytes, m[1]!);
        } catch (e) {
          if (!(e instanceof StoreError)) throw e;
          problem = `is damaged: ${e.message}`;
        }
        const state = typeof problem === "string" ? ` (and it ${problem})` : "";
        diagnostics.push(
          diagnostic(
            "catalog.unreferenced",
            `${this.where(`${OBJECTS_DIR}/${entry.name}`)} is not referenced by any binding${state}`,
            {
              hint: "it is left over from an interrupted or conflicting install; `yaoc catalog gc` removes it",
            },
          ),
        );
      }
      const ok = !hasErrors(diagnostics);
      return { ok, entries, objects, unreferenced, diagnostics, ioError: false };
    } catch (e) {
      const f = this.failure(e);
      return {
        ok: false,
        entries,
        objects: 0,
        unreferenced: 0,
        diagnostics: [...diagnostics, ...f.diagnostics],
        ioError: f.ioError,
      };
    }
  }

  // ---------------------------------------------------------------- gc

  /**
   * Remove objects no binding references, abandoned trash, and temp files older than the grace
   * period. An object is first renamed into trash/, then the bindings are listed again; if a binding
   * appeared meanwhile the object is restored (by exclusive create, never overwriting a fresh copy).
   */
  async gc(options: GcOptions = {}): Promise<GcReport> {
    const grace = options.graceMs ?? DEFAULT_GC_GRACE_MS;
    const cutoff = this.now() - grace;
    let removedObjects = 0;
    let restoredObjects = 0;
    let removedTemp = 0;
    const diagnostics: Diagnostic[] = [];
    try {
      await this.ensureFormat(false);
      const first = await this.referencedHexes();
      if (first === null) {
        fail(
          "catalog.corrupt",
          `gc did not remove anything from ${this.store.location}: some bindings are unreadable, so it cannot tell which objects they reference`,
          {
            hint: "run `yaoc catalog verify` to see which bindings are damaged",
          },
        );
      }
      // Every copy gc may delete is first *claimed*: renamed to a trash name of this run. Only the
      // claimant decides its fate, after listing the bindings again (docs/catalog.md, "gc racing
      // install"); so no gc ever deletes a copy another gc (or a later binding) still needs.
      const claimed: Array<[string, string]> = [];
      // Trash left by other gc runs (killed, or still running): restore what is referenced now;
      // claim what is unreferenced and was trashed longer ago than the grace period.
      for (const entry of await this.store.list(TRASH_DIR)) {
        const m = TRASH_NAME.exec(entry.name);
        if (m === null) continue;
        const at = `${TRASH_DIR}/${entry.name}`;
        if (first.has(m[1]!)) {
          if (await this.restore(m[1]!, at)) restoredObjects++;
        } else if (trashedAt(entry) <= cutoff) {
          const to = this.trashName(m[1]!);
          if (await this.store.rename(at, to)) claimed.push([m[1]!, to]);
        }
      }
      for (const entry of await this.store.list(OBJECTS_DIR)) {
        const m = OBJECT_NAME.exec(entry.name);
        if (m === null || first.has(m[1]!)) continue;
        const to = this.trashName(m[1]!);
        if (await this.store.rename(`${OBJECTS_DIR}/${entry.name}`, to)) claimed.push([m[1]!, to]);
      }
      if (claimed.length > 0) {
        // Listed after every claim: a binding created before any claim is seen here.
        const second = await this.referencedHexes();
        for (const [hex, at] of claimed) {
          if (second === null || second.has(hex)) {
            if (await this.restore(hex, at)) restoredObjects++;
          } else if (await this.store.remove(at)) {
            removedObjects++;
          }
        }
      }
      for (const entry of await this.store.list(TEMP_DIR)) {
        if (entry.mtimeMs <= cutoff && (await this.store.remove(`${TEMP_DIR}/${entry.name}`))) removedTemp++;
      }
      return { ok: true, removedObjects, restoredObjects, removedTemp, diagnostics, ioError: false };
    } catch (e) {
      const f = this.failure(e);
      return {
        ok: false,
        removedObjects,
        restoredObjects,
        removedTemp,
        diagnostics: [...diagnostics, ...f.diagnostics],
        ioError: f.ioError,
      };
    }
  }

  // ---------------------------------------------------------------- internals

  /** A trash name owned by this gc run; it records when the copy was trashed (rename keeps the mtime). */
  private trashName(hex: string): string {
    return `${TRASH_DIR}/${hex}.t${Math.max(0, Math.floor(this.now())).toString(36)}r${nonce()}`;
  }

  private async restore(hex: string, trashPath: string): Promise<boolean> {
    const bytes = await this.store.read(trashPath);
    if (bytes === null) return false;
    const created = await this.store.createExclusive(objectPathForHex(hex), bytes);
    await this.store.remove(trashPath);
    return created;
  }

  /** Identities (hex) referenced by bindings; null when some binding is unreadable. */
  private async referencedHexes(): Promise<Set<string> | null> {
    const { bindings, diagnostics } = await this.readAllBindings();
    if (diagnostics.some((d) => d.code === "catalog.corrupt")) return null;
    return new Set(bindings.map((b) => identityHex(b.record.identity)));
  }

  private async readAllBindings(): Promise<{
    bindings: Array<{ record: BindingRecord; path: string }>;
    diagnostics: Diagnostic[];
  }> {
    const bindings: Array<{ record: BindingRecord; path: string }> = [];
    const diagnostics: Diagnostic[] = [];
    for (const entry of await this.store.list(BINDINGS_DIR)) {
      const path = `${BINDINGS_DIR}/${entry.name}`;
      if (!BINDING_NAME.test(entry.name)) {
        diagnostics.push(this.stray(path));
        continue;
      }
      try {
        const record = await this.readBinding(path);
        if (record !== null) bindings.push({ record, path });
      } catch (e) {
        if (!(e instanceof CatalogFailure) || e.ioError) throw e;
        diagnostics.push(e.diagnostic);
      }
    }
    bindings.sort(
      (a, b) => compareCodePoints(a.record.id, b.record.id) || compareCodePoints(a.record.version, b.record.version),
    );
    return { bindings, diagnostics };
  }

  /** A binding, `null` when absent; throws catalog.corrupt when it is unreadable. */
  private async readBinding(path: string): Promise<BindingRecord | null> {
    const bytes = await this.store.read(path);
    if (bytes === null) return null;
    const fileName = path.slice(path.lastIndexOf("/") + 1);
    const parsed = parseBinding(bytes, fileName);
    if (typeof parsed === "string") {
      fail("catalog.corrupt", `the binding ${this.where(path)} is corrupt: ${parsed}`, {
        hint: "bindings are written whole and never changed, so this file was altered outside yaoc; restore it from a backup",
      });
    }
    return parsed;
  }

  /** Reload the object a binding names and check it against the binding. */
  private async loadBound(
    record: BindingRecord,
    bPath: string,
  ): Promise<{ ok: true; package: HnsPackage; source: string } | { ok: false; diagnostic: Diagnostic }> {
    const name = `${record.id}@${record.version}`;
    const hex = identityHex(record.identity);
    const objPath = objectPathForHex(hex);
    let bytes: Uint8Array | null;
    try {
      bytes = await this.readObject(hex);
    } catch (e) {
      if (!(e instanceof StoreError)) throw e;
      // A link, directory, FIFO, oversized or unreadable file where the object belongs: damage to
      // this one package, reported by name; the other packages are still checked.
      return {
        ok: false,
        diagnostic: diagnostic(
          "catalog.corrupt",
          `the stored object of ${name} (${this.where(objPath)}) is damaged: ${e.message}`,
          {
            hint: `re-install the package with identity ${record.identity} to repair it; never edit files in the catalog`,
          },
        ),
      };
    }
    if (bytes === null) {
      return {
        ok: false,
        diagnostic: diagnostic(
          "catalog.dangling",
          `${name} is bound to ${record.identity}, but its object ${this.where(objPath)} is missing`,
          {
            hint: `re-install the package with identity ${record.identity} to restore it (the binding ${this.where(bPath)} stays as it is)`,
          },
        ),
      };
    }
    const problem = await this.objectProblem(bytes, hex);
    if (typeof problem === "string") {
      return {
        ok: false,
        diagnostic: diagnostic("catalog.corrupt", `the stored object of ${name} (${this.where(objPath)}) ${problem}`, {
          hint: `re-install the package with identity ${record.identity} to repair it; never edit files in the catalog`,
        }),
      };
    }
    if (problem.manifest.id !== record.id || problem.manifest.version !== record.version) {
      return {
        ok: false,
        diagnostic: diagnostic(
          "catalog.corrupt",
          `the binding ${this.where(bPath)} of ${name} names an object that is ${problem.manifest.id}@${problem.manifest.version}`,
          {
            hint: "restore the catalog from a backup",
          },
        ),
      };
    }
    return { ok: true, package: problem, source: new TextDecoder().decode(bytes) };
  }

  /** The object bytes, looking in trash/ as well (a gc may be about to restore it). */
  private async readObject(hex: string): Promise<Uint8Array | null> {
    // A concurrent gc moves objects between objects/ and trash/ (and between trash names) with
    // rename; a copy can be missed only while it is in flight, so look again a few times.
    for (let attempt = 0; attempt < 3; attempt++) {
      const bytes = await this.store.read(objectPathForHex(hex), this.maxObjectBytes());
      if (bytes !== null) return bytes;
      for (const entry of await this.store.list(TRASH_DIR)) {
        if (entry.name.startsWith(`${hex}.`)) {
          const t = await this.store.read(`${TRASH_DIR}/${entry.name}`, this.maxObjectBytes()).catch(() => null);
          if (t !== null) return t;
        }
      }
    }
    return null;
  }

  /** No valid object is larger than the package limit: anything larger is refused before reading. */
  private maxObjectBytes(): number {
    return Math.max(this.limits.maxPackageBytes, DEFAULT_LOAD_LIMITS.maxSourceBytes);
  }

  /**
   * Reload stored bytes as a single file; a string says why they are not the object `hex`: not
   * loadable, another identity, or not byte-for-byte the canonical loadable encoding. The bytes are
   * already read, so the reload (`check`'s structural load of the text in memory, without the
   * analysis the install ran) reads nothing from the store.
   */
  private async objectProblem(bytes: Uint8Array, hex: string): Promise<string | HnsPackage> {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      return "is not valid UTF-8";
    }
    const checked = await checkSource(`${hex}.hns`, text, {
      kind: "hns",
      analyze: false,
      keepAnalysis: true,
      limits: { maxSourceBytes: this.limits.maxPackageBytes },
    });
    const loaded = checked.loaded;
    if (loaded === undefined) return "does not load (check kept no load result)";
    if (!loaded.ok) {
      const first = loaded.diagnostics.find((d) => d.severity === "error");
      return `does not load (${first?.code ?? "error"}: ${first?.message ?? "unknown"})`;
    }
    if (loaded.package.identity !== `sha256:${hex}`)
      return `reloads to identity ${loaded.package.identity}, not sha256:${hex}`;
    if (loadableSource(identityInputOf(loaded.package)) !== text)
      return "reloads to its identity but differs from its canonical encoding (bytes were changed)";
    return loaded.package;
  }

  /** Write the object unless the exact bytes are already there (a damaged copy is replaced). */
  private async ensureObject(hex: string, bytes: Uint8Array): Promise<void> {
    const path = objectPathForHex(hex);
    let current: Uint8Array | null = null;
    try {
      current = await this.store.read(path, this.maxObjectBytes());
    } catch (e) {
      // Damage (a link, directory, FIFO, oversized or unreadable file) is replaced like wrong bytes.
      if (!(e instanceof StoreError) || e.code === "read_only") throw e;
    }
    if (current !== null && equalBytes(current, bytes)) return;
    await this.store.writeAtomic(path, bytes);
  }

  /** Refuse directories that are not catalogs (or of another format); create the marker when writing. */
  private async ensureFormat(write: boolean): Promise<void> {
    const marker = await this.store.read(FORMAT_FILE);
    if (marker !== null) {
      if (new TextDecoder().decode(marker) !== FORMAT_TEXT) {
        fail(
          "catalog.bad_format",
          `${this.store.location} is not a yaoc catalog of this version: its ${FORMAT_FILE} file does not say ${JSON.stringify(FORMAT_TEXT.trim())}`,
          {
            hint: "use another --catalog directory, or a yaoc version that understands this catalog",
          },
          true,
        );
      }
      return;
    }
    const foreign = (await this.store.listRoot()).filter((n) => !KNOWN_ROOT_NAMES.has(n));
    if (foreign.length > 0) {
      fail(
        "catalog.bad_format",
        `${this.store.location} is not a yaoc catalog: it holds ${foreign
          .slice(0, 3)
          .map((n) => JSON.stringify(n))
          .join(", ")}${foreign.length > 3 ? ", …" : ""} and no ${FORMAT_FILE} file`,
        {
          hint: "point --catalog (or YAOC_CATALOG) at a new or empty directory",
        },
        true,
      );
    }
    if (!write) return;
    if (!(await this.store.createExclusive(FORMAT_FILE, encoder.encode(FORMAT_TEXT)))) await this.ensureFormat(false);
  }

  private async versionsHint(id: string): Promise<string> {
    const { bindings } = await this.readAllBindings().catch(() => ({
      bindings: [] as Array<{ record: BindingRecord }>,
    }));
    const versions = bindings.filter((b) => b.record.id === id).map((b) => b.record.version);
    return versions.length > 0
      ? `installed versions of ${id}: ${versions.join(", ")}`
      : "`yaoc catalog list` shows what is installed";
  }

  private stray(path: string): Diagnostic {
    return diagnostic("catalog.stray_file", `${this.where(path)} is not part of the catalog layout and is ignored`, {
      hint: "remove it; the catalog never reads or trusts files it did not write",
    });
  }

  private where(path: string): string {
    return `${this.store.location.replace(/\/+$/, "")}/${path}`;
  }

  private isIo(e: unknown): boolean {
    return e instanceof StoreError || (e instanceof CatalogFailure && e.ioError);
  }

  private statusOf(e: unknown): InstallStatus {
    return e instanceof CatalogFailure &&
      (e.diagnostic.code === "catalog.bad_name" || e.diagnostic.code === "catalog.export_limit")
      ? "rejected"
      : "error";
  }

  private failure(e: unknown): { diagnostics: Diagnostic[]; ioError: boolean } {
    if (e instanceof CatalogFailure) return { diagnostics: [e.diagnostic], ioError: e.ioError };
    if (e instanceof StoreError && e.code === "read_only") {
      return {
        diagnostics: [
          diagnostic("catalog.read_only", `${e.message}; this command needs to write to the catalog`, {
            file: e.path,
            hint: "use a writable --catalog directory, or run list, show, export and verify, which only read",
          }),
        ],
        ioError: true,
      };
    }
    if (e instanceof StoreError) {
      return {
        diagnostics: [
          diagnostic("catalog.io", `catalog storage failed: ${e.message}`, {
            file: e.path,
            hint: "check that the catalog directory exists, is writable and is on a local file system",
          }),
        ],
        ioError: true,
      };
    }
    throw e;
  }
}

/** Build a catalog over any store (the Node `openCatalog(dir)` lives in node-store.ts). */
export function openCatalogStore(store: CatalogStore, options: CatalogOptions = {}): Catalog {
  return new Catalog(store, options);
}

/** When a trash entry was trashed: from its name (`<hex>.t<ms base 36>r<nonce>`), else its mtime. */
function trashedAt(entry: { name: string; mtimeMs: number }): number {
  const m = /\.t([0-9a-z]+)r[0-9a-z]+$/.exec(entry.name);
  return m === null ? entry.mtimeMs : parseInt(m[1]!, 36);
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
