// Types of node-version.mjs, for the tests that import it.
export declare const wantedNode: string;
export declare function nodeVersionProblem(found: string, wanted?: string): string | undefined;
export declare function requireSupportedNode(): void;
