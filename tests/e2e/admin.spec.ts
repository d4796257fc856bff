import { type Browser, type Page } from '@playwright/test'
import { demo, dictionary, expect, expectToast, login, test, uniqueEmail } from './fixtures'

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
	await expect(page).toHaveURL(/\/login$/)
}

/** The administrator opens a user's page from the search. */
async function openUser(page: Page, email: string) {
	await page.goto(`/admin/users?q=${encodeURIComponent(email)}`)
	await page.getByRole('link', { name: /Anu Lepik|Admin Test/ }).first().click()
	await expect(page.locator('.admin-facts')).toContainText(email)
}

test.describe('the administration area with JavaScript off', () => {
	test.use({ javaScriptEnabled: false })

	test('the administrator blocks a customer, whose session ends and whose login is refused; then unblocks', async ({ page, browser }) => {
		const email = uniqueEmail('blockme')
		const customer = await otherBrowser(browser)
		await register(customer.page, email, 'customer')
		await login(customer.page, email, 'salajane1')

		await page.goto('/?lng=en')
		await login(page, demo.admin.email, demo.admin.password)
		await page.getByRole('link', { name: dictionary('en', 'account')('menu.admin') }).click()
		await expect(page).toHaveURL(/\/admin$/)
		await page.locator('.admin-nav').getByRole('link', { name: en('nav.users') }).click()
		await openUser(page, email)
		await page.getByRole('button', { name: en('user.block') }).click()
		await expectToast(page, en('user.blockedToast'))
		await expect(page.locator('.admin-facts')).toContainText(en('users.blocked'))

		// The customer's open session has ended: the next page asks to log in.
		await customer.page.goto('/dashboard?lng=en')
		await expect(customer.page).toHaveURL(/\/$/)
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
		await expect(page.locator('.admin-audit tbody tr').first()).toContainText(en('audit.actions.user.unblock'))
		await expect(page.locator('.admin-audit tbody tr').nth(1)).toContainText(en('audit.actions.user.block'))
		await customer.context.close()
	})

	test("the administrator changes a workshop's company ID and a user's e-mail (Estonian)", async ({ page, browser }) => {
		const email = uniqueEmail('garage')
		const workshop = await otherBrowser(browser)
		await register(workshop.page, email, 'workshop')
		await workshop.context.close()

		await page.goto('/?lng=et')
		await login(page, demo.admin.email, demo.admin.password)
		await openUser(page, email)
		await page.getByLabel(et('user.companyId')).fill('12345')
		await page.getByRole('button', { name: et('user.companySubmit') }).click()
		await expect(page.getByText(dictionary('et')('validation.companyId'))).toBeVisible()
		await page.getByLabel(et('user.companyId')).fill('5566778899')
		await page.getByRole('button', { name: et('user.companySubmit') }).click()
		await expectToast(page, et('user.companySaved'))
		await expect(page.getByLabel(et('user.companyId'))).toHaveValue('5566778899')

		// An address that is taken is refused; a new one is saved.
		await page.getByLabel(et('user.newEmail')).fill(demo.customer.email)
		await page.getByRole('button', { name: et('user.emailSubmit') }).click()
		await expect(page.getByText(etAuth('register.emailTaken'))).toBeVisible()
		const moved = uniqueEmail('moved')
		await page.getByLabel(et('user.newEmail')).fill(moved)
		await page.getByRole('button', { name: et('user.emailSubmit') }).click()
		await expectToast(page, et('user.emailSaved'))
		await expect(page.locator('.admin-facts')).toContainText(moved)
	})
})
