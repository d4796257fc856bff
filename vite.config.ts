import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'
import { type LogLevel, type LogOrStringHandler, type RollupLog } from 'rollup'
import tsconfigPaths from 'vite-tsconfig-paths'

/**
 * The browser's build runs on Preact (preact/compat); the server renders with React. Conform's zod
 * adapter wraps schemas with classic zod's functions, which bring all of classic zod: the same
 * functions of zod/mini do the same (docs/decisions/0108).
 */
const browserAliases = [
	{ find: /^zod\/v4$/, replacement: 'zod/v4/mini' },
	{ find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
	{ find: /^react-dom$/, replacement: 'preact/compat' },
	{ find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
	{ find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
	{ find: /^react$/, replacement: 'preact/compat' },
]

/**
 * Build messages with nothing to act on, kept out of `npm start`'s first output (decision 0130):
 * the comments in zod's own files that Rollup drops (INVALID_ANNOTATION, only those: one in our
 * code would be a mistake to see), the empty browser chunk of each resource route, which has no
 * component (EMPTY_BUNDLE), and the chunk merger's count (OPTIMIZE_CHUNK_STATUS).
 */
function quietBuildLog(level: LogLevel, log: RollupLog, handler: LogOrStringHandler) {
	if (log.code === 'INVALID_ANNOTATION' && /[\\/]node_modules[\\/]zod[\\/]/.test(log.id ?? '')) return
	if (log.code === 'EMPTY_BUNDLE' || log.code === 'OPTIMIZE_CHUNK_STATUS') return
	handler(level, log)
}

export default defineConfig(({ command, isSsrBuild }) => ({
	build: {
		// Keep the client bundle honest: report what each page ships.
		reportCompressedSize: true,
		cssMinify: true,
		// Fewer, larger browser chunks: each page preloaded some thirty, many of them a few hundred
		// bytes shared by two routes, and Lighthouse's simulation replays every preload that finished
		// before the first paint (decision 0095). Small chunks without side effects are merged into
		// one loaded under the same conditions (Rollup's experimentalMinChunkSize).
		rollupOptions: isSsrBuild ? { onLog: quietBuildLog } : { onLog: quietBuildLog, output: { experimentalMinChunkSize: 20_000 } },
	},
	resolve: { alias: command === 'build' && !isSsrBuild ? browserAliases : [] },
	define: { 'import.meta.env.PREACT': JSON.stringify(command === 'build' && !isSsrBuild) },
	// The server's pure-JS dependencies with many small files go into the server build: an embedded
	// start read about a thousand files, 110 of drizzle's and 113 of zod's alone (decision 0094).
	// Only the build: in development Vite's module runner would evaluate CommonJS crypto-js as ESM
	// and fail; Node loads them there as it loads every other package (decision 0113).
	ssr: { noExternal: command === 'build' ? ['zod', 'drizzle-orm', 'crypto-js', 'remix-utils', /^@conform-to\//] : [] },
	// In development the browser's dependencies are found by scanning the client's entry and every
	// route before the first page: React Router names none unless asked (its unstable_optimizeDeps),
	// so they were found on the first page, bundled a second time, and the page met two copies of
	// React ("Invalid hook call", a blank page until reloaded).
	optimizeDeps: { entries: ['app/entry.client.tsx', 'app/root.tsx', 'app/routes/**/*.{ts,tsx}'] },
	server: {
		// The custom Express server (server/index.ts) hosts Vite in dev.
		watch: { ignored: ['**/data/**', '**/tests/.tmp/**', '**/playwright-report/**'] },
	},
	plugins: [
		reactRouter(),
		tsconfigPaths(),
	],
}))
