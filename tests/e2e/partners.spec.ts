import http from 'node:http'
import { type Browser, type Page } from '@playwright/test'
import { dictionary, expect, expectToast, javaScriptModes, loginAsAdmin, open, test } from './fixtures'
import { seriousAxeViolations } from './axe'

/**
 * Partner keys (issue 37, decision 0154): the administrator issues a key at /admin/partners (shown
 * once), changes and revokes it, and reads what it brought; a partner's page on another origin
 * calls the API with the key and is answered, a page on an origin not listed for it is refused,
 * and so is the partner once over its limit or revoked.
 */
const portalPort = Number(process.env.E2E_PORT ?? '3210')
const portal = `http://127.0.0.1:${portalPort}`
// Two partner sites on ports of their own (each worker its own): one origin the key lists, one it does not.
let listedOrigin = ''
let otherOrigin = ''

const servers: http.Server[] = []

async function partnerSite(): Promise<string> {
	const server = http.createServer((_req, res) => {
		res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
		res.end('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner site</title></head><body><h1>Partner site</h1></body></html>')
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	servers.push(server)
	return `http://127.0.0.1:${(server.address() as { port: number }).port}`
}

test.beforeAll(async () => {
	listedOrigin = await partnerSite()
	otherOrigin = await partnerSite()
})

test.afterAll(async () => {
	await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
})

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`

/** Fills the partner form (issuing a key and changing a partner ask the same). */
async function fillPartner(page: Page, language: 'et' | 'en' | 'ru', values: { name?: string; origins?: string; limit?: string }) {
	const a = dictionary(language, 'admin')
	if (values.name !== undefined) await page.getByLabel(a('partners.name')).fill(values.name)
	if (values.origins !== undefined) await page.getByLabel(a('partners.origins')).fill(values.origins)
	if (values.limit !== undefined) await page.getByLabel(a('partners.rateLimit')).fill(values.limit)
}

/** The administrator issues a key through the form and reads it off the page, where it is shown once. */
async function issueKey(page: Page, javaScriptEnabled: boolean, language: 'et' | 'en' | 'ru', values: { name: string; origins: string; limit: string }) {
	const a = dictionary(language, 'admin')
	await open(page, `/admin/partners?lng=${language}`, javaScriptEnabled)
	await fillPartner(page, language, values)
	await page.getByRole('button', { name: a('partners.issueSubmit') }).click()
	const field = page.getByLabel(a('partners.issuedKey'))
	await expect(field).toHaveValue(/^pk_[A-Za-z0-9_-]{32}$/)
	return field.inputValue()
}

for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`/admin/partners with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		test(`the administrator issues a key, sees it once, changes the partner and revokes its key (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({ page }) => {
			const language = javaScriptEnabled ? 'ru' : 'et'
			const a = dictionary(language, 'admin')
			await page.goto(`/?lng=${language}`)
			await loginAsAdmin(page)
			await open(page, '/admin', javaScriptEnabled)
			await page.locator('.admin-nav').getByRole('link', { name: a('nav.partners') }).click()
			await expect(page.getByRole('heading', { level: 1, name: a('partners.title') })).toBeVisible()
			// The demo's partners: one in use, one revoked.
			await expect(page.getByRole('link', { name: 'Autoklubi (demo)' })).toBeVisible()

			// Bad input: errors beside their fields, in the reader's language, what was typed kept.
			const name = `E2E partner ${unique()}`
			await fillPartner(page, language, { name, origins: 'http://partner.example', limit: '5' })
			await page.getByRole('button', { name: a('partners.issueSubmit') }).click()
			await expect(page.getByText(a('partners.originInvalid', { origin: 'http://partner.example' }))).toBeVisible()
			await expect(page.getByText(a('partners.limitRange', { min: 10, max: 10000 }))).toBeVisible()
			await expect(page.getByLabel(a('partners.name'))).toHaveValue(name)
			await expect(page.getByLabel(a('partners.issuedKey'))).toHaveCount(0)

			await fillPartner(page, language, { origins: `${listedOrigin}\nhttps://partner.example/`, limit: '120' })
			await page.getByRole('button', { name: a('partners.issueSubmit') }).click()
			const keyField = page.getByLabel(a('partners.issuedKey'))
			await expect(keyField).toHaveValue(/^pk_[A-Za-z0-9_-]{32}$/)
			const key = await keyField.inputValue()
			await page.screenshot({ path: test.info().outputPath('issued.png'), fullPage: true })
			const row = page.getByRole('row').filter({ has: page.getByRole('link', { name }) })
			await expect(row).toContainText(`${key.slice(0, 9)}…`)
			await expect(row).toContainText('https://partner.example')
			await expect(row).toContainText(listedOrigin)
			// The form is empty again for the next one.
			await expect(page.getByLabel(a('partners.name'))).toHaveValue('')

			// Shown once: the page again has the prefix only.
			await open(page, `/admin/partners?lng=${language}`, javaScriptEnabled)
			await expect(page.getByLabel(a('partners.issuedKey'))).toHaveCount(0)
			expect(await page.content()).not.toContain(key)

			// The partner's page: change the limit (refused out of bounds, beside the field), then revoke.
			await page.getByRole('link', { name }).click()
			await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
			await fillPartner(page, language, { limit: '99999' })
			await page.getByRole('button', { name: a('partners.editSubmit') }).click()
			await expect(page.getByText(a('partners.limitRange', { min: 10, max: 10000 }))).toBeVisible()
			await fillPartner(page, language, { name: `${name} (renamed)`, limit: '60' })
			await page.getByRole('button', { name: a('partners.editSubmit') }).click()
			await expectToast(page, a('partners.saved'))
			await expect(page.getByRole('heading', { level: 1, name: `${name} (renamed)` })).toBeVisible()
			await expect(page.locator('.admin-facts')).toContainText('60')
			await expect(page.getByRole('table')).toBeVisible()

			await page.getByRole('button', { name: a('partners.revokeSubmit') }).click()
			await expectToast(page, a('partners.revokedToast'))
			await expect(page.locator('.admin-facts')).toContainText(a('partners.revoked'))
			await expect(page.getByRole('button', { name: a('partners.editSubmit') })).toHaveCount(0)

			// Every change is in the audit log.
			await open(page, `/admin/audit?lng=${language}`, javaScriptEnabled)
			const audit = page.locator('.admin-audit tbody tr').filter({ hasText: name })
			await expect(audit.filter({ hasText: a('audit.actions.partner.create') })).toHaveCount(1)
			await expect(audit.filter({ hasText: a('audit.actions.partner.update') })).toHaveCount(1)
		})
	})
}

