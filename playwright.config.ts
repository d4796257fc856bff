import { defineConfig } from '@playwright/test'
import { chromiumPath } from './scripts/chromium-path.mjs'

const port = process.env.E2E_PORT ?? '3210'
const baseURL = `http://127.0.0.1:${port}`

export default defineConfig({
	testDir: 'tests/e2e',
	fullyParallel: true,
	workers: 2,
	forbidOnly: Boolean(process.env.CI),
	// The machine is shared and slow at times; a flow that signs people in hashes passwords at full cost.
	timeout: 45_000,
	expect: { timeout: 10_000 },
	reporter: [['list'], ['json', { outputFile: 'playwright-report/results.json' }]],
	use: {
		baseURL,
		trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
		screenshot: 'only-on-failure',
		video: 'off',
		launchOptions: {
			// Debian's Chromium or its headless shell (scripts/chromium-path.mjs); scripts/test.mjs checks it exists.
			executablePath: chromiumPath,
			args: [
				'--no-sandbox',
				'--disable-gpu',
				'--disable-dev-shm-usage',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync',
				'--no-first-run',
			],
		},
	},
	projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
	webServer: {
		command: 'node tests/e2e/serve.mjs',
		url: `${baseURL}/healthz`,
		env: { PORT: port },
		timeout: 120_000,
		reuseExistingServer: false,
		stdout: 'pipe',
		stderr: 'pipe',
	},
})
