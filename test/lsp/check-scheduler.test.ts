/**
 * CheckScheduler with a controlled event loop: `defer` queues turns the test runs by hand, and each
 * check waits until the test finishes it, so changes can be made to arrive mid-check.
 */
import { describe, expect, it } from "vitest";
import { CheckScheduler } from "../../src/lsp/check-scheduler.js";

function harness(rootOf: (path: string) => string = (p) => p) {
  const turns: (() => void)[] = [];
  const started: string[] = [];
  const published: string[] = [];
  const errors: string[] = [];
  let finish: (() => void) | undefined;
  const scheduler = new CheckScheduler(
    async (path) => {
      started.push(path);
      await new Promise<void>((r) => (finish = r));
      finish = undefined;
      if (path === "/boom") throw new Error("boom");
      return {
        root: rootOf(path),
        publish: () => published.push(path),
        covers: (p: string) => rootOf(p) === rootOf(path),
      };
    },
    (run) => turns.push(run),
    (path) => errors.push(path),
  );
  /** Run queued turns until none is left (a check in progress does not queue turns). */
  const runTurns = (): void => {
    while (turns.length > 0) turns.shift()!();
  };
  /** Let the running check finish and its continuation run. */
  const finishCheck = async (): Promise<void> => {
    expect(finish, "a check is running").toBeDefined();
    finish!();
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { scheduler, turns, started, published, errors, runTurns, finishCheck };
}

describe("CheckScheduler", () => {
  it("waits for a turn without changes, then checks a burst of changes once", async () => {
    const h = harness();
    h.scheduler.changed("/a.hns");
    expect(h.started).toEqual([]);
    h.turns.shift()!(); // the first turn always waits one more
    h.scheduler.changed("/a.hns"); // a change arriving in that turn postpones again
    h.scheduler.changed("/a.hns");
    h.turns.shift()!();
    expect(h.started).toEqual([]);
    h.runTurns();
    expect(h.started).toEqual(["/a.hns"]);
    await h.finishCheck();
    expect(h.published).toEqual(["/a.hns"]);
    expect(h.scheduler.idle).toBe(true);
  });

  it("a check overtaken by a change to its package publishes nothing; the package is checked again", async () => {
    const h = harness((p) => (p.startsWith("/pkg.hns/") ? "/pkg.hns" : p));
    h.scheduler.changed("/pkg.hns/functions/f.yao");
    h.runTurns();
    expect(h.started).toEqual(["/pkg.hns/functions/f.yao"]);
    // Mid-check, another file of the same directory package changes.
    h.scheduler.changed("/pkg.hns/programs/main.yao");
    await h.finishCheck();
    expect(h.published).toEqual([]);
    // The package is checked again (from its newest change); that check covers f.yao too.
    h.runTurns();
    expect(h.started).toEqual(["/pkg.hns/functions/f.yao", "/pkg.hns/programs/main.yao"]);
    await h.finishCheck();
    expect(h.published).toEqual(["/pkg.hns/programs/main.yao"]);
    expect(h.scheduler.idle).toBe(true);
  });

  it("files of a package waiting when its check begins are covered by that check", async () => {
    const h = harness((p) => (p.startsWith("/pkg.hns/") ? "/pkg.hns" : p));
    h.scheduler.changed("/pkg.hns/a.yao");
    h.scheduler.changed("/pkg.hns/b.yao");
    h.runTurns();
    expect(h.started).toEqual(["/pkg.hns/a.yao"]);
    await h.finishCheck();
    // b.yao was waiting since before the check began: the check of the package covered it.
    expect(h.published).toEqual(["/pkg.hns/a.yao"]);
    expect(h.scheduler.idle).toBe(true);
  });

  it("a change to another package does not overtake a check; a change on disk overtakes any", async () => {
    const h = harness();
    h.scheduler.changed("/a.hns");
    h.runTurns();
    h.scheduler.changed("/b.hns");
    await h.finishCheck();
    expect(h.published).toEqual(["/a.hns"]);
    h.runTurns();
    expect(h.started).toEqual(["/a.hns", "/b.hns"]);
    h.scheduler.diskChanged([]);
    await h.finishCheck();
    expect(h.published).toEqual(["/a.hns"]);
    h.runTurns();
    expect(h.started).toEqual(["/a.hns", "/b.hns", "/b.hns"]);
    await h.finishCheck();
    expect(h.published).toEqual(["/a.hns", "/b.hns"]);
  });

  it("a prefix is not a parent: /pkg.hns2/x does not overtake /pkg.hns", async () => {
    const h = harness((p) => (p.startsWith("/pkg.hns/") ? "/pkg.hns" : p));
    h.scheduler.changed("/pkg.hns/a.yao");
    h.runTurns();
    h.scheduler.changed("/pkg.hns2/x.yao");
    await h.finishCheck();
    expect(h.published).toEqual(["/pkg.hns/a.yao"]);
  });

  it("a failing check is reported and does not stop later checks", async () => {
    const h = harness();
    h.scheduler.changed("/boom");
    h.scheduler.changed("/ok.hns");
    h.runTurns();
    await h.finishCheck();
    expect(h.errors).toEqual(["/boom"]);
    h.runTurns();
    await h.finishCheck();
    expect(h.published).toEqual(["/ok.hns"]);
  });
});
