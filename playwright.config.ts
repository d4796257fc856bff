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
	// CI retries a failed test once and reports it as flaky (.ci/run prints the count), as Playwright's
	// own template does: a browser that stalls once on a loaded machine (an action waiting forever for
	// a frame, seen once in CI) must not hide a whole pass. A test that fails twice still fails.
	retries: process.env.CI ? 1 : 0,
	reporter: [['list'], ['json', { outputFile: 'playwright-report/results.json' }]],
	use: {
		baseURL,
		trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
		screenshot: 'only-on-failure',
		video: 'off',
		// An action that cannot happen fails in a minute, not at the end of a long flow's timeout.
		actionTimeout: 60_000,
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
		url: `${baseURL}/readyz`,
		env: { PORT: port },
		timeout: 120_000,
		reuseExistingServer: false,
		stdout: 'pipe',
		stderr: 'pipe',
	},
})
