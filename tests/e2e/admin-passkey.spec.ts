import { dictionary, expect, expectToast, javaScriptModes, login, test } from './fixtures'
import { localhostPortal, withAuthenticator } from './localhost-portal'
import { startProcess } from './processes'

/**
 * An administrator's passkey (issue 36, part 4; decision 0156), from `npm run admin:create` to
 * /admin: the command prints the password and a one-time link; the password alone gets the
 * step-up page and may not add a passkey; the link lets that browser add one; the passkey then
 * confirms the sign-in, and later opens /admin by itself. WebAuthn needs a host name and
 * JavaScript: this spec starts its own server at http://localhost:PORT and drives Chromium's
 * virtual authenticator, as tests/e2e/passkeys.spec.ts does. In Estonian, the portal's default.
 */
const et = dictionary('et', 'auth')
const account = dictionary('et', 'account')

test.skip(!javaScriptModes.includes(true), 'a passkey needs JavaScript')

let portal: Awaited<ReturnType<typeof localhostPortal>>
let admin: { email: string; password: string; link: string }

test.beforeAll(async () => {
	test.setTimeout(240_000)
	portal = await localhostPortal('admin-passkey')
	// The operator's command, before the server (the embedded database has one process at a time).
	const email = `admin-${Date.now().toString(36)}@example.com`
	const command = startProcess([process.execPath, 'server-build/scripts/admin-create.js', email], portal.env)
	expect(await command.exited, command.output()).toBe(0)
	const printed = command.output()
	admin = {
		email,
		password: /Password: (\S+)/.exec(printed)![1]!,
		link: /(http:\/\/localhost:\d+\/admin\/verify\?link=\S+)/.exec(printed)![1]!,
	}
	await portal.start()
})

test.afterAll(() => portal?.stop())

test('a new administrator adds the first passkey through the printed link, confirms with it, and signs in with it straight to /admin', async ({ browser }) => {
	test.setTimeout(120_000)
	const context = await browser.newContext({ javaScriptEnabled: true, baseURL: portal.url })
	const { page, cdp, authenticatorId } = await withAuthenticator(context)

	// The password alone: the step-up page, with nothing yet to confirm with.
	await page.goto('/?lng=et')
	await login(page, admin.email, admin.password)
	await page.goto('/admin')
	await expect(page).toHaveURL(/\/admin\/verify\?redirectTo=%2Fadmin$/)
	await expect(page.getByTestId('step-up-nothing-yet')).toHaveText(et('stepUp.nothingYet'))
	// Nor may it add a passkey: the passkeys page leads to the step-up page instead of its form.
	await page.goto('/settings/passkeys')
	await expect(page.getByTestId('passkeys-admin-confirm-first')).toHaveText(account('passkeys.adminConfirmFirst'))
	await expect(page.getByRole('button', { name: account('passkeys.add') })).toHaveCount(0)

	// The printed link, in this browser: the session may add a passkey now.
	await page.goto(admin.link)
	await page.getByRole('button', { name: et('stepUp.useLink') }).click()
	await expectToast(page, et('stepUp.linkUsed'))
	await page.getByRole('link', { name: et('stepUp.addPasskey') }).click()
	await page.getByLabel(account('passkeys.name')).fill('Sülearvuti')
	await page.getByRole('button', { name: account('passkeys.add') }).click()
	// Added, and on to confirm with it.
	await expectToast(page, account('passkeys.addedConfirmNext', { name: 'Sülearvuti' }))
	await expect(page).toHaveURL(/\/admin\/verify$/)
	expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(1)
	await page.getByRole('button', { name: et('stepUp.withPasskey') }).click()
	await page.waitForURL((url) => url.pathname === '/admin')
	await expectToast(page, et('stepUp.confirmed'))
	await expect(page.locator('.admin-nav')).toBeVisible()

	// Signed out, the passkey alone signs in (the browser offers it among the e-mail's suggestions) and /admin opens at once.
	await context.clearCookies()
	await page.goto('/login')
	await page.waitForURL('**/dashboard')
	await page.goto('/admin')
	await expect(page).toHaveURL(/\/admin$/)
	await expect(page.locator('.admin-nav')).toBeVisible()
	await context.close()
})
