// Types of dotSegments.mjs.
export declare function hasDotSegment(target: unknown): boolean;
