import { existsSync } from 'node:fs'
import { defineConfig } from '@playwright/test'

const port = process.env.E2E_PORT ?? '3210'
const baseURL = `http://127.0.0.1:${port}`

/**
 * Debian's Chromium, never a downloaded browser (scripts/test.mjs checks it exists): its headless
 * shell when installed (`apt-get install -y chromium-headless-shell`), the engine Playwright itself
 * runs headless tests in, about a quarter faster than the whole browser (docs/decisions/0088);
 * otherwise the browser.
 */
export const chromiumPath =
	process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path)) ?? '/usr/bin/chromium'

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
		trace: 'retain-on-failure',
		screenshot: 'only-on-failure',
		video: 'off',
		launchOptions: {
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