test.describe('the pages on a phone and a desktop', () => {
	test('fit 360 px, have no serious axe violation, and show a partner’s figures by day', async ({ page }) => {
		await loginAsAdmin(page)
		const problems: string[] = []
		for (const view of [
			{ language: 'et', width: 360, height: 780 },
			{ language: 'en', width: 1366, height: 900 },
		] as const) {
			const a = dictionary(view.language, 'admin')
			await page.setViewportSize({ width: view.width, height: view.height })
			await open(page, `/admin/partners?lng=${view.language}`, true)
			problems.push(...(await seriousAxeViolations(page)).map((text) => `/admin/partners ${view.width}: ${text}`))
			expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(view.width)
			await page.screenshot({ path: test.info().outputPath(`partners-${view.width}.png`), fullPage: true })

			await page.getByRole('link', { name: 'Autoklubi (demo)' }).click()
			await expect(page.getByRole('heading', { level: 2, name: a('partners.figuresTitle') })).toBeVisible()
			// Thirty days and the total, numbers as the reader writes them (the demo's days have views).
			const figures = page.locator('.partner-figures table')
			await expect(figures.locator('tbody tr')).toHaveCount(30)
			await expect(figures.getByRole('columnheader', { name: a('partners.kinds.widget-view') })).toBeVisible()
			await expect(figures.locator('tfoot th')).toHaveText(a('partners.total'))
			expect(Number((await figures.locator('tfoot td').first().textContent())!.replace(/\D/g, ''))).toBeGreaterThan(30 * 18)
			problems.push(...(await seriousAxeViolations(page)).map((text) => `/admin/partners/{id} ${view.width}: ${text}`))
			expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(view.width)
			await page.screenshot({ path: test.info().outputPath(`partner-${view.width}.png`), fullPage: true })
		}
		expect(problems).toEqual([])
	})
})

