import { dictionary, expect, expectToast, javaScriptModes, test, uniqueEmail } from './fixtures'
import { register } from './people'
import { localhostPortal, withAuthenticator } from './localhost-portal'

/**
 * Passkeys (issue 36): added on /settings/passkeys, used to sign in on /login without a password,
 * removed; a replayed answer signs nobody in. WebAuthn needs a host name (never an IP address) and
 * JavaScript, so this spec starts its own server at http://localhost:PORT (APP_URL), and drives
 * Chromium's virtual authenticator through the DevTools protocol.
 */
const a = dictionary('en', 'account')
const auth = dictionary('en', 'auth')
const common = dictionary('en', 'common')

let portal: Awaited<ReturnType<typeof localhostPortal>>

test.beforeAll(async () => {
	test.setTimeout(120_000)
	portal = await localhostPortal('passkeys')
	await portal.start()
})

test.afterAll(() => portal?.stop())

for (const js of javaScriptModes) {
	test(`a customer adds a passkey, signs in with it and removes it, with JavaScript ${js ? 'on' : 'off'}`, async ({ browser }) => {
		test.setTimeout(120_000)
		const context = await browser.newContext({ javaScriptEnabled: js, baseURL: portal.url })
		const page = await context.newPage()
		const email = uniqueEmail('passkey')
		await register(page, 'customer', email, { first: 'Pille', last: 'Pääsuvõti' })

		// Settings lead to the passkeys.
		await page.goto('/settings?lng=en')
		const panel = page.getByRole('region', { name: a('passkeys.title') })
		await panel.getByRole('link', { name: a('passkeys.manage') }).click()
		await expect(page.getByRole('heading', { level: 1, name: a('passkeys.title') })).toBeVisible()
		await expect(page.getByText(a('passkeys.none'))).toBeVisible()

		if (!js) {
			// Without JavaScript no passkey can be made: the page says so, and a sent form says it again, beside the form.
			await expect(page.getByText(a('passkeys.needsJavaScript'))).toBeVisible()
			await page.getByLabel(a('passkeys.name')).fill('Laptop')
			await page.getByRole('button', { name: a('passkeys.add') }).click()
			await expect(page.getByRole('alert').getByText(a('passkeys.needsJavaScript'))).toBeVisible()
			await expect(page.getByText(a('passkeys.none'))).toBeVisible()
			// The sign-in page offers no passkey without JavaScript: the password form is the way in.
			await context.clearCookies()
			await page.goto('/login?lng=en')
			await expect(page.getByRole('button', { name: auth('passkey.signIn') })).toHaveCount(0)
			await expect(page.getByRole('button', { name: auth('login.submit') })).toBeVisible()
			await context.close()
			return
		}

		const { cdp, authenticatorId } = await withAuthenticator(context)
		// A name is asked first.
		await page.getByRole('button', { name: a('passkeys.add') }).click()
		await expect(page.getByText(common('validation.required')).first()).toBeVisible()
		await page.getByLabel(a('passkeys.name')).fill('Laptop')
		await page.getByRole('button', { name: a('passkeys.add') }).click()
		await expectToast(page, a('passkeys.added', { name: 'Laptop' }))
		const list = page.getByRole('region', { name: a('passkeys.listTitle') })
		await expect(list.getByText('Laptop', { exact: true })).toBeVisible()
		await expect(list.getByText(a('passkeys.neverUsed'), { exact: false })).toBeVisible()
		const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
		expect(credentials).toHaveLength(1)
		expect(credentials[0]!.isResidentCredential).toBe(true)

		// Signed out: where the browser offers passkeys among the e-mail's suggestions, choosing it signs
		// in at once (the virtual authenticator chooses by itself). No e-mail, no password.
		await context.clearCookies()
		await page.goto('/login?lng=en')
		await page.waitForURL('**/dashboard')
		await expectToast(page, auth('login.success'))
		await page.goto('/settings/passkeys?lng=en')
		await expect(list.getByText(a('passkeys.neverUsed'), { exact: false })).toHaveCount(0)

		// From here the browser offers no passkeys among the suggestions: the button asks for one.
		await page.addInitScript(() => {
			PublicKeyCredential.isConditionalMediationAvailable = async () => false
		})
		await context.clearCookies()
		await page.goto('/login?lng=en')
		const answered = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/login'))
		await page.getByRole('button', { name: auth('passkey.signIn') }).click()
		const signIn = await answered
		await page.waitForURL('**/dashboard')
		await expectToast(page, auth('login.success'))

		// The answer, sent again after signing out, signs nobody in: its challenge was used.
		const credential = new URLSearchParams(signIn.postData() ?? '').get('credential')
		expect(credential).toBeTruthy()
		await context.clearCookies()
		await page.goto('/login?lng=en')
		const csrf = await page.locator('form.passkey-sign-in input[name="csrf"]').inputValue()
		const replay = await page.request.post('/login?lng=en', { form: { csrf, intent: 'passkey', credential: credential! }, headers: { Origin: portal.url } })
		expect(replay.status()).toBe(401)
		expect(replay.headers()['set-cookie'] ?? '').not.toContain('session')
		await page.goto('/settings')
		await expect(page).toHaveURL(/redirectTo=%2Fsettings/)

		// Signed in again, the passkey is removed.
		await page.goto('/login?lng=en')
		await page.getByRole('button', { name: auth('passkey.signIn') }).click()
		await page.waitForURL('**/dashboard')
		await page.goto('/settings/passkeys?lng=en')
		await list.getByRole('button', { name: a('passkeys.removeNamed', { name: 'Laptop' }) }).click()
		await expectToast(page, a('passkeys.removed'))
		await expect(page.getByText(a('passkeys.none'))).toBeVisible()

		// A removed passkey opens nothing: the browser still has it, the portal no longer knows it.
		await context.clearCookies()
		await page.goto('/login?lng=en')
		await page.getByRole('button', { name: auth('passkey.signIn') }).click()
		await expect(page.getByRole('alert').getByText(auth('passkey.refused'))).toBeVisible()
		await expect(page).toHaveURL(/\/login/)
		await context.close()
	})
}
