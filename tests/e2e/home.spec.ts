import { dictionary, expect, javaScriptModes, open, test } from './fixtures'

const languages = ['et', 'en', 'ru'] as const
const codes = { et: 'EE', en: 'EN', ru: 'RU' } as const
// The side address block shows the demo data's address of each language.
const addresses = {
	et: 'Narva mnt 7, 10117 Tallinn, Eesti',
	en: 'Narva Road 7, 10117 Tallinn, Estonia',
	ru: 'Нарвское шоссе 7, 10117 Таллин, Эстония',
} as const

for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`the home page with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		for (const language of languages) {
			test(`renders in ${language}`, async ({ page }) => {
				const t = dictionary(language)
				await page.goto(`/?lng=${language}`)
				await expect(page.locator('html')).toHaveAttribute('lang', language)
				await expect(page).toHaveTitle(`${t('home.metaTitle')} · Autohub`)
				await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('home.heroTitle'))
				await expect(page.getByRole('heading', { name: t('home.howTitle') })).toBeVisible()
				for (const step of ['request', 'compare', 'progress', 'feedback']) {
					await expect(page.getByRole('heading', { name: t(`home.steps.${step}.title`) })).toBeVisible()
				}

				// Header: the site name and logo from site settings, the public links and the selector.
				const header = page.getByRole('banner')
				await expect(header.getByRole('link', { name: t('nav.homeOf').replace('{{site}}', 'Autohub') })).toBeVisible()
				await expect(header.locator('img.brand__logo')).toHaveAttribute('src', /^\/uploads\//)
				const selector = page.getByRole('navigation', { name: t('language.label') })
				await expect(selector.getByRole('link')).toHaveText(['EE', 'EN', 'RU'])
				await expect(selector.getByRole('link', { name: codes[language] })).toHaveAttribute('aria-current', 'true')

				// Footer: the address block in this language, e-mail, phone with country code.
				const footer = page.getByRole('contentinfo')
				await expect(footer).toContainText(addresses[language])
				await expect(footer.getByRole('link', { name: 'info@autohub.example' })).toHaveAttribute('href', 'mailto:info@autohub.example')
				await expect(footer.getByRole('link', { name: '+372 600 1234' })).toHaveAttribute('href', 'tel:+3726001234')
				for (const page of ['about', 'terms', 'privacy', 'contact', 'workshops']) {
					await expect(footer.getByRole('link', { name: t(`nav.${page}`), exact: true })).toBeVisible()
				}
			})
		}

		test('the language selector switches the language and the choice is remembered', async ({ page }) => {
			await open(page, '/', javaScriptEnabled)
			await expect(page.locator('html')).toHaveAttribute('lang', 'et')
			await expect(page.getByRole('heading', { level: 1 })).toHaveText(dictionary('et')('home.heroTitle'))

			await page.getByRole('link', { name: 'EN', exact: true }).click()
			await expect(page.locator('html')).toHaveAttribute('lang', 'en')
			await expect(page.getByRole('heading', { level: 1 })).toHaveText(dictionary('en')('home.heroTitle'))

			// A later visit without ?lng= keeps English: the cookie remembered it.
			await open(page, '/', javaScriptEnabled)
			await expect(page.locator('html')).toHaveAttribute('lang', 'en')
			await expect(page.getByRole('heading', { level: 1 })).toHaveText(dictionary('en')('home.heroTitle'))

			await page.getByRole('link', { name: 'RU', exact: true }).click()
			await expect(page.getByRole('heading', { level: 1 })).toHaveText(dictionary('ru')('home.heroTitle'))
			await expect(page.getByRole('contentinfo')).toContainText(addresses.ru)
		})
	})
}

test('the home page hydrates: the browser takes over navigation with JavaScript on', async ({ page }) => {
	await page.goto('/?lng=en')
	await page.waitForFunction(() => (window as unknown as { __reactRouterDataRouter?: { state: { initialized: boolean } } }).__reactRouterDataRouter?.state.initialized)
	// A client-side navigation keeps the same document.
	await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42))
	await page.getByRole('link', { name: 'RU', exact: true }).click()
	await expect(page.locator('html')).toHaveAttribute('lang', 'ru')
	expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42)
})

test('a phone-sized screen shows the whole header without overflow', async ({ page }) => {
	await page.setViewportSize({ width: 360, height: 740 })
	await page.goto('/?lng=ru')
	const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
	expect(overflow).toBeLessThanOrEqual(0)
	// Log in and Register stay in sight; the languages sit behind the menu button.
	await expect(page.locator('.site-header').getByRole('link', { name: dictionary('ru')('nav.register'), exact: true })).toBeVisible()
	await page.locator('.site-header summary').click()
	await expect(page.getByRole('navigation', { name: dictionary('ru')('language.label') })).toBeVisible()
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
})
