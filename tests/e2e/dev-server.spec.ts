import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, test } from '@playwright/test'
import { freePort } from '../../scripts/free-port.mjs'
import { dictionary } from './fixtures'
import { startProcess, until } from './processes'

/**
 * `npm run dev` as a developer runs it on a fresh checkout: Vite renders the sources (no build), on
 * a new embedded database with the demo data. It once failed to start at all (decision 0113).
 */


// Its own server on its own new DATA_DIR, with JavaScript: the embedded pass (JavaScript on) runs it.
test.skip(Boolean(process.env.TEST_DATABASE_URL), 'its own server on its own data directory: the embedded pass runs it')

function alive(pid: number) {
	try {
		process.kill(pid, 0)
		return true
	} catch {
		return false
	}
}

test('npm run dev serves the home page from a new DATA_DIR, hydrates it, and stops cleanly on Ctrl-C', async ({ browser }) => {
	// Vite compiles every module on the first request, the new database gets the demo data, and the
	// browser then asks Vite for each module (2.5 minutes in all in a loaded CI run).
	test.setTimeout(360_000)
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'autohub-dev-'))
	const port = await freePort()
	const dev = startProcess(['npm', 'run', 'dev'], { HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info', NODE_ENV: undefined })
	const group = dev.process.pid!
	try {
		const home = await until(async () => {
			if (dev.process.exitCode !== null) throw new Error('exited')
			const response = await fetch(`http://127.0.0.1:${port}/?lng=en`)
			return response.status === 200 ? response.text() : undefined
		}, 200_000).catch((error: unknown) => {
			throw new Error(`npm run dev did not serve / (${String(error)}):\n${dev.output()}`)
		})
		// (Each checked as a yes or no: a failure would print the whole page.)
		expect(home.includes(dictionary('en')('home.heroTitle')), 'the home page’s title').toBe(true)
		// A demo workshop on the home page: the new DATA_DIR got the demo data.
		expect(home.includes('Kask Autoteenindus'), 'a demo workshop').toBe(true)
		// The browser's entry is the source module: the page came from the sources, not a build.
		expect(home.includes('import("/app/entry.client.tsx")'), 'the source entry').toBe(true)
		expect(dev.output()).toContain('"mode":"development"')

		// A developer opens it in a browser: its modules come from Vite, which transforms each with
		// esbuild. Ctrl-C comes once the page is hydrated and quiet: esbuild gets the terminal's SIGINT
		// too, and one stopped in the middle of a job crashes Vite (esbuild's "callback is not a
		// function"; it failed CI once, Ctrl-C right after the first page).
		const page = await browser.newPage()
		const pageErrors: string[] = []
		page.on('pageerror', (error) => pageErrors.push(error.message))
		await page.goto(`http://127.0.0.1:${port}/?lng=en`)
		const hydratedAndQuiet = async () => {
			await page.waitForLoadState('networkidle')
			return page
				.evaluate(() => Boolean((window as unknown as { __reactRouterDataRouter?: { state: { initialized: boolean } } }).__reactRouterDataRouter?.state.initialized))
				.catch(() => false)
		}
		await expect.poll(hydratedAndQuiet, { timeout: 120_000, intervals: [1_000] }).toBe(true)
		// Still so two seconds later: no reload (dependencies found late would bring one).
		await page.waitForTimeout(2_000)
		expect(await hydratedAndQuiet(), 'the page hydrated and stayed').toBe(true)
		await expect(page.getByRole('heading', { level: 1 })).toContainText(dictionary('en')('home.heroTitle'))
		// Two copies of React (dependencies found only on the first page, bundled twice) broke it once.
		expect(pageErrors, 'errors in the page').toEqual([])
		await page.close()

		// Ctrl-C in a terminal signals the whole group (npm, tsx's watcher, the server).
		process.kill(-group, 'SIGINT')
		await until(async () => (alive(-group) ? undefined : true), 30_000).catch(() => {
			throw new Error(`npm run dev still running 30 s after SIGINT:\n${dev.output()}`)
		})
		expect(dev.output()).toContain('server stopping')
		expect(dev.output()).not.toContain('shutdown failed')
		expect(dev.output()).not.toMatch(/"level":"error"/)
	} finally {
		if (alive(-group)) process.kill(-group, 'SIGKILL')
		fs.rmSync(dataDir, { recursive: true, force: true })
	}
})
