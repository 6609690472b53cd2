/** `npm run playground`'s server: loopback only, static files only, nothing outside its directory. */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { servePlayground } from "../../playground/serve.mjs";
import { REPO_ROOT } from "../support/shared.js";

/** A raw request, so `..` segments reach the server as sent (fetch would normalise them away). */
function rawGet(url: string, path: string, method = "GET"): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the playground's static server", () => {
  it("binds 127.0.0.1, serves the directory's files and refuses paths that leave it", async () => {
    const parent = mkdtempSync(join(tmpdir(), "yaoc-serve-"));
    const root = join(parent, "site");
    mkdirSync(root);
    writeFileSync(join(root, "index.html"), "<p>hello</p>");
    writeFileSync(join(parent, "secret.txt"), "do not serve");
    const { server, url } = await servePlayground(root);
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(await rawGet(url, "/")).toEqual({ status: 200, body: "<p>hello</p>" });
      for (const attack of [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/..%2fsecret.txt",
        "/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
      ]) {
        const r = await rawGet(url, attack);
        expect(r.status, attack).not.toBe(200);
        expect(r.body, attack).not.toContain("do not serve");
      }
      expect((await rawGet(url, "/index.html", "POST")).status).toBe(405);
      expect((await rawGet(url, "/%E0%A4%A")).status).toBe(400);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it("npm run playground's server prints its loopback address (PORT=0: any free port) and answers there", async () => {
    const child = spawn(process.execPath, [join(REPO_ROOT, "playground/serve.mjs")], {
      env: { ...process.env, PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (c: Buffer) => {
          out += c.toString();
          const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
          if (m) resolve(m[0]);
        });
        child.on("exit", (code) => reject(new Error(`server exited ${code}: ${out}`)));
      });
      expect((await rawGet(url, "/no-such-file")).status).toBe(404);
    } finally {
      child.kill();
    }
  });
});
