/** Types of build-browser.mjs for the tests that call it. */
export declare const BROWSER_BUNDLE_LIMIT: number;
export declare function buildBrowserBundle(options?: { outdir?: string }): Promise<{
  outfile: string;
  bytes: number;
  limit: number;
  totalBytes: number;
  top: { name: string; bytes: number }[];
  initialGroups: string[];
  lazyTop: { name: string; bytes: number }[];
}>;
