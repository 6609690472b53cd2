/**
 * Where the host keeps things (Node-only). Everything lives under one root, `YAOC_HARP_HOME`, or
 * `$XDG_DATA_HOME/yaoc/harp` (default `~/.local/share/yaoc/harp`):
 *
 *   apps/<id>/current      symlink → versions/<v>; replaced atomically (rename) by install/upgrade
 *   apps/<id>/versions/<v>/bundle/       the installed package, read-only
 *   apps/<id>/versions/<v>/record.json   what was installed (manifest, digest, source, time)
 *   locks/<id>.lock        per-app operation lock (flock)
 *   trash/<id>.<n>/        an uninstalled app's tree while it is being removed
 *   data/<id>/             APP_DATA_DIR — survives upgrade and uninstall (unless --purge)
 *   cache/<id>/            APP_CACHE_DIR — cleared on upgrade
 *   tmp/<id>/              TMPDIR
 *   logs/<id>.log          stdout/stderr of the app plus host events
 *   run/<id>/              state.json, supervisor config, exit record; sock/ holds the bridge socket
 *   runtimes.json          optional host runtime table {"node": "/abs/node", "python": "/abs/python3"}
 *
 * Data lives outside apps/ so that replacing or removing a bundle can never touch it, and each id
 * gets its own directories (§13). The bundle and its record sit in one version directory behind one
 * pointer, so a SIGKILL at any point leaves either the old or the new install, never a mix.
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";

export function defaultHarpHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env["YAOC_HARP_HOME"]) return resolve(env["YAOC_HARP_HOME"]);
  const xdg = env["XDG_DATA_HOME"];
  const base = xdg?.startsWith("/") ? xdg : join(homedir(), ".local", "share");
  return join(base, "yaoc", "harp");
}

export class Layout {
  constructor(readonly root: string) {}
  appDir(id: string): string {
    return join(this.root, "apps", id);
  }
  /** The pointer to the current version. */
  current(id: string): string {
    return join(this.appDir(id), "current");
  }
  versions(id: string): string {
    return join(this.appDir(id), "versions");
  }
  /** The bundle as the app sees it (its cwd); on the host it resolves through `current`. */
  bundle(id: string): string {
    return join(this.current(id), "bundle");
  }
  installRecord(id: string): string {
    return join(this.current(id), "record.json");
  }
  lock(id: string): string {
    return join(this.root, "locks", `${id}.lock`);
  }
  trash(): string {
    return join(this.root, "trash");
  }
  data(id: string): string {
    return join(this.root, "data", id);
  }
  cache(id: string): string {
    return join(this.root, "cache", id);
  }
  tmp(id: string): string {
    return join(this.root, "tmp", id);
  }
  log(id: string): string {
    return join(this.root, "logs", `${id}.log`);
  }
  run(id: string): string {
    return join(this.root, "run", id);
  }
  runtimes(): string {
    return join(this.root, "runtimes.json");
  }
  lib(): string {
    return join(this.root, "lib");
  }
}
