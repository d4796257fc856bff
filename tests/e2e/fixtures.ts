import fs from 'node:fs'
import path from 'node:path'
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test'

type Dictionary = { [key: string]: string | Dictionary }

/** The dictionaries, so tests assert the texts a reader of each language sees. */
export function dictionary(language: 'et' | 'en' | 'ru', namespace = 'common') {
	const file = path.join(process.cwd(), 'locales', language, `${namespace}.json`)
	const data = JSON.parse(fs.readFileSync(file, 'utf8')) as Dictionary
	/** The text of `key`, its {{placeholders}} filled from `params` when given. */
	return (key: string, params?: Record<string, string | number>) => {
		const value = key.split('.').reduce<string | Dictionary | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), data)
		if (typeof value !== 'string') throw new Error(`no text for ${language}:${key}`)
		// `{{jobs, number}}`: a number the page formats (below 1,000 it reads the same in every language).
		return params ? value.replace(/\{\{\s*(\w+)\s*(?:,\s*number\s*)?\}\}/g, (_, name: string) => String(params[name])) : value
	}
}

/**
 * The JavaScript modes each flow runs in: both, unless E2E_JAVASCRIPT names one. CI's two passes
 * split them (docs/decisions/0088): the embedded pass runs each flow with JavaScript, the PostgreSQL
 * pass without. The server's part of a flow, which is all a database changes, is the same in both
 * modes, and the browser's part does not depend on the database; so each flow meets each database
 * and each mode, and CI stays short.
 */
const chosenMode = process.env.E2E_JAVASCRIPT
if (chosenMode && chosenMode !== 'on' && chosenMode !== 'off') throw new Error(`E2E_JAVASCRIPT is "on", "off" or unset, not "${chosenMode}"`)
export const javaScriptModes: readonly boolean[] = chosenMode === 'on' ? [true] : chosenMode === 'off' ? [false] : [false, true]

