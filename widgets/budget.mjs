// The widgets' size budget (issue 9): the script-tag bundle, React included, at most 60 KB gzipped.
// Shared by the build (which prints each bundle's size) and tests/unit/widgets-size.test.ts.
import { gzipSync } from 'node:zlib'

export const IIFE_BUDGET_BYTES = 60 * 1024

export function gzippedSize(source) {
	return gzipSync(source, { level: 9 }).byteLength
}

export const kilobytes = (bytes) => `${(bytes / 1024).toFixed(1)} KB`
