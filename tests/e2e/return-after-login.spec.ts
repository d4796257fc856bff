import { type Page } from '@playwright/test'
import { demo, dictionary, expect, expectToast, javaScriptModes, open, test, uniqueEmail } from './fixtures'
import { fillRegistration } from './people'

const enAuth = dictionary('en', 'auth')
const enPublic = dictionary('en', 'public')
const enCustomer = dictionary('en', 'customer')

async function logIn(page: Page, email: string, password: string) {
	await page.getByLabel(enAuth('login.email')).fill(email)
	await page.getByLabel(enAuth('login.password')).fill(password)
	await page.getByRole('button', { name: enAuth('login.submit') }).click()
}

for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`back where one was going, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		test('a visitor asking a workshop for an offer logs in and sends the request to that workshop only', async ({ page }) => {
			await open(page, '/workshop-list?lng=en', javaScriptEnabled)
			const card = page.locator('.workshop-card').first()
			const name = (await card.locator('h2, h3').first().innerText()).trim()
			await card.locator('a').first().click()
			await page.getByRole('link', { name: enPublic('workshop.askOffer') }).click()
			await expect(page).toHaveURL(/\/login\?redirectTo=/)
			// The login page says whom the request is for.
			await expect(page.locator('.auth').getByRole('note')).toContainText(enAuth('askFor.title').replace('{{workshop}}', name))
			await logIn(page, demo.customer.email, demo.customer.password)
			await expect(page).toHaveURL(/\/new-service-register\?workshop=/)
			await expect(page.getByRole('heading', { level: 1 })).toHaveText(enCustomer('request.newTitle'))
			await expect(page.locator('.addressed')).toContainText(enCustomer('request.addressedTo').replace('{{workshop}}', name))

			// Only that workshop: the customer unticks the others, and a mistake keeps the choice (the
			// server's answer without JavaScript; with it the browser finds the mistake and nothing is sent).
			const others = page.getByLabel(enCustomer('request.alsoOthers'))
			await expect(others).toBeChecked()
			await others.uncheck()
			await page.getByRole('combobox', { name: enCustomer('request.vehicle') }).selectOption({ index: 1 })
			await page.getByRole('group', { name: enCustomer('request.services') }).getByRole('checkbox').first().check()
			await page.getByLabel(enCustomer('request.location')).fill('Kesklinn')
			await page.getByRole('button', { name: enCustomer('request.submit') }).click()
			await expect(page.getByText(dictionary('en')('validation.required')).first()).toBeVisible()
			await expect(page.locator('.addressed')).toContainText(name)
			await expect(others).not.toBeChecked()

			const when = new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString().slice(0, 10)
			await page.getByLabel(enCustomer('request.preferredAt')).fill(`${when}T10:00`)
			await page.getByLabel(enCustomer('request.details')).fill('Please look at the brakes.')
			await page.getByRole('button', { name: enCustomer('request.submit') }).click()
			await expect(page).toHaveURL(/\/request-details\//)
			await expectToast(page, enCustomer('request.created'))
		})

		test('a new visitor registers on the way and is led on to the request form, logged in at once', async ({ page }) => {
			const email = uniqueEmail('tee')
			await open(page, '/login?lng=en&redirectTo=%2Fnew-service-register', javaScriptEnabled)
			// No workshop on the way: no note.
			await expect(page.locator('.auth').getByRole('note')).toHaveCount(0)
			await page.locator('.auth__switch').getByRole('link').click()
			await expect(page).toHaveURL(/\/register\?redirectTo=/)
			await fillRegistration(page, 'customer', email, { first: 'Tiina', last: 'Tee' })
			await expect(page).toHaveURL(/\/new-service-register$/)
			await expectToast(page, enAuth('register.success'))
		})

		test('a page that needs a login sends the visitor home, and the header’s Log in leads back to it', async ({ page }) => {
			await page.goto('/?lng=en')
			await page.goto('/my-vehicle')
			await expect(page).toHaveURL(/\/\?redirectTo=%2Fmy-vehicle$/)
			await expectToast(page, enAuth('guard.loginRequired'))
			await page.locator('.site-header').getByRole('link', { name: dictionary('en')('nav.login'), exact: true }).click()
			await logIn(page, demo.customer.email, demo.customer.password)
			await expect(page).toHaveURL(/\/my-vehicle$/)
		})

		test('a way back the user’s role may not open leads to the dashboard, not to a refusal', async ({ page }) => {
			await open(page, `/login?lng=en&redirectTo=${encodeURIComponent('/new-service-register')}`, javaScriptEnabled)
			await logIn(page, demo.workshop.email, demo.workshop.password)
			await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/dashboard$/)
			await expectToast(page, enAuth('login.success'))
			await expect(page.getByText(enAuth('guard.noPermission'))).toHaveCount(0)
		})

		test('a way back to another site is ignored: the login leads to the dashboard', async ({ page }) => {
			await open(page, '/login?lng=en&redirectTo=%2F%2Fevil.example%2F', javaScriptEnabled)
			await logIn(page, demo.customer.email, demo.customer.password)
			await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/dashboard$/)
		})
	})
}