const randomIp = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`

/**
 * Every page test fails on a browser error, a hydration mismatch or a CSP violation, which a
 * reader would not see but which breaks the page. Each test also comes from its own address
 * (the test server trusts X-Forwarded-For from loopback), so rate limits do not spill over.
 */
export const test = base.extend<{ pageProblems: string[] }>({
	context: async ({ context }, use) => {
		await context.setExtraHTTPHeaders({ 'X-Forwarded-For': randomIp() })
		await use(context)
	},
	request: async ({ playwright, baseURL }, use) => {
		const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': randomIp() } })
		await use(request)
		await request.dispose()
	},
	pageProblems: [
		async ({ page }, use) => {
			const problems: string[] = []
			// A navigation cancels the requests of the page it leaves; React Router then logs a network
			// error. That is the test moving on, not a broken page: forgive it for a second.
			let navigatedAt = 0
			page.on('request', (request) => {
				if (request.isNavigationRequest()) navigatedAt = Date.now()
			})
			page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
			page.on('console', (message) => {
				const text = message.text()
				if (/network error|Failed to fetch/i.test(text) && Date.now() - navigatedAt < 1000) return
				// A form refused with 4xx is expected; Chrome still logs the status.
				if (/Failed to load resource: the server responded with a status of 4\d\d/.test(text)) return
				// React Router's lazy route discovery says so when a navigation cancels its manifest request.
				if (/Failed to fetch manifest patches/.test(text)) return
				if (message.type() === 'error' || /Content Security Policy|did not match|hydrat/i.test(text)) {
					problems.push(`console ${message.type()}: ${text}`)
				}
			})
			await use(problems)
			expect(problems, 'browser problems on the page').toEqual([])
		},
		{ auto: true },
	],
})

/**
 * Opens a page and, with JavaScript on, waits until React has hydrated it and the router is
 * done with its own requests, as a person would before clicking. A click before that is an
 * ordinary page load, which cancels the router's pending requests and makes it log an error that
 * has nothing to do with the page under test.
 */
export async function open(page: Page, url: string, javaScriptEnabled: boolean) {
	const response = await page.goto(url)
	if (javaScriptEnabled) {
		await page.waitForFunction(() => (window as unknown as { __reactRouterDataRouter?: { state: { initialized: boolean } } }).__reactRouterDataRouter?.state.initialized)
		// After hydration the router asks the server about the routes of the links on the page;
		// leaving the page in the middle of that cancels it and the router logs an error.
		await page.waitForLoadState('networkidle')
	}
	return response
}

/** A message the user sees after a redirect: a toast with JavaScript, the server's flash without. */
export async function expectToast(page: Page, text: string, options: { timeout?: number } = {}) {
	await expect(page.locator('.Toastify__toast, .flash').filter({ hasText: text }).first()).toBeVisible(options)
}

/** Logs in through the form and waits for the dashboard. */
export async function login(page: Page, email: string, password: string) {
	await page.goto('/login')
	await page.locator('input[name="email"]').fill(email)
	await page.locator('input[name="password"]').fill(password)
	await page.locator('main form button[type="submit"]').click()
	await page.waitForURL('**/dashboard')
}

export const demo = {
	customer: { email: 'customer@example.com', password: 'demo12345', name: 'Mari Tamm' },
	workshop: { email: 'workshop@example.com', password: 'demo12345', name: 'Kask Autoteenindus' },
	/**
	 * The demo administrator. The demo data links its eID when eID is configured (serve.mjs starts
	 * the tests' provider): `eid` is what to type on the provider's page, its names as the account's
	 * own so that signing in changes nothing (app/db/seed/demo-data.server.ts, DEMO_ADMIN_EID).
	 */
	admin: { email: 'admin@example.com', password: 'demo12345', name: 'Admin Autohub', eid: { code: '60001019906', given: 'ADMIN', family: 'AUTOHUB' } },
}

/** On the tests' eID provider's page (TARA-shaped, tests/support/openid-provider.mjs): signs in as this person. */
export async function signInAtEidProvider(page: Page, who: { code: string; given?: string; family?: string; answer?: string }) {
	await expect(page.getByRole('heading', { name: 'Test eID (TARA)' })).toBeVisible()
	await page.getByLabel('Personal code').fill(who.code)
	if (who.given) await page.getByLabel('Given name').fill(who.given)
	if (who.family) await page.getByLabel('Family name').fill(who.family)
	if (who.answer) await page.getByLabel('Answer').selectOption(who.answer)
	await page.getByRole('button', { name: 'Sign in' }).click()
}

/**
 * Signs in as the demo administrator as every administrator must (decision 0156): the password,
 * then the second factor on the step-up page through the tests' eID provider. Works with
 * JavaScript on and off; ends on `to` (default /admin). Use it wherever a test acts as the
 * administrator: the password alone (`login`) no longer reaches /admin.
 */
export async function loginAsAdmin(page: Page, options: { to?: string } = {}) {
	await login(page, demo.admin.email, demo.admin.password)
	await confirmAsAdmin(page, options)
}

/** The step-up of a signed-in administrator's page through the tests' eID provider; ends on `to` (default /admin). */
export async function confirmAsAdmin(page: Page, { to = '/admin' }: { to?: string } = {}) {
	await page.goto(`/admin/verify?redirectTo=${encodeURIComponent(to)}`)
	await page.getByTestId('eid-button').click()
	await signInAtEidProvider(page, demo.admin.eid)
	const [pathname, search = ''] = to.split('?')
	await page.waitForURL((url) => url.pathname === pathname && (!search || url.search.includes(search)))
}

/**
 * `loginAsAdmin` for an HTTP client without a browser (Playwright's request context, cookies
 * kept): the login form with the password, then the eID step-up through the tests' provider.
 * Answers the CSRF token of the administrator's pages.
 */
export async function loginAsAdminOverHttp(request: APIRequestContext): Promise<string> {
	const loginPage = await (await request.get('/login?lng=en')).text()
	const csrf = /name="csrf" value="([^"]+)"/.exec(loginPage)![1]!
	const signedIn = await request.post('/login', { form: { csrf, email: demo.admin.email, password: demo.admin.password }, maxRedirects: 0 })
	expect(signedIn.headers()['location']).toBe('/dashboard')
	// The start redirects to the provider, whose sign-in page is where this lands.
	const atProvider = await request.get('/eid/start?purpose=confirm&redirectTo=%2Fadmin')
	const { code, given, family } = demo.admin.eid
	const confirmed = await request.post(atProvider.url(), {
		form: { code, given_name: given, family_name: family, method: 'smartid', acr: 'high', answer: 'normal', action: 'login' },
	})
	expect(new URL(confirmed.url()).pathname).toBe('/admin')
	return /name="csrf" value="([^"]+)"/.exec(await confirmed.text())![1]!
}

export const uniqueEmail = (prefix: string) => `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`

export type ReceivedEmail = {
	to: string[]
	subject: string
	text: string
	html: string
	/** Header names in lower case. */
	headers: Record<string, string>
	attachments: Array<{ filename: string | null; mimeType: string }>
	/** When the test SMTP server took it (ISO time). */
	receivedAt: string
}

/**
 * Waits for an e-mail the portal really sent (through its outbox and SMTP) to the test
 * SMTP server that tests/e2e/serve.mjs runs beside it.
 */
export async function waitForEmail(match: { to: string; subject?: RegExp | string; since?: Date }, timeoutMs = 10_000): Promise<ReceivedEmail> {
	const port = process.env.E2E_PORT ?? '3210'
	const dir = path.join(process.cwd(), 'tests', '.tmp', `mail-${port}`)
	const deadline = Date.now() + timeoutMs
	while (Date.now() < deadline) {
		const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().reverse() : []
		for (const file of files) {
			const mail = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as ReceivedEmail
			const subjectMatches =
				match.subject === undefined || (typeof match.subject === 'string' ? mail.subject === match.subject : match.subject.test(mail.subject))
			// `since`: only one that arrived after it (another test may have sent the same kind to the same address before).
			const recent = !match.since || new Date(mail.receivedAt) >= match.since
			if (mail.to.includes(match.to.toLowerCase()) && subjectMatches && recent) return mail
		}
		await new Promise((resolve) => setTimeout(resolve, 200))
	}
	throw new Error(`no e-mail to ${match.to} arrived within ${timeoutMs} ms`)
}

export { expect }
