import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { demo, expect, login, test } from './fixtures'
import { startProcess, until, type Started } from './processes'
import { freePort } from '../../scripts/free-port.mjs'

/**
 * Issue 34, part 5 (decision 0144): `npm run backup` copies the embedded portal WHILE it runs (this
 * suite's own server, tests/e2e/serve.mjs, serving the other specs meanwhile), `npm run restore`
 * puts the copy into an empty DATA_DIR, and a portal started on it serves the same accounts,
 * requests and stored files. It tests PGlite, so it runs in the embedded pass only.
 */
test.skip(Boolean(process.env.TEST_DATABASE_URL), 'backs up the embedded database: the PGlite pass runs it')

/** `npm run <name>` as an operator runs it (scripts/run.mjs), with only DATA_DIR set; resolves with its exit code and output. */
async function operator(script: string, args: string[], dataDir: string) {
	const started = startProcess([process.execPath, 'scripts/run.mjs', script, ...args], { DATA_DIR: dataDir, LOG_LEVEL: 'warn' })
	const code = await started.exited
	return { code, output: started.output() }
}

test('a backup of the running portal, restored into an empty DATA_DIR, serves the same accounts, requests and files', async ({ browser, baseURL }) => {
	test.setTimeout(150_000)
	const liveDir = `tests/.tmp/e2e-data-${new URL(baseURL!).port}`
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'autohub-backup-'))
	const archive = path.join(work, 'backup.tar.gz')
	const restoredDir = path.join(work, 'data')
	let restored: Started | null = null
	try {
		// What the running portal serves: the demo customer's requests and a workshop's stored logo.
		const live = await browser.newContext({ baseURL })
		const livePage = await live.newPage()
		await login(livePage, demo.customer.email, demo.customer.password)
		const requestLinks = async (page: typeof livePage) => {
			await page.goto('/my-requests?status=all')
			return page.locator('main a[href*="/request-details/"], main a[href*="/service-details/"]').evaluateAll((links) => [...new Set(links.map((link) => new URL((link as HTMLAnchorElement).href).pathname))])
		}
		const liveRequests = await requestLinks(livePage)
		expect(liveRequests.length).toBeGreaterThan(0)
		await live.close()
		const list = (await (await fetch(`${baseURL}/admin/api/workshop-list?lng=en`)).json()) as { data: { items: Array<{ logo: string | null }> } }
		const logo = new URL(list.data.items.find((item) => item.logo)!.logo!).pathname
		const liveLogo = Buffer.from(await (await fetch(`${baseURL}${logo}`)).arrayBuffer())
		expect(liveLogo.length).toBeGreaterThan(100)

		// The backup, while the portal keeps answering pages.
		const backup = operator('backup', [archive], liveDir)
		const pages = await Promise.all(['/?lng=en', '/workshop-list?lng=en', '/healthz'].map(async (url) => (await fetch(`${baseURL}${url}`)).status))
		const made = await backup
		expect(made.code, made.output).toBe(0)
		expect(made.output).toContain('from the running portal')
		expect(pages).toEqual([200, 200, 200])

		// No restore into the running portal's directory, nor into one that is not empty.
		const intoLive = await operator('restore', [archive], liveDir)
		expect(intoLive.code).toBe(1)
		expect(intoLive.output).toContain('holds')
		fs.mkdirSync(path.join(work, 'full'))
		fs.writeFileSync(path.join(work, 'full', 'something'), 'x')
		const intoFull = await operator('restore', [archive], path.join(work, 'full'))
		expect(intoFull.code).toBe(1)
		expect(intoFull.output).toContain('is not empty')

		const restore = await operator('restore', [archive], restoredDir)
		expect(restore.code, restore.output).toBe(0)
		expect(restore.output).toContain('as its manifest says')

		// A portal on the copy.
		const port = await freePort()
		const url = `http://127.0.0.1:${port}`
		restored = startProcess([process.execPath, 'server-build/index.js'], { DATA_DIR: restoredDir, HOST: '127.0.0.1', PORT: String(port), APP_URL: url, LOG_LEVEL: 'warn' })
		await until(async () => ((await fetch(`${url}/readyz`)).status === 200 ? true : undefined), 90_000)

		const copy = await browser.newContext({ baseURL: url })
		const copyPage = await copy.newPage()
		await login(copyPage, demo.customer.email, demo.customer.password)
		const copyRequests = await requestLinks(copyPage)
		// Other specs may add requests to the live portal meanwhile; none it had before is missing.
		expect(copyRequests).toEqual(expect.arrayContaining(liveRequests))
		await copy.close()
		const copyLogo = Buffer.from(await (await fetch(`${url}${logo}`)).arrayBuffer())
		expect(copyLogo.equals(liveLogo)).toBe(true)
	} finally {
		if (restored) {
			restored.process.kill('SIGTERM')
			await restored.exited
		}
		fs.rmSync(work, { recursive: true, force: true })
	}
})
