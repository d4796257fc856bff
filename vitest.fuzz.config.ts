import tsconfigPaths from 'vite-tsconfig-paths'
import { defineConfig } from 'vitest/config'

/**
 * The fuzz suite (issue 13, docs/decisions/0073): malformed input for every form action and JSON
 * call, sent over HTTP to the production build running in-process. Run after `npm run build`
 * (`npm run test:fuzz`; `npm test` runs it after the build). Kept apart from vitest.config.ts so
 * plain `npx vitest run` never needs a build.
 */
export default defineConfig({
	plugins: [tsconfigPaths()],
	test: {
		name: 'fuzz',
		include: ['tests/fuzz/**/*.test.ts'],
		environment: 'node',
		// A fresh, migrated database per file: in-memory PGlite, or a new database on TEST_DATABASE_URL,
		// each a copy of the template migrated once for the run (docs/decisions/0076).
		globalSetup: ['tests/setup/database-template.ts'],
		setupFiles: ['tests/setup/database.ts'],
		// PGlite needs ~750 MB per open database; two workers suit a 2-core machine.
		pool: 'forks',
		poolOptions: { forks: { maxForks: 2, minForks: 1 } },
		testTimeout: 120_000,
		hookTimeout: 180_000,
		// The built server bundle is loaded by Node itself, as `npm start` does, not transformed by Vite.
		server: { deps: { external: [/\/build\/server\//] } },
	},
})
