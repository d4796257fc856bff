import { type Page } from '@playwright/test'
import { dictionary, expect, expectToast, javaScriptModes, open, signInAtEidProvider, test, uniqueEmail } from './fixtures'
import { completeTyreWorkshopProfile, PASSWORD, person, register, vehicleAndTyreRequest } from './people'

/**
 * eID (issue 36, decision 0150): the "Smart-ID, Mobile-ID or ID-card" button on /login and
 * /register, through the tests' own OpenID provider (tests/support/openid-provider.mjs, started by
 * serve.mjs, TARA-shaped), with JavaScript on and off: signing up with the verified names, linking
 * an existing account after its password, unlinking refused without a password, a refused answer
 * in the reader's language, and the "verified person" mark a workshop sees on the request.
 */

const a = dictionary('en', 'auth')
const acc = dictionary('en', 'account')
const common = dictionary('en', 'common')

/** A personal code of this test's own. */
const personalCode = () => `4${String(Date.now()).slice(-6)}${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`

/** Signs up with eID from the registration page as a car owner: the verified names shown, the e-mail and number asked. */
async function signUpWithEid(page: Page, js: boolean, who: { code: string; given: string; family: string; shown: [string, string]; email: string }) {
	await open(page, '/register?lng=en', js)
	await page.getByRole('link', { name: a('eid.button') }).click()
	await signInAtEidProvider(page, who)
	await expect(page).toHaveURL(/\/register\?role=customer$/)
	await expect(page.getByText(a('eid.registerTitle'))).toBeVisible()
	// The names are the eID's, shown and not asked.
	const names = page.getByRole('group', { name: a('eid.verifiedNames') })
	// As people write them: ID-card names come in capitals.
	await expect(names).toContainText(who.shown[0])
	await expect(names).toContainText(who.shown[1])
	await expect(page.getByLabel(a('register.firstName'))).toHaveCount(0)
	await expect(page.getByLabel(a('register.password'), { exact: true })).toHaveCount(0)
	await page.getByLabel(a('register.mobile')).fill('+372 5000 4321')
	await page.getByLabel(a('register.email')).fill(who.email)
	await page.getByRole('button', { name: a('register.submitCustomer') }).click()
	await page.waitForURL('**/dashboard')
	await expectToast(page, a('register.success'))
}

for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`eID with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		test('signing up with eID: the verified names, no password; the eID logs in again; unlinking is refused without a password', async ({ page }) => {
			const code = personalCode()
			await signUpWithEid(page, javaScriptEnabled, { code, given: 'MARY ÄNN', family: 'O’CONNEŽ-ŠUSLIK', shown: ['Mary Änn', 'O’Connež-Šuslik'], email: uniqueEmail('eid-signup') })
			await expect(page.locator('body')).toContainText('Mary Änn')

			await open(page, '/settings', javaScriptEnabled)
			const panel = page.getByRole('region', { name: acc('eid.title') })
			await expect(panel).toContainText('Your eID (EE) is linked to your account')
			// Its only way to sign in: the unlink button is not there, and the page says why and what to do.
			await expect(page.getByTestId('eid-unlink-refused')).toHaveText(acc('eid.unlinkNeedsPassword'))
			await expect(page.getByRole('button', { name: acc('eid.unlink') })).toHaveCount(0)
			await expect(page.getByRole('button', { name: acc('eid.setPassword') })).toBeVisible()

			// Logged out, the same eID logs the account in again.
			await page.context().clearCookies()
			await open(page, '/login?lng=en', javaScriptEnabled)
			await page.getByRole('link', { name: a('eid.button') }).click()
			await signInAtEidProvider(page, { code })
			await page.waitForURL('**/dashboard')
			await expectToast(page, a('eid.signedIn'))
		})

		test('linking an existing account after its password; with a password the eID can be unlinked', async ({ page, browser, baseURL }) => {
			const email = uniqueEmail('eid-link')
			const registrar = await person(browser, javaScriptEnabled, baseURL)
			await register(registrar, 'customer', email, { first: 'Kati', last: 'Karu' })
			await registrar.context().close()

			await open(page, '/login?lng=en', javaScriptEnabled)
			await page.getByRole('link', { name: a('eid.button') }).click()
			await signInAtEidProvider(page, { code: personalCode(), given: 'KATARIINA', family: 'KARU' })
			// No account has it: the registration, offering to link it to an account instead.
			await expect(page).toHaveURL(/\/register/)
			await page.getByRole('link', { name: a('eid.loginInstead') }).click()
			await expect(page.getByText(a('eid.linkTitle', { name: 'Katariina Karu' }))).toBeVisible()
			await page.getByLabel(a('login.email')).fill(email)
			await page.getByLabel(a('login.password')).fill(PASSWORD)
			await page.locator('main form button[type="submit"]', { hasText: a('login.submit') }).click()
			await page.waitForURL('**/dashboard')
			await expectToast(page, a('eid.linkedAfterPassword'))

			// The verified names are the account's now, not for editing.
			await open(page, '/profile', javaScriptEnabled)
			await expect(page.getByRole('group', { name: a('eid.verifiedNames') })).toContainText('Katariina')
			await expect(page.getByLabel(acc('profile.firstName'))).toHaveCount(0)

			await open(page, '/settings', javaScriptEnabled)
			await page.getByRole('button', { name: acc('eid.unlink') }).click()
			await expectToast(page, acc('eid.unlinked'))
			await expect(page.getByRole('link', { name: acc('eid.link') })).toBeVisible()
		})

		test('a refused answer (another audience) logs nobody in and says so in the reader’s language, with a 4xx', async ({ page }) => {
			const et = dictionary('et', 'auth')
			await open(page, '/login?lng=et', javaScriptEnabled)
			await page.getByRole('link', { name: et('eid.button') }).click()
			const answered = page.waitForResponse((response) => response.url().includes('/eid/callback'))
			await signInAtEidProvider(page, { code: personalCode(), answer: 'audience' })
			expect((await answered).status()).toBe(400)
			await expect(page.getByRole('heading', { name: et('eid.refused.title') })).toBeVisible()
			await expect(page.getByRole('alert')).toHaveText(et('eid.refused.audience'))
			await expect(page.getByText(et('eid.refused.nobody'))).toBeVisible()
			// Nobody is logged in: the header still offers to log in.
			await open(page, '/dashboard', javaScriptEnabled)
			await expect(page).not.toHaveURL(/\/dashboard/)
		})

		test('the workshop sees the "verified person" mark beside a customer who signed up with eID', async ({ page, browser, baseURL }) => {
			const token = Math.random().toString(36).slice(2, 8)
			const garage = await person(browser, javaScriptEnabled, baseURL)
			await register(garage, 'workshop', uniqueEmail('eid-garage'), { first: 'Berit', last: 'Eid', workshop: `Eid Garage ${token}` })
			await completeTyreWorkshopProfile(garage, javaScriptEnabled)

			await signUpWithEid(page, javaScriptEnabled, { code: personalCode(), given: 'JAAN', family: 'TAMM', shown: ['Jaan', 'Tamm'], email: uniqueEmail('eid-customer') })
			const slug = await vehicleAndTyreRequest(page, token, javaScriptEnabled)

			await open(garage, `/customer-request-details/${slug}`, javaScriptEnabled)
			const mark = garage.getByTestId('verified-person')
			await expect(mark).toHaveText(common('verifiedPerson.label'))
			await expect(garage.locator('.page-header__subtitle')).toContainText('Jaan')
		})
	})
}
