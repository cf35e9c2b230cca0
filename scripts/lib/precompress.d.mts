export declare const MIN_BYTES: number;
export declare function precompressDirectory(directory: string): Promise<number>;
