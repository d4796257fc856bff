// Compiles server/index.ts to server-build/index.js; npm packages stay external.
import { build } from 'esbuild'

await build({
	entryPoints: ['server/index.ts'],
	outfile: 'server-build/index.js',
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node20',
	packages: 'external',
	sourcemap: true,
	logLevel: 'info',
})
