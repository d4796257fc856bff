import { type APIRequestContext } from '@playwright/test'
import { bothRoles as both, customerOnly, workshopOnly } from '../support/spec-routes'
import { demo, dictionary, expect, expectToast, javaScriptModes, login, test } from './fixtures'

const en = dictionary('en', 'auth')
const loginRequired = en('guard.loginRequired')
const noPermission = en('guard.noPermission')

/** Logs an HTTP client in through the real form (CSRF token and all), in English. */
async function signIn(request: APIRequestContext, email: string, password: string) {
	const page = await (await request.get('/login?lng=en')).text()
	const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!
	const response = await request.post('/login', { form: { csrf, email, password }, maxRedirects: 0 })
	expect(response.status()).toBe(302)
	expect(response.headers()['location']).toBe('/dashboard')
	await request.get('/dashboard')
}

/** Opens a path without following redirects; if redirected, opens the target and returns its HTML. */
async function visit(request: APIRequestContext, path: string) {
	const response = await request.get(path, { maxRedirects: 0 })
	const location = response.headers()['location']
	const landing = location ? await (await request.get(location)).text() : await response.text()
	return { status: response.status(), location, landing }
}

test.describe('the route guard of spec §6, on every route of spec §2', () => {
	test('an anonymous visitor is sent home with "Please log in to continue."', async ({ request }) => {
		await request.get('/?lng=en')
		for (const path of [...both, ...workshopOnly, ...customerOnly]) {
			const { status, location, landing } = await visit(request, path)
			expect(status, path).toBe(302)
			// Home, remembering the page: logging in from there leads back to it.
			expect(location, path).toBe(`/?redirectTo=${encodeURIComponent(path)}`)
			expect(landing, path).toContain(loginRequired)
		}
	})

	test('a customer is kept out of workshop pages with "You do not have permission."', async ({ request }) => {
		await signIn(request, demo.customer.email, demo.customer.password)
		for (const path of workshopOnly) {
			const { status, location, landing } = await visit(request, path)
			expect(status, path).toBe(302)
			expect(location, path).toBe('/dashboard')
			expect(landing, path).toContain(noPermission)
		}
		for (const path of [...both, ...customerOnly]) {
			const { location, landing } = await visit(request, path)
			expect(location, path).not.toBe('/dashboard')
			expect(landing, path).not.toContain(noPermission)
			expect(landing, path).not.toContain(loginRequired)
		}
	})

	test('a workshop is kept out of customer pages with "You do not have permission."; a vehicle\'s pages are not found', async ({ request }) => {
		await signIn(request, demo.workshop.email, demo.workshop.password)
		// A vehicle is its owner's alone (issue 20): its pages answer as for a vehicle that does not exist.
		const vehiclePages = customerOnly.filter((path) => /^\/(vehicle-details|edit-vehicle)\//.test(path))
		expect(vehiclePages).toHaveLength(2)
		for (const path of customerOnly) {
			const { status, location, landing } = await visit(request, path)
			if (vehiclePages.includes(path)) {
				expect(status, path).toBe(404)
				continue
			}
			expect(status, path).toBe(302)
			expect(location, path).toBe('/dashboard')
			expect(landing, path).toContain(noPermission)
		}
		for (const path of [...both, ...workshopOnly]) {
			const { location, landing } = await visit(request, path)
			expect(location, path).not.toBe('/dashboard')
			expect(landing, path).not.toContain(noPermission)
		}
	})

	test('the pages for both roles open for both', async ({ request }) => {
		await signIn(request, demo.customer.email, demo.customer.password)
		for (const path of both) expect((await request.get(path, { maxRedirects: 0 })).status(), path).toBe(200)
	})

	test('form actions are guarded too, not only pages', async ({ request }) => {
		await request.get('/?lng=en')
		const page = await (await request.get('/login')).text()
		const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!
		const response = await request.post('/profile', { form: { csrf, firstName: 'Hacker', lastName: 'Hacker', mobile: '+372 5000 0000' }, maxRedirects: 0 })
		expect(response.status()).toBe(302)
		expect(response.headers()['location']).toBe('/')
	})
})

for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`the guard's warnings in the browser with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		test('anonymous: home with the warning; wrong role: dashboard with the warning', async ({ page }) => {
			await page.goto('/?lng=en')
			await page.goto('/my-vehicle')
			await expect(page).toHaveURL(/\/\?redirectTo=%2Fmy-vehicle$/)
			await expectToast(page, loginRequired)

			await login(page, demo.customer.email, demo.customer.password)
			await page.goto('/subscription')
			await expect(page).toHaveURL(/\/dashboard$/)
			await expectToast(page, noPermission)
		})
	})
}
