export declare const IIFE_BUDGET_BYTES: number
export declare function gzippedSize(source: string | Uint8Array): number
export declare function kilobytes(bytes: number): string
