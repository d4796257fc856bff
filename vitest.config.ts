import fs from 'node:fs'
import tsconfigPaths from 'vite-tsconfig-paths'
import { defineConfig } from 'vitest/config'

/**
 * The integration files CI runs on embedded PGlite; all of them run on PostgreSQL, the production
 * database (docs/decisions/0117). `npm test` runs only these on PGlite when TEST_SPLIT=1 (CI's
 * embedded pass, scripts/test.mjs); without it every file runs on the run's database. A file that
 * tests something only the embedded database does, or does differently, belongs here.
 */
export const pgliteSmoke = [
	// The migrations on the embedded database, and its one-query check of a current one (decision 0094).
	'tests/integration/schema.test.ts',
	// The demo data loaded into an empty embedded database, as a first start does.
	'tests/integration/demo-data.test.ts',
	// The background jobs on timers in the process: its embedded part runs only on PGlite.
	'tests/integration/job-queue.test.ts',
	// The caches on the embedded database: emptied after a commit, and told by the triggers through
	// PGlite's own listen (decision 0118).
	'tests/integration/cache-invalidation.test.ts',
	'tests/integration/user-cache.test.ts',
	// Racing moves on PGlite's one connection: transactions queue instead of locking, and a query
	// outside a move's transaction while it is open would wait for ever only here.
	'tests/integration/lock-order.test.ts',
	// Months and days in SQL `at time zone 'Europe/Tallinn'`: PGlite's own time-zone data.
	'tests/integration/money-and-months.test.ts',
	// The flow every other builds on (transactions, after-commit work, pictures) through PGlite's driver.
	'tests/integration/service-flow.test.ts',
	// A copy of the demo template from its tarball (tests/support/demo-data.ts), and the pages a
	// fresh embedded install shows.
	'tests/integration/public-pages.test.ts',
	// Operating the embedded install (issue 34): liveness without the database, readiness, the
	// request id and the metrics of the built server on PGlite; the API's contract on its data.
	'tests/integration/observability.test.ts',
	'tests/integration/api-contract.test.ts',
]
// A renamed or removed file would silently leave the embedded pass without it.
for (const file of pgliteSmoke) if (!fs.existsSync(new URL(file, import.meta.url))) throw new Error(`vitest.config.ts: pgliteSmoke names ${file}, which is not there`)

export default defineConfig({
	plugins: [tsconfigPaths()],
	test: {
		// PGlite needs ~750 MB per open database; two workers suit a 2-core machine.
		pool: 'forks',
		poolOptions: { forks: { maxForks: 2, minForks: 1 } },
		testTimeout: 30_000,
		hookTimeout: 60_000,
		projects: [
			{
				extends: true,
				test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], environment: 'node' },
			},
			{
				extends: true,
				test: {
					name: 'integration',
					include: process.env.TEST_INTEGRATION === 'pglite-smoke' ? pgliteSmoke : ['tests/integration/**/*.test.ts'],
					environment: 'node',
					// Finds or makes the migrated and the demo template; each file's database is a copy (docs/decisions/0076, 0117).
					globalSetup: ['tests/setup/database-template.ts'],
					setupFiles: ['tests/setup/database.ts'],
					// A file's first test loads the demo data on its copy (≈ 25 s on PGlite since images got
					// their copies, decision 0093): on a busy machine 30 s was too close.
					testTimeout: 60_000,
				},
			},
		],
	},
})
