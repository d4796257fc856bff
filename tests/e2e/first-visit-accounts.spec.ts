import { type Page } from '@playwright/test'
import { dictionary, expect, expectToast, javaScriptModes, open, test, uniqueEmail } from './fixtures'
import { addVehicle, fillRegistration } from './people'

/**
 * Issue 32, items 1, 3 and 11: a real workshop registers with its registry code; a password is
 * never cut; a visitor who asks a workshop for an offer is told whom it is for and is logged in
 * at once on registering (decisions 0120, 0121).
 */

const languages = ['et', 'en', 'ru'] as const
const TWELVE = 'twelve-chars'
const SEVENTEEN = 'seventeen-chars!!'

/** The error list under the field with this label. */
const errorOf = (page: Page, label: string) => page.locator('.field').filter({ has: page.getByLabel(label, { exact: true }) }).locator('.field__errors')

async function fillWorkshop(page: Page, language: (typeof languages)[number], companyId: string, email: string) {
	const a = dictionary(language, 'auth')
	await page.getByLabel(a('register.workshopName'), { exact: true }).fill('Kase Garaaž')
	await page.getByLabel(a('register.companyName'), { exact: true }).fill('Kase Garaaž OÜ')
	await page.getByLabel(a('register.companyId'), { exact: true }).fill(companyId)
	await page.getByLabel(a('register.firstName'), { exact: true }).fill('Kaarel')
	await page.getByLabel(a('register.lastName'), { exact: true }).fill('Kask')
	await page.getByLabel(a('register.mobile'), { exact: true }).fill('+372 5123 4567')
	await page.getByLabel(a('register.email'), { exact: true }).fill(email)
	await page.getByLabel(a('register.password'), { exact: true }).fill(TWELVE)
	await page.getByLabel(a('register.confirmPassword'), { exact: true }).fill(TWELVE)
}

