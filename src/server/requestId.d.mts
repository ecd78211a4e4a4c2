// Types of requestId.mjs.
export declare function requestIdFor(inbound: string | null | undefined): string;
