// Types of shutdown.mjs.
export declare const defaultHookTimeoutMs: number;
export declare function onShutdown(name: string, hook: () => unknown): void;
export declare function runShutdownHooks(options: {
  timeoutMs?: number;
  log: { info(message: string): void; error(fields: object | string, message?: string): void };
}): Promise<void>;
