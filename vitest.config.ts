import tsconfigPaths from 'vite-tsconfig-paths'
import { defineConfig } from 'vitest/config'

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
					include: ['tests/integration/**/*.test.ts'],
					environment: 'node',
					// Migrates one template database for the run; each file's database is a copy (docs/decisions/0076).
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
