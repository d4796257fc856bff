import { demo, dictionary, expect, expectToast, javaScriptModes, login, test, uniqueEmail, waitForEmail } from './fixtures'

const en = dictionary('en', 'auth')
const et = dictionary('et', 'auth')
const enAccount = dictionary('en', 'account')
const enCommon = dictionary('en')
const etCommon = dictionary('et')

for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`accounts with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		test('a customer registers and is logged in at once, logs out and logs in again (Estonian)', async ({ page }) => {
			const email = uniqueEmail('mari')
			await page.goto('/register?lng=et')
			await expect(page.getByRole('heading', { level: 1 })).toHaveText(et('register.title'))
			await page.getByLabel(et('register.firstName')).fill('Kadi')
			await page.getByLabel(et('register.lastName')).fill('Kask')
			await page.getByLabel(et('register.mobile')).fill('+372 5123 4567')
			await page.getByLabel(et('register.email')).fill(email)
			await page.getByLabel(et('register.password'), { exact: true }).fill('salajane1')
			await page.getByLabel(et('register.confirmPassword')).fill('salajane1')
			await page.getByRole('button', { name: et('register.submitCustomer') }).click()

			// Registered is logged in: no second log-in (decision 0121).
			await expect(page).toHaveURL(/\/dashboard$/)
			await expectToast(page, et('register.success'))
			const header = page.locator('.shell__header')
			await expect(header).toContainText('Kadi Kask')
			await expect(header).toContainText(et('roles.customer'))

			await page.getByRole('button', { name: et('logout.button') }).click()
			await expect(page).toHaveURL(/\/$/)
			await expectToast(page, et('logout.success'))

			await page.goto('/login')
			await page.getByLabel(et('login.email')).fill(email)
			await page.getByLabel(et('login.password')).fill('salajane1')
			await page.getByRole('button', { name: et('login.submit') }).click()
			await expect(page).toHaveURL(/\/dashboard$/)
			await expectToast(page, et('login.success'))
			await expect(header).toContainText('Kadi Kask')

			await page.getByRole('button', { name: et('logout.button') }).click()
			await expect(page).toHaveURL(/\/$/)
			// The session has ended on the server: the dashboard now asks to log in.
			await page.goto('/dashboard')
			await expect(page).toHaveURL(/\/\?redirectTo=%2Fdashboard$/)
			await expectToast(page, et('guard.loginRequired'))
		})

		test('a workshop registers and sees its workshop name and role (English)', async ({ page }) => {
			const email = uniqueEmail('garage')
			await page.goto('/register?lng=en')
			await page.locator('.role-switch').getByRole('link', { name: new RegExp(en('register.roleWorkshop')) }).click()
			await expect(page).toHaveURL(/role=workshop/)
			await page.getByLabel(en('register.workshopName')).fill('Rapla Rehv')
			await page.getByLabel(en('register.companyName')).fill('Rapla Rehv OÜ')
			await page.getByLabel(en('register.companyId')).fill('1029384756')
			await page.getByLabel(en('register.firstName')).fill('Peeter')
			await page.getByLabel(en('register.lastName')).fill('Pihlakas')
			await page.getByLabel(en('register.mobile')).fill('+372 5999 1234')
			await page.getByLabel(en('register.email')).fill(email)
			await page.getByLabel(en('register.password'), { exact: true }).fill('garaaz-123')
			await page.getByLabel(en('register.confirmPassword')).fill('garaaz-123')
			await page.getByRole('button', { name: en('register.submitWorkshop') }).click()
			await expect(page).toHaveURL(/\/dashboard$/)
			await expectToast(page, en('register.success'))
			const header = page.locator('.shell__header')
			await expect(header).toContainText('Rapla Rehv')
			await expect(header).toContainText(en('roles.workshop'))
			// The workshop menu of spec §2.
			const menu = page.getByRole('navigation', { name: enAccount('menu.label') })
			for (const item of ['dashboard', 'bidHistory', 'customerReviews', 'profile', 'workshopProfile', 'workshopList', 'subscription']) {
				await expect(menu.getByRole('link', { name: enAccount(`menu.${item}`), exact: true })).toBeVisible()
			}
		})

		test('registration errors show next to their fields and the input is kept', async ({ page }) => {
			await page.goto('/register?lng=en&role=workshop')
			await page.getByLabel(en('register.firstName')).fill('Al')
			await page.getByLabel(en('register.companyId')).fill('12345')
			await page.getByLabel(en('register.email')).fill(demo.customer.email)
			await page.getByLabel(en('register.password'), { exact: true }).fill('short')
			await page.getByLabel(en('register.confirmPassword')).fill('other')
			await page.getByRole('button', { name: en('register.submitWorkshop') }).click()

			const errorOf = (label: string, exact = false) =>
				page.locator('.field').filter({ has: page.getByLabel(label, { exact }) }).locator('.field__errors')
			await expect(errorOf(en('register.firstName'))).toHaveText(enCommon('validation.min3'))
			await expect(errorOf(en('register.lastName'))).toHaveText(enCommon('validation.required'))
			await expect(errorOf(en('register.workshopName'))).toHaveText(enCommon('validation.required'))
			await expect(errorOf(en('register.companyId'))).toHaveText(enCommon('validation.companyId'))
			await expect(errorOf(en('register.password'), true)).toHaveText(enCommon('validation.password'))
			await expect(page.getByLabel(en('register.firstName'))).toHaveAttribute('aria-invalid', 'true')
			await expect(page.getByLabel(en('register.firstName'))).toHaveValue('Al')
			await expect(page.getByLabel(en('register.companyId'))).toHaveValue('12345')

			// Fix everything but the e-mail address, which belongs to someone else.
			await page.getByLabel(en('register.firstName')).fill('Alar')
			await page.getByLabel(en('register.lastName')).fill('Aru')
			await page.getByLabel(en('register.workshopName')).fill('Aru Auto')
			await page.getByLabel(en('register.companyName')).fill('Aru Auto OÜ')
			await page.getByLabel(en('register.companyId')).fill('1234567890')
			await page.getByLabel(en('register.mobile')).fill('+372 5555 7777')
			await page.getByLabel(en('register.password'), { exact: true }).fill('long-enough')
			await page.getByLabel(en('register.confirmPassword')).fill('long-enough')
			await page.getByRole('button', { name: en('register.submitWorkshop') }).click()
			await expect(errorOf(en('register.email'))).toHaveText('Email address is already registered.')
			await expect(page.getByLabel(en('register.workshopName'))).toHaveValue('Aru Auto')
		})

		test('a wrong password is refused in the reader’s language', async ({ page }) => {
			await page.goto('/login?lng=en')
			await page.getByLabel(en('login.email')).fill(demo.customer.email)
			await page.getByLabel(en('login.password')).fill('not-the-password')
			await page.getByRole('button', { name: en('login.submit') }).click()
			await expect(page.getByRole('alert').filter({ hasText: 'Invalid email or password' })).toBeVisible()
			await expect(page.getByLabel(en('login.email'))).toHaveValue(demo.customer.email)

			await page.goto('/login?lng=et')
			await page.getByLabel(et('login.email')).fill(demo.customer.email)
			await page.getByLabel(et('login.password')).fill('not-the-password')
			await page.getByRole('button', { name: et('login.submit') }).click()
			await expect(page.getByRole('alert').filter({ hasText: et('login.invalid') })).toBeVisible()
		})

		test('a forgotten password is reset through the e-mail, once', async ({ page }) => {
			// Five slow password hashes (scrypt at OWASP's cost) and two e-mails: a long walk.
			test.setTimeout(90_000)
			const email = uniqueEmail('forgetful')
			// Register through the portal (and see the welcome e-mail go out).
			await page.goto('/register?lng=en')
			await page.getByLabel(en('register.firstName')).fill('Mart')
			await page.getByLabel(en('register.lastName')).fill('Mets')
			await page.getByLabel(en('register.mobile')).fill('+372 5444 3333')
			await page.getByLabel(en('register.email')).fill(email)
			await page.getByLabel(en('register.password'), { exact: true }).fill('first-pass')
			await page.getByLabel(en('register.confirmPassword')).fill('first-pass')
			await page.getByRole('button', { name: en('register.submitCustomer') }).click()
			await expect(page).toHaveURL(/\/dashboard$/)
			expect((await waitForEmail({ to: email, subject: en('email.welcome.subject') })).text).toContain('/login')
			await page.getByRole('button', { name: en('logout.button') }).click()
			await expect(page).toHaveURL(/\/$/)

			await page.goto('/login')
			await page.getByRole('link', { name: en('login.forgot') }).click()
			await expect(page).toHaveURL(/\/forget-password$/)
			await page.getByLabel(en('forgot.email')).fill(email)
			await page.getByRole('button', { name: en('forgot.submit') }).click()
			await expect(page).toHaveURL(/\/login$/)
			await expectToast(page, en('forgot.sent'))

			const mail = await waitForEmail({ to: email, subject: en('email.reset.subject') })
			const link = /https?:\/\/\S+\/reset-password\/\S+/.exec(mail.text)![0]
			await page.goto(link)
			await expect(page.getByRole('heading', { level: 1 })).toHaveText(en('reset.title'))
			await page.getByLabel(en('reset.password'), { exact: true }).fill('second-pass')
			await page.getByLabel(en('reset.confirmPassword')).fill('second-pas')
			await page.getByRole('button', { name: en('reset.submit') }).click()
			await expect(page.getByText(enCommon('validation.passwordMismatch'))).toBeVisible()
			await page.getByLabel(en('reset.password'), { exact: true }).fill('second-pass')
			await page.getByLabel(en('reset.confirmPassword')).fill('second-pass')
			await page.getByRole('button', { name: en('reset.submit') }).click()
			await expect(page).toHaveURL(/\/login$/)
			await expectToast(page, en('reset.success'))

			// The old password no longer works, the new one does.
			await page.getByLabel(en('login.email')).fill(email)
			await page.getByLabel(en('login.password')).fill('first-pass')
			await page.getByRole('button', { name: en('login.submit') }).click()
			await expect(page.getByRole('alert').filter({ hasText: en('login.invalid') })).toBeVisible()
			await login(page, email, 'second-pass')

			// The link worked once.
			await page.getByRole('button', { name: en('logout.button') }).click()
			await expect(page).toHaveURL(/\/$/)
			await page.goto(link)
			await expect(page.getByRole('heading', { level: 1 })).toHaveText('Invalid link')
		})

		test('profile and settings: name, password rules, language', async ({ page }) => {
			test.setTimeout(90_000)
			const email = uniqueEmail('settings')
			await page.goto('/register?lng=en')
			await page.getByLabel(en('register.firstName')).fill('Siim')
			await page.getByLabel(en('register.lastName')).fill('Saar')
			await page.getByLabel(en('register.mobile')).fill('+372 5111 2222')
			await page.getByLabel(en('register.email')).fill(email)
			await page.getByLabel(en('register.password'), { exact: true }).fill('settings-1')
			await page.getByLabel(en('register.confirmPassword')).fill('settings-1')
			await page.getByRole('button', { name: en('register.submitCustomer') }).click()
			await expect(page).toHaveURL(/\/dashboard$/)

			await page.goto('/profile')
			await expect(page.getByLabel(enAccount('profile.email'))).toHaveValue(email)
			await expect(page.getByLabel(enAccount('profile.email'))).toBeDisabled()
			await expect(page.getByText(enAccount('profile.emailNote'))).toBeVisible()
			await page.getByLabel(enAccount('profile.firstName')).fill('Siimu')
			await page.getByRole('button', { name: enAccount('profile.submit') }).click()
			await expectToast(page, enAccount('profile.saved'))
			await expect(page.locator('.shell__header')).toContainText('Siimu Saar')

			await page.goto('/settings')
			const passwordForm = page.locator('form').filter({ has: page.getByLabel(enAccount('settings.oldPassword')) })
			await passwordForm.getByLabel(enAccount('settings.oldPassword')).fill('wrong-pass')
			await passwordForm.getByLabel(enAccount('settings.newPassword'), { exact: true }).fill('settings-2')
			await passwordForm.getByLabel(enAccount('settings.confirmPassword')).fill('settings-2')
			await passwordForm.getByRole('button', { name: enAccount('settings.passwordSubmit') }).click()
			await expect(page.getByText('Old Password did not match.')).toBeVisible()

			await passwordForm.getByLabel(enAccount('settings.oldPassword')).fill('settings-1')
			await passwordForm.getByLabel(enAccount('settings.newPassword'), { exact: true }).fill('settings-1')
			await passwordForm.getByLabel(enAccount('settings.confirmPassword')).fill('settings-1')
			await passwordForm.getByRole('button', { name: enAccount('settings.passwordSubmit') }).click()
			await expect(page.getByText('New Password cannot be the old password.')).toBeVisible()

			await passwordForm.getByLabel(enAccount('settings.oldPassword')).fill('settings-1')
			await passwordForm.getByLabel(enAccount('settings.newPassword'), { exact: true }).fill('settings-2')
			await passwordForm.getByLabel(enAccount('settings.confirmPassword')).fill('settings-2')
			await passwordForm.getByRole('button', { name: enAccount('settings.passwordSubmit') }).click()
			// Two full-cost hashes, queued behind the other workers' sign-ins on a busy machine.
			await expectToast(page, enAccount('settings.passwordChanged'), { timeout: 30_000 })

			await page.getByRole('combobox', { name: enAccount('settings.language') }).selectOption('ru')
			await page.getByRole('button', { name: enAccount('settings.languageSubmit') }).click()
			await expect(page.locator('html')).toHaveAttribute('lang', 'ru')
			await expectToast(page, dictionary('ru', 'account')('settings.languageSaved'))
		})
	})
}

test('a signed-in visitor is sent from the log-in pages to the dashboard', async ({ page }) => {
	await login(page, demo.customer.email, demo.customer.password)
	// Let the dashboard finish hydrating: leaving it halfway makes React report an aborted render.
	await page.waitForLoadState('networkidle')
	for (const path of ['/login', '/register', '/forget-password']) {
		await page.goto(path)
		await expect(page, path).toHaveURL(/\/dashboard$/)
	}
	// The public header offers the dashboard and log out instead of log in and register.
	await page.goto('/?lng=en')
	await expect(page.getByRole('banner').getByRole('link', { name: enCommon('nav.dashboard') }).first()).toBeVisible()
	await expect(page.getByRole('banner').getByRole('link', { name: enCommon('nav.login') })).toHaveCount(0)
})

test('logging in as the demo workshop shows its dashboard in Estonian', async ({ page }) => {
	await page.goto('/?lng=et')
	await login(page, demo.workshop.email, demo.workshop.password)
	await expectToast(page, et('login.success'))
	await expect(page.locator('.shell__header')).toContainText(demo.workshop.name)
	await expect(page.getByRole('heading', { name: dictionary('et', 'account')('dashboard.workshop.newRequestsTitle') })).toBeVisible()
	// The bell shows the unread notifications of the demo data.
	await expect(page.locator('.bell__badge')).toHaveText(/^\d+$/)
	expect(etCommon('nav.dashboard')).toBeTruthy()
})
