import { type APIRequestContext, type Browser, type Page } from '@playwright/test'
import { demo, dictionary, expect, expectToast, javaScriptModes, login, loginAsAdmin, loginAsAdminOverHttp, open, test, uniqueEmail } from './fixtures'

const en = dictionary('en', 'admin')
const et = dictionary('et', 'admin')
const enAuth = dictionary('en', 'auth')
const etAuth = dictionary('et', 'auth')

const randomIp = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`

/** A context of its own (another person's browser), JavaScript off. */
async function otherBrowser(browser: Browser) {
	const context = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders: { 'X-Forwarded-For': randomIp() } })
	return { context, page: await context.newPage() }
}

/** Registers a fresh account through the form (English), as a customer or a workshop. */
async function register(page: Page, email: string, role: 'customer' | 'workshop', password = 'salajane1') {
	await page.goto(`/register?lng=en${role === 'workshop' ? '&role=workshop' : ''}`)
	if (role === 'workshop') {
		await page.getByLabel(enAuth('register.workshopName')).fill(`Admin Test ${email.slice(0, 12)}`)
		await page.getByLabel(enAuth('register.companyName')).fill('Admin Test OÜ')
		await page.getByLabel(enAuth('register.companyId')).fill('1029384756')
	}
	await page.getByLabel(enAuth('register.firstName')).fill('Anu')
	await page.getByLabel(enAuth('register.lastName')).fill('Lepik')
	await page.getByLabel(enAuth('register.mobile')).fill('+372 5123 9999')
	await page.getByLabel(enAuth('register.email')).fill(email)
	await page.getByLabel(enAuth('register.password'), { exact: true }).fill(password)
	await page.getByLabel(enAuth('register.confirmPassword')).fill(password)
	await page.getByRole('button', { name: enAuth(role === 'workshop' ? 'register.submitWorkshop' : 'register.submitCustomer') }).click()
	// Registered is logged in (decision 0121).
	await expect(page).toHaveURL(/\/dashboard$/)
}

/** The administrator opens a user's page from the search. */
async function openUser(page: Page, email: string, javaScriptEnabled = false) {
	await open(page, `/admin/users?q=${encodeURIComponent(email)}`, javaScriptEnabled)
	await page.getByRole('link', { name: /Anu Lepik|Admin Test/ }).first().click()
	await expect(page.locator('.admin-facts')).toContainText(email)
}

test.describe('the administration area with JavaScript off', () => {
	test.use({ javaScriptEnabled: false })

	test('the administrator blocks a customer, whose session ends and whose login is refused; then unblocks', async ({ page, browser }) => {
		const email = uniqueEmail('blockme')
		const customer = await otherBrowser(browser)
		await register(customer.page, email, 'customer')

		await page.goto('/?lng=en')
		await loginAsAdmin(page)
		await page.locator('.side-menu').getByRole('link', { name: dictionary('en', 'account')('menu.admin') }).click()
		await expect(page).toHaveURL(/\/admin$/)
		await page.locator('.admin-nav').getByRole('link', { name: en('nav.users') }).click()
		await openUser(page, email)
		// The audit log names the user by id: the page's slug is its base64url form.
		const userId = Buffer.from(new URL(page.url()).pathname.split('/').pop()!, 'base64url').toString()
		await page.getByRole('button', { name: en('user.block') }).click()
		await expectToast(page, en('user.blockedToast'))
		await expect(page.locator('.admin-facts')).toContainText(en('users.blocked'))

		// The customer's open session has ended: the next page asks to log in.
		await customer.page.goto('/dashboard?lng=en')
		await expect(customer.page).toHaveURL(/\/\?redirectTo=%2Fdashboard$/)
		await expectToast(customer.page, enAuth('guard.loginRequired'))
		await customer.page.goto('/login')
		await customer.page.getByLabel(enAuth('login.email')).fill(email)
		await customer.page.getByLabel(enAuth('login.password')).fill('salajane1')
		await customer.page.getByRole('button', { name: enAuth('login.submit') }).click()
		await expect(customer.page.getByText('Your account is blocked. Please contact the admin.')).toBeVisible()

		await page.getByRole('button', { name: en('user.unblock') }).click()
		await expectToast(page, en('user.unblockedToast'))
		await login(customer.page, email, 'salajane1')

		// Both changes are in the audit log.
		await page.locator('.admin-nav').getByRole('link', { name: en('nav.audit') }).click()
		// Other tests write to the log at the same time: this user's rows, newest first.
		// Their sign-ins are in the log too (issue 36): the administrator's changes, newest first.
		const rows = page.locator('.admin-audit tbody tr').filter({ hasText: userId }).filter({ hasNotText: en('audit.actions.user.signIn') })
		await expect(rows.first()).toContainText(en('audit.actions.user.unblock'))
		await expect(rows.nth(1)).toContainText(en('audit.actions.user.block'))
		await customer.context.close()
	})

})

for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`customer-service fields with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		test(`the administrator changes a workshop's company ID and a user's e-mail (Estonian, JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({ page, browser }) => {
			const email = uniqueEmail('garage')
			const workshop = await otherBrowser(browser)
			await register(workshop.page, email, 'workshop')
			await workshop.context.close()

			await page.goto('/?lng=et')
			await loginAsAdmin(page)
			await openUser(page, email, javaScriptEnabled)
			// An 8-digit registry code with a wrong check digit is refused; the right one is saved (decision 0120).
			await page.getByLabel(et('user.companyId')).fill('10060702')
			await page.getByRole('button', { name: et('user.companySubmit') }).click()
			await expect(page.getByText(dictionary('et')('validation.companyId'))).toBeVisible()
			await page.getByLabel(et('user.companyId')).fill('10060701')
			await page.getByRole('button', { name: et('user.companySubmit') }).click()
			await expectToast(page, et('user.companySaved'))
			await expect(page.getByLabel(et('user.companyId'))).toHaveValue('10060701')

			// An address that is taken is refused; a new one is saved.
			await page.getByRole('textbox', { name: et('user.newEmail') }).fill(demo.customer.email)
			await page.getByRole('button', { name: et('user.emailSubmit') }).click()
			await expect(page.getByText(etAuth('register.emailTaken'))).toBeVisible()
			const moved = uniqueEmail('moved')
			await page.getByRole('textbox', { name: et('user.newEmail') }).fill(moved)
			await page.getByRole('button', { name: et('user.emailSubmit') }).click()
			await expectToast(page, et('user.emailSaved'))
			await expect(page.locator('.admin-facts')).toContainText(moved)
		})
	})
}

test.describe('every admin page with JavaScript on', () => {
	test('opens without browser errors in three languages', async ({ page }) => {
		test.setTimeout(90_000)
		await page.goto('/?lng=en')
		await loginAsAdmin(page)
		const paths = ['/admin', '/admin/users', '/admin/messages?show=all', '/admin/content', '/admin/content/about-us/ru', '/admin/settings', '/admin/ads', '/admin/ads/new', '/admin/packages', '/admin/lists?list=carBrands', '/admin/audit', '/admin/emails']
		for (const [index, path] of paths.entries()) {
			const language = (['et', 'en', 'ru'] as const)[index % 3]
			await open(page, `${path}${path.includes('?') ? '&' : '?'}lng=${language}`, true)
			await expect(page.locator('.admin-nav')).toBeVisible()
			await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
		}
		// A client-side navigation inside the area, from a page in English.
		await open(page, '/admin/audit?lng=en', true)
		await page.locator('.admin-nav').getByRole('link', { name: en('nav.users') }).click()
		await expect(page).toHaveURL(/\/admin\/users$/)
		await page.getByLabel(en('users.search')).fill(demo.workshop.email)
		await page.getByRole('button', { name: en('users.searchSubmit') }).click()
		await expect(page.locator('.admin-table-wrap')).toContainText(demo.workshop.email)
	})
})

test.describe('site content with JavaScript off', () => {
	test.use({ javaScriptEnabled: false })

	test('the administrator edits the Estonian about page and sees it live; the text is restored', async ({ page }) => {
		await page.goto('/?lng=et')
		await loginAsAdmin(page)
		await page.goto('/admin/content')
		await page.getByRole('link', { name: `${et('content.slugs.about-us')}: ${dictionary('et')('language.et')}` }).click()
		await expect(page).toHaveURL(/\/admin\/content\/about-us\/et$/)
		const title = page.getByLabel(et('content.pageTitle'))
		const body = page.getByLabel(et('content.body'))
		const original = { title: await title.inputValue(), body: await body.inputValue() }
		try {
			await title.fill('Meist – uuendatud')
			await body.fill('<p>Oleme <strong>uuendatud</strong> tekst.</p><script>alert(1)</script>')
			await page.getByRole('button', { name: et('content.submit') }).click()
			await expectToast(page, et('content.saved'))

			await page.goto('/about?lng=et')
			await expect(page.getByRole('heading', { level: 1 })).toHaveText('Meist – uuendatud')
			await expect(page.locator('main')).toContainText('Oleme uuendatud tekst.')
			expect(await page.locator('main script').count()).toBe(0)
		} finally {
			await page.goto('/admin/content/about-us/et')
			await page.getByLabel(et('content.pageTitle')).fill(original.title)
			await page.getByLabel(et('content.body')).fill(original.body)
			await page.getByRole('button', { name: et('content.submit') }).click()
			await expectToast(page, et('content.saved'))
		}
		await page.goto('/about?lng=et')
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(original.title)
	})
})

/** Logs an HTTP client in through the real form and returns a CSRF token of its session. */
async function signIn(request: APIRequestContext, email: string, password: string) {
	const loginPage = await (await request.get('/login?lng=en')).text()
	const csrf = /name="csrf" value="([^"]+)"/.exec(loginPage)![1]!
	const response = await request.post('/login', { form: { csrf, email, password }, maxRedirects: 0 })
	expect(response.headers()['location']).toBe('/dashboard')
	const settings = await (await request.get('/settings')).text()
	return /name="csrf" value="([^"]+)"/.exec(settings)![1]!
}

test.describe('the guard of the administration area', () => {
	test('customers, workshops and an administrator signed in by a password alone get no admin page and no admin action; nothing changes', async ({ playwright, baseURL }) => {
		const noPermission = enAuth('guard.noPermission')
		// The administrator finds real ids, so the refused actions aim at something that exists.
		const adminClient = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': randomIp() } })
		await loginAsAdminOverHttp(adminClient)
		const users = await (await adminClient.get(`/admin/users?q=${encodeURIComponent(demo.customer.email)}`)).text()
		const customerSlug = /href="\/admin\/users\/([A-Za-z0-9_-]+)"/.exec(users)![1]!
		const ads = await (await adminClient.get('/admin/ads')).text()
		const adSlug = /href="\/admin\/ads\/([A-Za-z0-9_-]{10,})"/.exec(ads)![1]!

		const pages = [
			'/admin',
			'/admin/users',
			`/admin/users/${customerSlug}`,
			'/admin/messages',
			'/admin/content',
			'/admin/content/about-us/et',
			'/admin/settings',
			'/admin/ads',
			'/admin/ads/new',
			`/admin/ads/${adSlug}`,
			'/admin/packages',
			'/admin/lists',
			'/admin/audit',
			'/admin/emails',
			'/admin/emails/preview/newOffer/et',
		]
		const actions: Array<[string, Record<string, string>]> = [
			[`/admin/users/${customerSlug}`, { intent: 'block' }],
			[`/admin/users/${customerSlug}`, { intent: 'email', email: uniqueEmail('stolen') }],
			['/admin/content/about-us/et', { title: 'Hacked', bodyHtml: '<p>Hacked</p>' }],
			['/admin/settings', { appname: 'Hacked', siteEmail: 'x@example.com', vatRate: '1' }],
			[`/admin/ads/${adSlug}`, { intent: 'delete' }],
			['/admin/lists', { list: 'cities', item: 'new', code: 'hacked', nameEt: 'H', nameEn: 'H', nameRu: 'H' }],
			['/admin/messages', { message: customerSlug }],
		]
		for (const account of [demo.customer, demo.workshop]) {
			const client = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': randomIp() } })
			const csrf = await signIn(client, account.email, account.password)
			for (const path of pages) {
				const response = await client.get(path, { maxRedirects: 0 })
				expect(response.status(), `${account.email} GET ${path}`).toBe(302)
				expect(response.headers()['location'], path).toBe('/dashboard')
				expect(await (await client.get('/dashboard')).text(), path).toContain(noPermission)
			}
			for (const [path, form] of actions) {
				const response = await client.post(path, { form: { csrf, ...form }, maxRedirects: 0 })
				expect(response.status(), `${account.email} POST ${path}`).toBe(302)
				expect(response.headers()['location'], path).toBe('/dashboard')
				expect(await (await client.get('/dashboard')).text(), path).toContain(noPermission)
			}
			await client.dispose()
		}
		// The administrator's own password alone (decision 0156): every page and action leads to the
		// step-up page, which comes back to the page asked for (a form's page, never the form sent again).
		const passwordOnly = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': randomIp() } })
		const csrf = await signIn(passwordOnly, demo.admin.email, demo.admin.password)
		for (const path of pages) {
			const response = await passwordOnly.get(path, { maxRedirects: 0 })
			expect(response.status(), `password alone: GET ${path}`).toBe(302)
			expect(response.headers()['location'], path).toBe(`/admin/verify?redirectTo=${encodeURIComponent(path)}`)
		}
		for (const [path, form] of actions) {
			const response = await passwordOnly.post(path, { form: { csrf, ...form }, maxRedirects: 0 })
			expect(response.status(), `password alone: POST ${path}`).toBe(302)
			expect(response.headers()['location'], path).toBe(`/admin/verify?redirectTo=${encodeURIComponent(path)}`)
		}
		const stepUp = await passwordOnly.get('/admin/verify?lng=en')
		expect(stepUp.status()).toBe(200)
		expect(await stepUp.text()).toContain(enAuth('stepUp.lead'))
		await passwordOnly.dispose()

		// Nothing changed: the customer still logs in, the ad, the page, the settings and the list are as they were.
		const check = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': randomIp() } })
		await signIn(check, demo.customer.email, demo.customer.password)
		await check.dispose()
		expect((await adminClient.get(`/admin/ads/${adSlug}`, { maxRedirects: 0 })).status()).toBe(200)
		expect(await (await adminClient.get('/admin/content/about-us/et')).text()).not.toContain('Hacked')
		expect(await (await adminClient.get('/admin/settings')).text()).not.toContain('value="Hacked"')
		expect(await (await adminClient.get('/admin/lists?list=cities')).text()).not.toContain('value="hacked"')
		await adminClient.dispose()
	})
})
