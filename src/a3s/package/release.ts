/**
 * Release-descriptor checks of reference §2.9: each Tool (task via release, service) and MCP HTTP
 * release descriptor is 1 B..256 KiB JSON of schema `a3s.use.tool-release.v1` /
 * `a3s.use.mcp-release.v1`; a Task's `timeoutMs` and a Service's `basePath` equal the manifest's,
 * and a Service's `apiContractDigest` is the SHA-256 of its declared contract file.
 *
 * The reference does not spell out the full descriptor schema, so only these bindings (and the
 * top-level shape) are checked; the rest of the descriptor is not validated.
 */
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { diagnostic } from "../codes.js";
import { resolveContainedFile } from "../../fs/contained.js";
import type { PackageFs } from "../../fs/package-fs.js";
import { parseStrictJson } from "./cjson.js";
import { rawDigest } from "./digest.js";
import type { ExtensionManifest } from "../manifest/schema.js";
import { referenceMessage } from "../messages.js";

const MAX_DESCRIPTOR = 256 * 1024;
const MAX_CONTRACT = 4 * 1024 * 1024;

interface Expect {
  path: string;
  what: string;
  schema: "a3s.use.tool-release.v1" | "a3s.use.mcp-release.v1";
  check: (d: Record<string, unknown>) => Promise<string | null>;
}

const obj = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

export async function checkReleaseDescriptors(
  fs: PackageFs,
  realRoot: string,
  m: ExtensionManifest,
): Promise<Diagnostic[]> {
  const expects: Expect[] = [];
  for (const t of m.tools ?? []) {
    const w = t.workload;
    if ("task" in w) {
      const s = w.task.source;
      if ("release" in s) {
        const timeout = w.task.timeoutMs;
        expects.push({
          path: s.release.release,
          what: `Tool '${t.id}'`,
          schema: "a3s.use.tool-release.v1",
          check: async (d) => {
            const wl = d["workload"];
            if (d["kind"] !== "tool" || !obj(wl) || wl["class"] !== "task")
              return "it must describe a Tool Task workload";
            return wl["timeoutMs"] === timeout
              ? null
              : `its workload.timeoutMs ${String(wl["timeoutMs"])} differs from the manifest's timeout_ms ${timeout}`;
          },
        });
      }
    } else {
      const svc = w.service;
      expects.push({
        path: svc.release,
        what: `Tool '${t.id}'`,
        schema: "a3s.use.tool-release.v1",
        check: async (d) => {
          const wl = d["workload"];
          if (d["kind"] !== "tool" || !obj(wl) || wl["class"] !== "service")
            return "it must describe a Tool Service workload";
          if (wl["basePath"] !== svc.basePath)
            return `its workload.basePath ${JSON.stringify(wl["basePath"])} differs from the manifest's base_path '${svc.basePath}'`;
          if (svc.contract !== undefined) {
            const c = await resolveContainedFile(fs, realRoot, svc.contract);
            if (c.ok && c.stat.size <= MAX_CONTRACT) {
              const digest = rawDigest(await fs.readFile(c.realPath, MAX_CONTRACT + 1));
              if (wl["apiContractDigest"] !== digest)
                return `its workload.apiContractDigest does not equal ${digest}, the digest of '${svc.contract}'`;
            }
          }
          return null;
        },
      });
    }
  }
  for (const s of m.mcpServers ?? []) {
    if ("streamable-http" in s.launch) {
      expects.push({
        path: s.launch["streamable-http"].release,
        what: `MCP surface '${s.id}'`,
        schema: "a3s.use.mcp-release.v1",
        check: async (d) => {
          const svc = d["service"];
          if (d["kind"] !== "mcp" || !obj(svc)) return "it must describe an MCP service";
          return svc["transport"] === "streamable-http" ? null : "its service.transport must be 'streamable-http'";
        },
      });
    }
  }
  const out: Diagnostic[] = [];
  for (const e of expects) {
    const r = await resolveContainedFile(fs, realRoot, e.path);
    if (!r.ok) continue; // missing or escaping files are reported by the declared-file checks
    const bad = (why: string) =>
      out.push(
        diagnostic(
          "a3s.package.release_descriptor",
          referenceMessage(
            "use.extension.release_descriptor_invalid",
            `${e.what} release descriptor '${e.path}' is invalid: ${why}.`,
          ),
          { file: e.path },
        ),
      );
    if (r.stat.size < 1 || r.stat.size > MAX_DESCRIPTOR) {
      bad(`its size must be 1 B to 256 KiB`);
      continue;
    }
    let d: unknown;
    try {
      d = parseStrictJson(
        new TextDecoder("utf-8", { fatal: true }).decode(await fs.readFile(r.realPath, MAX_DESCRIPTOR + 1)),
      );
    } catch (err) {
      bad(`it is not UTF-8 JSON (${err instanceof Error ? err.message : String(err)})`);
      continue;
    }
    if (!obj(d) || d["schema"] !== e.schema) {
      bad(`its schema must be '${e.schema}'`);
      continue;
    }
    const why = await e.check(d);
    if (why !== null) bad(why);
  }
  return out;
}