/**
 * A visitor of a partner's page, in a context of their own, as a real browser: no extra request
 * headers (they would ask for a preflight), and a browser's name, not the headless shell's (which
 * `isbot` knows, and which would not be counted).
 */
const VISITOR_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
async function partnerVisitor(browser: Browser, origin: string) {
	const context = await browser.newContext({ userAgent: VISITOR_AGENT })
	const page = await context.newPage()
	const ip = `10.251.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`
	await page.route(`${portal}/**`, (route) => route.continue({ headers: { ...route.request().headers(), 'x-forwarded-for': ip } }))
	await page.goto(origin)
	return { page, close: () => context.close() }
}

type Answer = { status: number; body: { status: number; message?: string; data?: { items: unknown[] } }; cacheControl: string | null; retryAfter: string | null }

/** A call of the API from the page, as the widgets make it: the key as ?partner= (a simple request), or in X-Partner-Key (a preflight). */
function callApi(page: Page, path: string, key: string, how: 'param' | 'header' = 'param'): Promise<Answer> {
	return page.evaluate(
		async ({ portal, path, key, how }) => {
			const url = new URL(`${portal}/admin/api${path}`)
			if (how === 'param') url.searchParams.set('partner', key)
			const response = await fetch(url, { credentials: 'omit', headers: how === 'header' ? { 'X-Partner-Key': key } : {} })
			return { status: response.status, body: await response.json(), cacheControl: response.headers.get('Cache-Control'), retryAfter: response.headers.get('Retry-After') }
		},
		{ portal, path, key, how },
	)
}

test('a partner’s page calls the API with its key from its own origin; another origin, a spent limit and a revoked key are refused', async ({ page, browser }) => {
	test.setTimeout(90_000)
	const w = dictionary('en', 'widgets')
	const a = dictionary('en', 'admin')
	await page.goto('/?lng=en')
	await loginAsAdmin(page)
	const name = `E2E keyed ${unique()}`
	const key = await issueKey(page, true, 'en', { name, origins: listedOrigin, limit: '10' })

	const partner = await partnerVisitor(browser, listedOrigin)
	const list = await callApi(partner.page, '/workshop-list?lng=en', key)
	expect(list.status).toBe(200)
	expect(list.body.data!.items.length).toBeGreaterThan(0)
	expect(list.cacheControl).toBe('private, no-cache')
	const filters = await callApi(partner.page, '/workshop-filters?lng=en', key, 'header')
	expect(filters.status).toBe(200)

	const stranger = await partnerVisitor(browser, otherOrigin)
	const refused = await callApi(stranger.page, '/workshop-list?lng=en', key)
	expect(refused).toMatchObject({ status: 403, body: { status: 403, message: w('partnerKey.wrongOrigin') } })
	await stranger.close()

	// Ten calls a minute: the ones left, then a 429 the page can read, with how long to wait.
	let over: Answer | undefined
	for (let n = 0; n < 10 && !over; n++) {
		const answer = await callApi(partner.page, `/workshop-list?lng=en&page=${n + 1}`, key)
		if (answer.status === 429) over = answer
		else expect(answer.status).toBe(200)
	}
	expect(over?.body).toEqual({ status: 429, message: w('partnerKey.tooMany', { seconds: Number(over?.retryAfter) }) })
	expect(Number(over?.retryAfter)).toBeGreaterThanOrEqual(1)

	// What the key brought reaches the partner's page (counts are written every 10 s).
	await page.getByRole('link', { name: a('partners.issuedOpen') }).click()
	await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
	const searches = page.locator('.partner-figures tfoot td').nth(1)
	await expect(async () => {
		await page.reload()
		expect(Number(await searches.textContent())).toBeGreaterThanOrEqual(1)
	}).toPass({ timeout: 30_000, intervals: [2_000] })

	await page.getByRole('button', { name: a('partners.revokeSubmit') }).click()
	await expectToast(page, a('partners.revokedToast'))
	const revoked = await callApi(partner.page, '/workshop-filters?lng=en', key)
	expect(revoked).toMatchObject({ status: 403, body: { status: 403, message: w('partnerKey.refused') } })
	// Without a key the partner's page is answered as ever.
	const keyless = await partner.page.evaluate(async (url) => (await fetch(url)).status, `${portal}/admin/api/workshop-filters?lng=en`)
	expect(keyless).toBe(200)
	await partner.close()
})
