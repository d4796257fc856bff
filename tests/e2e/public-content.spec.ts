import { dictionary, expect, javaScriptModes, open, test } from './fixtures'

// Titles and a heading of each page's body, from app/db/seed/content-pages.ts.
const pages = {
	'/about': { et: ['Meist', 'Kuidas see töötab'], en: ['About us', 'How it works'], link: 'nav.about' },
	'/terms-conditions': { et: ['Kasutustingimused', '2. Konto'], en: ['Terms and conditions', '2. Your account'], link: 'nav.terms' },
	'/privacy-poicy': { et: ['Privaatsuspoliitika', 'Sinu õigused'], en: ['Privacy policy', 'Your rights'], link: 'nav.privacy' },
} as const

for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`the content pages with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		for (const language of ['et', 'en'] as const) {
			test(`are reached from the footer and show the ${language} text`, async ({ page }) => {
				const common = dictionary(language)
				await open(page, `/?lng=${language}`, javaScriptEnabled)
				for (const [path, page_] of Object.entries(pages)) {
					const [title, section] = page_[language]
					await page.getByRole('contentinfo').getByRole('link', { name: common(page_.link), exact: true }).click()
					await expect(page).toHaveURL(new RegExp(`${path}$`))
					await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
					await expect(page.getByRole('heading', { level: 2, name: section })).toBeVisible()
					await expect(page).toHaveTitle(`${title} · Autohub`)
				}
			})
		}

		test('the thank-you page confirms the subscription and the invoice', async ({ page }) => {
			const t = dictionary('en', 'public')
			await open(page, '/thank-you?lng=en', javaScriptEnabled)
			await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('thankYou.title'))
			await expect(page.getByText(t('thankYou.invoice'))).toBeVisible()
			await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, follow')
		})
	})
}
