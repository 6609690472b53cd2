/** Types of serve.mjs for the tests that call it. */
import type { Server } from "node:http";
export declare function servePlayground(root: string, port?: number): Promise<{ server: Server; url: string }>;
