export declare function precompressDirectory(directory: string): Promise<number>;