for (const javaScriptEnabled of javaScriptModes) {
	// A phone without JavaScript, a desktop with it: both widths, both modes, in one pass.
	const viewport = javaScriptEnabled ? { width: 1366, height: 900 } : { width: 360, height: 800 }
	test.describe(`a first visit, JavaScript ${javaScriptEnabled ? 'on' : 'off'}, ${viewport.width} px`, () => {
		test.use({ javaScriptEnabled, viewport })

		test('a workshop registers with its 8-digit registry code; a wrong check digit is refused in et, en and ru', async ({ page }) => {
			const email = uniqueEmail('registrikood')
			for (const language of languages) {
				const a = dictionary(language, 'auth')
				await open(page, `/register?lng=${language}&role=workshop`, javaScriptEnabled)
				// The help names both forms, and no maxlength cuts a longer paste.
				await expect(page.getByText(a('register.companyIdHelp'))).toBeVisible()
				await expect(page.getByLabel(a('register.companyId'), { exact: true })).not.toHaveAttribute('maxlength')
				await fillWorkshop(page, language, '10137318', email)
				await page.getByRole('button', { name: a('register.submitWorkshop') }).click()
				await expect(errorOf(page, a('register.companyId'))).toHaveText(dictionary(language)('validation.companyId'))
				await expect(page.getByLabel(a('register.companyId'), { exact: true })).toHaveValue('10137318')
			}
			// Estonian, the right check digit: registered and logged in at once.
			const et = dictionary('et', 'auth')
			await open(page, '/register?lng=et&role=workshop', javaScriptEnabled)
			await fillWorkshop(page, 'et', '10137319', email)
			await page.getByRole('button', { name: et('register.submitWorkshop') }).click()
			await expect(page).toHaveURL(/\/dashboard$/)
			await expectToast(page, et('register.success'))
			await expect(page.locator('.shell__header')).toContainText('Kase Garaaž')
		})

		test('a 17-character password is refused whole in et, en and ru; 12 register, and the log-in takes a longer one whole', async ({ page }) => {
			test.setTimeout(90_000)
			for (const language of languages) {
				const a = dictionary(language, 'auth')
				const tooLong = dictionary(language)('validation.passwordTooLong')
				await open(page, `/register?lng=${language}`, javaScriptEnabled)
				const password = page.getByLabel(a('register.password'), { exact: true })
				await expect(password).not.toHaveAttribute('maxlength')
				await password.fill(SEVENTEEN)
				// All of it is in the field: nothing is cut.
				await expect(password).toHaveValue(SEVENTEEN)
				if (javaScriptEnabled) {
					// Said at once, as it is typed, before any submit.
					await expect(errorOf(page, a('register.password'))).toHaveText(tooLong)
				}
				await page.getByLabel(a('register.confirmPassword'), { exact: true }).fill(SEVENTEEN)
				await page.getByRole('button', { name: a('register.submitCustomer') }).click()
				await expect(errorOf(page, a('register.password'))).toHaveText(tooLong)
			}

			// Twelve characters: registered and logged in.
			const en = dictionary('en', 'auth')
			const email = uniqueEmail('twelve')
			await open(page, '/register?lng=en', javaScriptEnabled)
			await page.getByLabel(en('register.firstName')).fill('Pikk')
			await page.getByLabel(en('register.lastName')).fill('Parool')
			await page.getByLabel(en('register.mobile')).fill('+372 5000 1212')
			await page.getByLabel(en('register.email')).fill(email)
			await page.getByLabel(en('register.password'), { exact: true }).fill(TWELVE)
			await page.getByLabel(en('register.confirmPassword')).fill(TWELVE)
			await page.getByRole('button', { name: en('register.submitCustomer') }).click()
			await expect(page).toHaveURL(/\/dashboard$/)
			// Another browser, as it were (on a phone the log-out button is in the menu).
			await page.context().clearCookies()

			// The log-in form takes what is typed: the twelve and five more is a failed log-in, not
			// the twelve it would be if the field cut it.
			await open(page, '/login?lng=en', javaScriptEnabled)
			const loginPassword = page.getByLabel(en('login.password'))
			await expect(loginPassword).not.toHaveAttribute('maxlength')
			await page.getByLabel(en('login.email')).fill(email)
			await loginPassword.fill(`${TWELVE}-more`)
			await expect(loginPassword).toHaveValue(`${TWELVE}-more`)
			await page.getByRole('button', { name: en('login.submit') }).click()
			await expect(page.getByRole('alert').filter({ hasText: en('login.invalid') })).toBeVisible()
			await page.getByLabel(en('login.password')).fill(TWELVE)
			await page.getByRole('button', { name: en('login.submit') }).click()
			await expect(page).toHaveURL(/\/dashboard$/)
		})

		test('a visitor asks a workshop for an offer: both pages name it, and registering lands them logged in on its request form', async ({ page }) => {
			test.setTimeout(90_000)
			const a = dictionary('en', 'auth')
			const c = dictionary('en', 'customer')
			await open(page, '/workshop-list?lng=en', javaScriptEnabled)
			const card = page.locator('.workshop-card').first()
			const name = (await card.locator('h2, h3').first().innerText()).trim()
			await card.locator('a').first().click()
			await page.getByRole('link', { name: dictionary('en', 'public')('workshop.askOffer') }).click()

			const note = page.locator('.auth').getByRole('note')
			await expect(page).toHaveURL(/\/login\?redirectTo=/)
			await expect(note).toContainText(a('askFor.title').replace('{{workshop}}', name))
			await page.locator('.auth__switch').getByRole('link').click()
			await expect(page).toHaveURL(/\/register\?redirectTo=/)
			await expect(note).toContainText(a('askFor.title').replace('{{workshop}}', name))
			// Switching to the workshop form and back keeps the way (the note is the car owner's).
			await page.locator('.role-switch').getByRole('link', { name: new RegExp(a('register.roleWorkshop')) }).click()
			await expect(page).toHaveURL(/role=workshop&redirectTo=/)
			await expect(note).toHaveCount(0)
			await page.locator('.role-switch').getByRole('link', { name: new RegExp(a('register.roleCustomer')) }).click()
			await expect(note).toContainText(name)
			// To the login and back again: still named. (Each page has the note: the address says which page it is.)
			await page.locator('.auth__switch').getByRole('link').click()
			await expect(page).toHaveURL(/\/login\?redirectTo=/)
			await expect(note).toContainText(name)
			await page.locator('.auth__switch').getByRole('link').click()
			await expect(page).toHaveURL(/\/register\?redirectTo=/)
			await expect(note).toContainText(name)

			await fillRegistration(page, 'customer', uniqueEmail('visitor'), { first: 'Vilja', last: 'Külaline' })
			// Logged in at once, on the request form for that workshop: no second log-in.
			await expect(page).toHaveURL(/\/new-service-register\?workshop=/)
			await expectToast(page, a('register.success'))
			await expect(page.getByRole('heading', { level: 1 })).toHaveText(c('request.newTitle'))
			await expect(page.locator('.shell__header')).toContainText('Vilja Külaline')
			await expect(page.locator('main')).toContainText(c('request.addressedTo').replace('{{workshop}}', name))

			// A vehicle first, and back on the form, still addressed to the workshop.
			const addVehicleHref = await page.getByRole('link', { name: c('request.addVehicleFirst') }).getAttribute('href')
			await addVehicle(page, `V${Math.random().toString(36).slice(2, 7).toUpperCase()}`, javaScriptEnabled, addVehicleHref!)
			await expect(page).toHaveURL(/\/new-service-register\?workshop=/)
			await expect(page.locator('.addressed')).toContainText(c('request.addressedTo').replace('{{workshop}}', name))
		})
	})
}
