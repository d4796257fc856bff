import { type Page } from '@playwright/test'
import { demo, dictionary, expect, expectToast, javaScriptModes, login, open, signInAtEidProvider, test, waitForEmail } from './fixtures'
import { seriousAxeViolations } from './axe'

/**
 * Issue 36, part 4 (decision 0156): an administrator needs a second factor. Signed in by the
 * password alone, the demo administrator is refused /admin and sent to the step-up page, which the
 * tests' eID provider (serve.mjs; the demo data links the administrator's eID) gets past, with
 * JavaScript off and on, in et, en and ru. A one-time link e-mailed to the account works only in
 * the browser that asked for it. The passkey's way is tests/e2e/admin-passkey.spec.ts (it needs a
 * host name, not this server's IP address).
 */

const languages = ['et', 'en', 'ru'] as const

/** Signs in with the password alone: the dashboard asks for the confirmation instead of the administration's figures. */
async function passwordOnly(page: Page, language: (typeof languages)[number]) {
	const account = dictionary(language, 'account')
	await page.goto(`/?lng=${language}`)
	await login(page, demo.admin.email, demo.admin.password)
	await expect(page.getByText(account('dashboard.admin.confirmText'))).toBeVisible()
	await expect(page.getByText(account('dashboard.admin.customers'))).toHaveCount(0)
}

for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`the administrator's second factor with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		for (const language of languages) {
			test(`a password alone does not reach /admin; the account's eID confirms the sign-in (${language})`, async ({ page }) => {
				const auth = dictionary(language, 'auth')
				await passwordOnly(page, language)

				// Any page of the administration leads to the step-up page, and back to that page once confirmed.
				await open(page, '/admin/users', javaScriptEnabled)
				await expect(page).toHaveURL(/\/admin\/verify\?redirectTo=%2Fadmin%2Fusers$/)
				await expect(page.getByRole('heading', { level: 1, name: auth('stepUp.title') })).toBeVisible()
				await expect(page.getByText(auth('stepUp.lead'))).toBeVisible()
				await expect(page.locator('.admin-nav')).toHaveCount(0)

				// Another person's eID confirms nothing: the page says so in the reader's language.
				await page.getByRole('link', { name: auth('stepUp.withEid') }).click()
				const refused = page.waitForResponse((response) => response.url().includes('/eid/callback'))
				await signInAtEidProvider(page, { code: `4${String(Date.now()).slice(-10)}`, given: 'MARI', family: 'MAASIKAS' })
				expect((await refused).status()).toBe(403)
				await expect(page.getByRole('alert')).toHaveText(auth('eid.notThisAccount'))
				await open(page, '/admin', javaScriptEnabled)
				await expect(page).toHaveURL(/\/admin\/verify/)

				// The account's own eID: on to the page asked for, confirmed.
				await open(page, '/admin/users', javaScriptEnabled)
				await page.getByRole('link', { name: auth('stepUp.withEid') }).click()
				await signInAtEidProvider(page, demo.admin.eid)
				// The tests' provider ends the session it kept for the other person first; without JavaScript
				// its page asks to go on (TARA keeps no sessions).
				if (!javaScriptEnabled) await page.getByRole('button', { name: 'Continue' }).click()
				await page.waitForURL((url) => url.pathname === '/admin/users')
				await expectToast(page, auth('stepUp.confirmed'))
				await expect(page.locator('.admin-nav')).toBeVisible()
				// Confirmed, the step-up page has nothing to ask.
				await open(page, '/admin/verify', javaScriptEnabled)
				await expect(page).toHaveURL(/\/admin$/)
			})
		}
	})
}

test.describe('the one-time link', () => {
	// One administrator, one mailbox: the tests that ask for its link run one after the other.
	test.describe.configure({ mode: 'serial' })

	for (const javaScriptEnabled of javaScriptModes) {
		test(`is e-mailed to the account and works only in the browser that asked for it, with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async ({ page, browser, baseURL }) => {
			const auth = dictionary('en', 'auth')
			await passwordOnly(page, 'en')
			await open(page, '/admin/verify', javaScriptEnabled)
			const asked = new Date()
			await page.getByRole('button', { name: auth('stepUp.sendLink') }).click()
			await expectToast(page, auth('stepUp.linkSent', { email: demo.admin.email }))
			const mail = await waitForEmail({ to: demo.admin.email, subject: auth('stepUp.email.subject'), since: asked })
			// It says what to do when someone else asked for it: they know the password.
			expect(mail.text).toContain('If it was not you, someone knows your password')
			const link = /http:\/\/127\.0\.0\.1:\d+\/admin\/verify\?link=[^\s"<>)\]]+/.exec(mail.text)![0].replace(/&amp;/g, '&')

			// In another browser, even signed in to the same account, the link does nothing.
			const elsewhere = await browser.newContext({ javaScriptEnabled, baseURL })
			const other = await elsewhere.newPage()
			await login(other, demo.admin.email, demo.admin.password)
			await other.goto(link)
			await expect(other.getByRole('alert')).toHaveText(auth('stepUp.linkOtherBrowser'))
			await expect(other.getByRole('button', { name: auth('stepUp.useLink') })).toHaveCount(0)
			await elsewhere.close()

			// Here it lets this sign-in add a way in (passkeys need a host name, not this IP address: the page says so).
			await page.goto(link)
			await page.getByRole('button', { name: auth('stepUp.useLink') }).click()
			await expectToast(page, auth('stepUp.linkUsed'))
			await expect(page.getByRole('heading', { name: auth('stepUp.addTitle') })).toBeVisible()
			await expect(page.getByText(dictionary('en', 'account')('passkeys.unavailable'))).toBeVisible()
			// Still no administration: the link is not a second factor.
			await open(page, '/admin', javaScriptEnabled)
			await expect(page).toHaveURL(/\/admin\/verify/)
			// Used once: opened again, it does not work.
			await page.goto(link)
			await expect(page.getByRole('alert')).toHaveText(auth('stepUp.linkInvalid'))
			await expect(page.getByRole('button', { name: auth('stepUp.useLink') })).toHaveCount(0)
		})
	}
})

test('the step-up page has no serious accessibility problem and fits a phone, in three languages', async ({ page }) => {
	await passwordOnly(page, 'et')
	const problems: string[] = []
	for (const language of languages) {
		for (const width of [1366, 360]) {
			await page.setViewportSize({ width, height: 800 })
			await open(page, `/admin/verify?lng=${language}`, true)
			await expect(page.getByRole('heading', { level: 1, name: dictionary(language, 'auth')('stepUp.title') })).toBeVisible()
			problems.push(...(await seriousAxeViolations(page)).map((each) => `${language} ${width}: ${each}`))
			const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
			if (overflow > 0) problems.push(`${language} ${width}: ${overflow} px too wide`)
			if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/verify-${language}-${width}.png`, fullPage: true })
		}
	}
	expect(problems).toEqual([])
})
