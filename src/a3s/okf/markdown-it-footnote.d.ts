// markdown-it-footnote 4.0.0 ships no types; the plugin is a plain `md.use()` function.
declare module "markdown-it-footnote" {
  const footnote: (md: any) => void;
  export default footnote;
}
