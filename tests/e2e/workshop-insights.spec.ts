import { type Page } from '@playwright/test'
import { demo, dictionary, expect, expectToast, javaScriptModes, login, open, test } from './fixtures'
import { seriousAxeViolations } from './axe'

/**
 * The workshop's growth page (issue 37, decision 0155) as the demo workshop: its figures, the
 * period switch (links, so JavaScript may be off), on a 360 px phone and at 1366 px, in three
 * languages, without an axe violation; another role is sent to its dashboard.
 */
const w = { en: dictionary('en', 'workshop'), et: dictionary('et', 'workshop'), ru: dictionary('ru', 'workshop') }
const enAuth = dictionary('en', 'auth')
const enAccount = dictionary('en', 'account')

const views = [
	{ name: 'a 360 px phone', width: 360, height: 780 },
	{ name: 'a 1366 px desktop', width: 1366, height: 900 },
] as const

async function noSeriousViolations(page: Page) {
	expect(await seriousAxeViolations(page)).toEqual([])
}

for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`the growth page with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		for (const view of views) {
			test(`shows the demo workshop's figures and switches the period on ${view.name}`, async ({ page }) => {
				test.setTimeout(120_000)
				await page.setViewportSize({ width: view.width, height: view.height })
				await login(page, demo.workshop.email, demo.workshop.password)
				await open(page, '/dashboard?lng=en', javaScriptEnabled)

				// The menu leads there: the side menu at 1366 px, behind the menu button on a phone.
				if (view.width < 960) await page.locator('.shell__side summary').click()
				await page.getByRole('navigation', { name: enAccount('menu.label') }).getByRole('link', { name: w.en('insights.menu'), exact: true }).click()
				await expect(page).toHaveURL(/\/workshop-insights$/)
				await expect(page.getByRole('heading', { level: 1, name: w.en('insights.title') })).toBeVisible()

				const tabs = page.getByRole('navigation', { name: w.en('insights.periodLabel') })
				await expect(tabs.getByRole('link', { name: w.en('insights.period.30') })).toHaveAttribute('aria-current', 'page')
				for (const heading of ['compare.title', 'seen.title', 'work.title', 'rating.title', 'partners.title']) {
					await expect(page.getByRole('heading', { level: 2, name: w.en(`insights.${heading}`) })).toBeVisible()
				}
				// The last 30 days: the free package, views in the thousands' range from the demo's daily counts.
				await expect(page.locator('.insights__verdict')).toContainText('On the Free package Autohub cost you nothing')
				const views30 = page.locator('.stat').filter({ hasText: w.en('insights.seen.views') }).locator('.stat__value')
				await expect(views30).not.toHaveText('0')
				await expect(page.getByRole('table', { name: w.en('insights.partners.caption') }).getByRole('rowheader', { name: 'Autoklubi (demo)' })).toBeVisible()
				const rating = page.getByRole('table', { name: w.en('insights.rating.caption') })
				await expect(rating.locator('tbody tr')).not.toHaveCount(0)
				await page.screenshot({ path: `test-results/insights-30-${view.width}-${javaScriptEnabled ? 'js' : 'nojs'}.png`, fullPage: true })

				// The last 365 days: the paid month is there.
				await tabs.getByRole('link', { name: w.en('insights.period.365') }).click()
				await expect(page).toHaveURL(/\?period=365$/)
				await expect(tabs.getByRole('link', { name: w.en('insights.period.365') })).toHaveAttribute('aria-current', 'page')
				await expect(page.locator('.insights__verdict')).toContainText('The Pro package cost €29.00; jobs won through Autohub paid €')
				await expect(page.locator('.insights__ratio')).toBeVisible()
				await expect(rating.locator('tbody tr')).toHaveCount(13)
				const won = page.locator('.stat').filter({ hasText: w.en('insights.work.won') })
				await expect(won.locator('.stat__detail')).toContainText(/Win rate: \d+%/)
				await page.screenshot({ path: `test-results/insights-365-${view.width}-${javaScriptEnabled ? 'js' : 'nojs'}.png`, fullPage: true })

				// Never wider than the phone; no serious accessibility fault.
				expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(view.width)
				if (javaScriptEnabled) await noSeriousViolations(page)
			})
		}

		test('speaks Estonian and Russian too', async ({ page }) => {
			await login(page, demo.workshop.email, demo.workshop.password)
			for (const language of ['et', 'ru'] as const) {
				await open(page, `/workshop-insights?period=365&lng=${language}`, javaScriptEnabled)
				await expect(page.getByRole('heading', { level: 1, name: w[language]('insights.title') })).toBeVisible()
				for (const heading of ['compare.title', 'seen.title', 'work.title', 'rating.title', 'partners.title']) {
					await expect(page.getByRole('heading', { level: 2, name: w[language](`insights.${heading}`) })).toBeVisible()
				}
				await expect(page.getByRole('link', { name: w[language]('insights.period.30') })).toBeVisible()
				// Money in the reader's language: "29,00 €".
				await expect(page.locator('.insights__verdict')).toContainText('29,00')
				await page.setViewportSize({ width: 360, height: 780 })
				expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
				await page.screenshot({ path: `test-results/insights-365-360-${language}-${javaScriptEnabled ? 'js' : 'nojs'}.png`, fullPage: true })
				await page.setViewportSize({ width: 1280, height: 720 })
			}
		})

		test('another role is sent to its dashboard', async ({ page }) => {
			await login(page, demo.customer.email, demo.customer.password)
			await open(page, '/dashboard?lng=en', javaScriptEnabled)
			await page.goto('/workshop-insights')
			await expect(page).toHaveURL(/\/dashboard$/)
			await expectToast(page, enAuth('guard.noPermission'))
		})
	})
}
