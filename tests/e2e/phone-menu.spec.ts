import { demo, dictionary, expect, javaScriptModes, login, open, test } from './fixtures'

const en = dictionary('en')
const enAccount = dictionary('en', 'account')
const enAuth = dictionary('en', 'auth')

test.use({ viewport: { width: 360, height: 740 } })

for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`the phone menu with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		test('a visitor sees Log in and Register at once; the menu holds the other pages and the languages', async ({ page }) => {
			await open(page, '/?lng=en', javaScriptEnabled)
			const header = page.locator('.site-header')
			await expect(header.getByRole('link', { name: en('nav.login'), exact: true })).toBeVisible()
			await expect(header.getByRole('link', { name: en('nav.register'), exact: true })).toBeVisible()
			await expect(header.getByRole('link', { name: en('nav.about') })).toBeHidden()

			// On the narrowest phones the button shows its icon only; its name stays "Menu".
			await header.locator('summary').click()
			const menu = header.getByRole('navigation', { name: en('nav.mainNavigation') })
			await expect(menu.getByRole('link', { name: en('nav.about') })).toBeVisible()
			await header.getByRole('navigation', { name: en('language.label') }).getByRole('link', { name: 'RU' }).click()
			await expect(page.locator('html')).toHaveAttribute('lang', 'ru')

			await page.locator('.site-header summary').click()
			await page.locator('.site-header').getByRole('link', { name: dictionary('ru')('nav.contact') }).click()
			await expect(page).toHaveURL(/\/contact-us/)
			await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
		})

		test('a customer reaches every menu entry, the languages and log out from the menu button', async ({ page }) => {
			await login(page, demo.customer.email, demo.customer.password)
			await open(page, '/dashboard?lng=en', javaScriptEnabled)
			const menuButton = page.locator('.shell__side').getByText(en('nav.menu'))
			const accountMenu = page.getByRole('navigation', { name: enAccount('menu.label') })
			await expect(accountMenu).toBeHidden()

			await menuButton.click()
			for (const item of ['dashboard', 'myRequests', 'newService', 'myVehicles', 'serviceHistory', 'profile', 'workshopList', 'settings']) {
				await expect(accountMenu.getByRole('link', { name: enAccount(`menu.${item}`), exact: true })).toBeVisible()
			}
			await accountMenu.getByRole('link', { name: enAccount('menu.serviceHistory') }).click()
			await expect(page).toHaveURL(/\/my-service-history$/)
			// After the page changes, the menu is closed again.
			await expect(accountMenu).toBeHidden()

			await menuButton.click()
			await page.locator('.shell__side').getByRole('button', { name: enAuth('logout.button') }).click()
			await expect(page).toHaveURL(/\/$/)
		})

		test('the page is never wider than the phone, the menu open or not', async ({ page }) => {
			await login(page, demo.workshop.email, demo.workshop.password)
			await open(page, '/dashboard?lng=ru', javaScriptEnabled)
			await page.locator('.shell__side summary').click()
			expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
		})
	})
}

test('with JavaScript, focus stays in the open menu and Escape closes it', async ({ page }) => {
	await login(page, demo.customer.email, demo.customer.password)
	await open(page, '/dashboard?lng=en', true)
	const summary = page.locator('.shell__side summary')
	await summary.focus()
	await page.keyboard.press('Enter')
	const menu = page.getByRole('navigation', { name: enAccount('menu.label') })
	await expect(menu).toBeVisible()
	// Shift+Tab from the button goes round to log out, the last thing in the menu; Tab comes back.
	await page.keyboard.press('Shift+Tab')
	await expect(page.locator('.shell__side').getByRole('button', { name: enAuth('logout.button') })).toBeFocused()
	await page.keyboard.press('Tab')
	await expect(summary).toBeFocused()
	await page.keyboard.press('Escape')
	await expect(menu).toBeHidden()
	await expect(summary).toBeFocused()

	// A click outside closes it too (on the header's name, under the open panel: no link, so no
	// navigation closes it instead).
	await summary.click()
	await expect(menu).toBeVisible()
	const here = page.url()
	await page.locator('.shell__header .shell__name').dispatchEvent('click')
	await expect(menu).toBeHidden()
	expect(page.url()).toBe(here)
})
