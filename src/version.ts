/** The yaoc version, reported by `yaoc --version` and in receipts. Keep in step with package.json. */
export const VERSION = "0.1.0";
