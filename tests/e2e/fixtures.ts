import fs from 'node:fs'
import path from 'node:path'
import { test as base, expect, type Page } from '@playwright/test'

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
			// A navigation cancels the requests of the page it leaves; Remix then logs a network
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
				// Remix's lazy route discovery says so when a navigation cancels its manifest request.
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
		await page.waitForFunction(() => (window as unknown as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized)
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
	admin: { email: 'admin@example.com', password: 'demo12345', name: 'Admin Autohub' },
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
}

/**
 * Waits for an e-mail the portal really sent (through its outbox and SMTP) to the test
 * SMTP server that tests/e2e/serve.mjs runs beside it.
 */
export async function waitForEmail(match: { to: string; subject?: RegExp | string }, timeoutMs = 10_000): Promise<ReceivedEmail> {
	const port = process.env.E2E_PORT ?? '3210'
	const dir = path.join(process.cwd(), 'tests', '.tmp', `mail-${port}`)
	const deadline = Date.now() + timeoutMs
	while (Date.now() < deadline) {
		const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().reverse() : []
		for (const file of files) {
			const mail = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as ReceivedEmail
			const subjectMatches =
				match.subject === undefined || (typeof match.subject === 'string' ? mail.subject === match.subject : match.subject.test(mail.subject))
			if (mail.to.includes(match.to.toLowerCase()) && subjectMatches) return mail
		}
		await new Promise((resolve) => setTimeout(resolve, 200))
	}
	throw new Error(`no e-mail to ${match.to} arrived within ${timeoutMs} ms`)
}

export { expect }
