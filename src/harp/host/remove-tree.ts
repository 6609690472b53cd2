/**
 * Remove a directory tree without recursion and without following links (Node-only).
 *
 * An app controls what is in its data, cache and tmp dirs: a 3000-deep tree, directories it made
 * unreadable (mode 0), links pointing anywhere. `fs.rmSync({recursive})` recurses on the JS stack
 * (a deep tree overflows it) and long paths exceed PATH_MAX. Here an explicit stack walks the tree;
 * every entry is `lstat`ed, so a link is unlinked, never followed; directories are made
 * owner-accessible before they are read (bundles are 0555, apps may chmod 000); and a directory
 * whose path grows long is first renamed to a short name at the top of the tree, so no path ever
 * nears PATH_MAX and each syscall's path walk stays short (linear time overall).
 */
import { chmodSync, lstatSync, readdirSync, renameSync, rmdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";

/**
 * How far below the root a directory may be before it is renamed up. Every path syscall walks the
 * whole path, so keeping paths short also keeps the removal linear in the number of entries.
 */
const MAX_DEPTH_CHARS = 200;

export function removeTree(root: string): void {
  let st;
  try {
    st = lstatSync(root);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
    throw e;
  }
  if (!st.isDirectory()) {
    unlinkSync(root);
    return;
  }
  let parked = 0;
  const stamp = Date.now().toString(36);
  const stack: string[] = [root];
  // A directory seen non-empty twice in a row without anything removed means someone keeps
  // writing into it; stop instead of spinning.
  let lastFull: string | null = null;
  while (stack.length > 0) {
    const dir = stack[stack.length - 1]!;
    try {
      chmodSync(dir, 0o700);
    } catch {
      // not ours to chmod (e.g. read-only mount); reading may still work
    }
    const names = readdirSync(dir);
    if (names.length === 0) {
      rmdirSync(dir);
      stack.pop();
      lastFull = null;
      continue;
    }
    let progressed = false;
    for (const name of names) {
      let p = join(dir, name);
      const s = lstatSync(p);
      if (s.isDirectory()) {
        if (p.length > root.length + MAX_DEPTH_CHARS) {
          const short = join(root, `.yaoc-rm-${process.pid}-${stamp}-${parked++}`);
          renameSync(p, short);
          p = short;
        }
        stack.push(p);
      } else {
        unlinkSync(p);
      }
      progressed = true;
    }
    if (!progressed || lastFull === dir) throw new Error(`cannot empty ${dir}`);
    lastFull = stack[stack.length - 1] === dir ? dir : null;
  }
}

/** Remove everything inside `dir`, keeping `dir` itself. */
export function emptyDir(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
    throw e;
  }
  for (const n of names) removeTree(join(dir, n));
}
