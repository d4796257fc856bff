import { vitePlugin as remix } from '@remix-run/dev'
import { defineConfig } from 'vite'
import tsconfigPaths from 'vite-tsconfig-paths'

declare module '@remix-run/node' {
	interface Future {
		v3_singleFetch: true
	}
}

export default defineConfig({
	build: {
		// Keep the client bundle honest: report what each page ships.
		reportCompressedSize: true,
		cssMinify: true,
	},
	server: {
		// The custom Express server (server/index.ts) hosts Vite in dev.
		watch: { ignored: ['**/data/**', '**/tests/.tmp/**', '**/playwright-report/**'] },
	},
	plugins: [
		remix({
			ignoredRouteFiles: ['**/*.test.{ts,tsx}', '**/*.server.ts'],
			serverModuleFormat: 'esm',
			future: {
				v3_fetcherPersist: true,
				v3_relativeSplatPath: true,
				v3_throwAbortReason: true,
				v3_singleFetch: true,
				v3_lazyRouteDiscovery: true,
			},
		}),
		tsconfigPaths(),
	],
})
