/**
 * Run a command's function in this process with process.stdout and process.stderr captured, as the
 * in-process CLI tests need (the checker stays warm across calls, so a fixture tree costs seconds).
 * The writes are restored however `run` ends.
 */
import { vi } from "vitest";

export async function captureOutput<T>(run: () => Promise<T>): Promise<{ value: T; out: string; err: string }> {
  let out = "";
  let err = "";
  const o = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  const e = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    err += String(chunk);
    return true;
  });
  try {
    const value = await run();
    return { value, out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}
