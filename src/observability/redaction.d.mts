// Types of redaction.mjs, for the app's code (server and browser) and the tests that import it.
export declare function redactedUrl(url: string): string;
export declare function redactedUrlsIn(text: string): string;
