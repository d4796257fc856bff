import { type Page } from '@playwright/test'
import { dictionary, expect, javaScriptModes, open, test } from './fixtures'

/**
 * Issue 35, the price pages: a service's usual price in a city's county with the jobs and workshops
 * behind it, the city's workshops doing it, the service's page by county and city, a 404 for what
 * is not there; on a phone and a desktop, in three languages.
 */
const viewports = { phone: { width: 360, height: 780 }, desktop: { width: 1366, height: 900 } } as const
/** The demo's names (app/db/seed/reference-data.ts). */
const brakes = { et: 'Pidurite remont', en: 'Brake repair', ru: 'Ремонт тормозов' } as const
const tallinn = { et: 'Tallinn', en: 'Tallinn', ru: 'Таллин' } as const

const sidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`the price pages with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		for (const [device, viewport] of Object.entries(viewports)) {
			test(`Tallinn's brake repairs: the usual price with its jobs and workshops, and the way to a workshop (${device})`, async ({ page }) => {
				await page.setViewportSize(viewport)
				const t = dictionary('en', 'public')
				const common = dictionary('en')
				// Found from the directory filtered on the service and the city.
				await open(page, '/workshop-list?city=tallinn&service=brakes&lng=en', javaScriptEnabled)
				await page.getByRole('link', { name: t('pricePages.seeCityPrices', { service: brakes.en, city: tallinn.en }) }).click()
				await expect(page).toHaveURL(/\/prices\/brakes\/tallinn(\?|$)/)
				await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('pricePages.cityTitle', { service: brakes.en, city: tallinn.en }))
				const crumbs = page.getByRole('navigation', { name: t('breadcrumbs.label') })
				await expect(crumbs.getByRole('listitem')).toHaveText([t('breadcrumbs.home'), t('pricePages.crumb', { service: brakes.en }), tallinn.en])

				// The usual price of a family car in Harju County: the range, the median, and what it rests on.
				const usualTitle = t('pricePages.usualTitle', { area: common('county.harju') })
				const family = page.getByRole('list', { name: usualTitle }).getByRole('listitem').filter({ hasText: common('vehicleClass.family') })
				await expect(family).toContainText(/usually €\d+ – €\d+/)
				await expect(family).toContainText(/median €\d+/)
				await expect(family).toContainText(/from \d+ jobs at \d+ workshops, [A-Z][a-z]+ \d{4} – [A-Z][a-z]+ \d{4}/)
				const [, jobs, workshops] = /from (\d+) jobs at (\d+) workshops/.exec((await family.textContent())!)!
				expect(Number(jobs)).toBeGreaterThanOrEqual(5)
				expect(Number(workshops)).toBeGreaterThanOrEqual(3)
				expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0)

				// The city's workshops that do it (with a fixed price or without); one opens its page.
				const doing = (key: string) => page.getByRole('region', { name: t(key, { city: tallinn.en }) })
				await expect(doing('pricePages.offeringTitleAll').or(doing('pricePages.offeringTitle'))).toBeVisible()
				await page.getByRole('main').getByRole('link', { name: 'Kask Autoteenindus', exact: true }).click()
				await expect(page).toHaveURL(/\/workshop-details\/[\w-]+/)
				await expect(page.getByRole('heading', { level: 1 })).toHaveText('Kask Autoteenindus')
			})
		}

		test('the service’s page: the usual price by county, each city leading to its own page; headings in Estonian, English and Russian', async ({ page }) => {
			for (const language of ['et', 'en', 'ru'] as const) {
				const t = dictionary(language, 'public')
				const common = dictionary(language)
				await open(page, `/prices/brakes?lng=${language}`, javaScriptEnabled)
				await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('pricePages.serviceTitle', { service: brakes[language] }))
				await expect(page).toHaveTitle(`${t('pricePages.serviceMetaTitle', { service: brakes[language] })} · Autohub`)
				const counties = page.getByRole('region', { name: t('pricePages.countiesTitle') })
				await expect(counties.getByRole('heading', { level: 3, name: common('county.harju') })).toBeVisible()
				await expect(counties.getByRole('list', { name: common('county.harju') }).getByRole('listitem').filter({ hasText: common('vehicleClass.family') })).toContainText(
					t('pricePages.usually', { range: '' }).trim(),
				)

				await page.getByRole('region', { name: t('pricePages.citiesTitle') }).getByRole('link', { name: new RegExp(`^${tallinn[language]}`) }).click()
				await expect(page).toHaveURL(/\/prices\/brakes\/tallinn(\?|$)/)
				await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('pricePages.cityTitle', { service: brakes[language], city: tallinn[language] }))
				await expect(page.getByRole('heading', { level: 2, name: t('pricePages.usualTitle', { area: common('county.harju') }) })).toBeVisible()
			}
		})

		test('a city without enough jobs says so; an unknown city or service is the not-found page', async ({ page }) => {
			const t = dictionary('en', 'public')
			const common = dictionary('en')
			// Pärnu County: one workshop there does bodywork, which is no usual price.
			await open(page, '/prices/bodywork/parnu?lng=en', javaScriptEnabled)
			await expect(page.getByRole('region', { name: t('pricePages.usualTitle', { area: common('county.parnu') }) })).toContainText(
				t('pricePages.notEnough', { jobs: 5, workshops: 3, area: common('county.parnu') }),
			)
			await expect(page.getByRole('main').getByRole('link', { name: 'Pärnu Kereremont' })).toBeVisible()

			for (const path of ['/prices/brakes/atlantis', '/prices/teleportation/tallinn', '/prices/teleportation']) {
				const response = await open(page, `${path}?lng=en`, javaScriptEnabled)
				expect(response?.status(), path).toBe(404)
				await expect(page.getByRole('heading', { level: 1 })).toHaveText(common('errors.notFoundTitle'))
				await expect(page).toHaveTitle('404 · Autohub')
			}
		})
	})
}
