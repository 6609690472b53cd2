export function runLanguageServer(): void { throw new Error("todo"); }
