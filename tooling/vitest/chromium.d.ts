export declare const chromiumPath: string;
export declare const chromiumFlags: string[];
export declare function chromiumExecutable(): string;
