/** Types of build.mjs for the tests that call it. */
export declare const PLAYGROUND_DIST: string;
export declare function buildPlayground(): Promise<string>;
