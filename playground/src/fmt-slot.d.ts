/**
 * The formatter slot. `playground/build.mjs` resolves "yaoc-playground:fmt" to src/fmt (`yaoc fmt`)
 * when the repository has it, and otherwise to a stand-in with `available = false`, so the page
 * shows "formatter not available" until the formatter lands.
 */
declare module "yaoc-playground:fmt" {
  export const available: boolean;
  export function formatSource(
    source: string,
  ):
    | { readonly ok: true; readonly text: string }
    | { readonly ok: false; readonly diagnostic?: { readonly message: string } };
}
declare module "yaoc-playground:examples" {
  /**
   * The shipped examples: a package name (`review.hns`), what the example is (the menu's label) and
   * its files relative to the package root ("" for a single file).
   */
  export const examples: readonly {
    readonly name: string;
    readonly label: string;
    readonly files: Readonly<Record<string, string>>;
  }[];
}
