/**
 * A one-file HNS package whose exported function takes `count` parameters (p0 … p{count-1}) and then
 * repeats p7, so the duplicate-parameter check runs over every parameter before it finds the repeat.
 * Shared by the s-params figure (bench/surfaces.ts) and test/hostile/surfaces/linear.test.ts, so the
 * figure measures the case the test pins down. `firstAt` is the byte offset of the first (p7 Int),
 * which the duplicate's diagnostic names as related.
 */
export function manyParamsPackage(count: number): { readonly source: string; readonly firstAt: number } {
  const params = Array.from({ length: count }, (_, i) => `(p${i} Int)`).join(" ");
  const source = `(manifest (id acme.x) (version "1.0.0") (title "t") (capabilities (tools read)))
(contract (purpose "p"))
(fn f (visibility exported) (description "d") (params ${params} (p7 Int)) (returns Int) (effects) (body 1))
(eval (requires (tools read)) 1)
`;
  return { source, firstAt: source.indexOf("(p7 Int)") };
}
