export declare const appHost: string;
export declare const appPort: number;
export declare const appOrigin: string;
export declare const ingestPort: number;
export declare const ingestOrigin: string;
export declare const ingestDsn: string;
export declare const e2eBuildEnv: Record<string, string>;
export declare const e2eServerEnv: Record<string, string>;
