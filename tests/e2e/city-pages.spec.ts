import { dictionary, expect, javaScriptModes, open, test } from './fixtures'

const fill = (text: string, values: Record<string, string | number>) =>
	Object.entries(values).reduce((result, [key, value]) => result.replace(`{{${key}}}`, String(value)), text)

/** Issue 16, part 7: the directory by city. */
for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`the cities with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		for (const language of ['et', 'ru'] as const) {
			test(`lists the cities with their workshops and opens a city's page in ${language}`, async ({ page }) => {
				const t = dictionary(language, 'public')
				const common = dictionary(language)
				// Found from the footer of any public page.
				await open(page, `/workshop-list?lng=${language}`, javaScriptEnabled)
				await page.getByRole('contentinfo').getByRole('link', { name: common('nav.cities') }).click()
				await expect(page).toHaveURL(/\/cities(\?|$)/)
				await expect(page).toHaveTitle(`${t('cities.metaTitle')} · Autohub`)
				await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('cities.title'))
				const crumbs = page.getByRole('navigation', { name: t('breadcrumbs.label') })
				await expect(crumbs.getByRole('listitem')).toHaveText([t('breadcrumbs.home'), t('list.title'), t('cities.crumb')])

				// Every city, with how many workshops it has (other tests may add some: at least the demo's).
				const cities = page.getByRole('list', { name: t('cities.crumb') }).getByRole('listitem')
				expect(await cities.count()).toBeGreaterThanOrEqual(13)
				const tartuName = language === 'ru' ? 'Тарту' : 'Tartu'
				const tartu = cities.getByRole('link', { name: new RegExp(`^${tartuName}`) })
				// "Tartu 1 töökoda", "Тарту 1 автосервис" (the word's stem is the same in every plural form here).
				await expect(tartu).toHaveText(new RegExp(`^${tartuName}\\s*\\d+ ${t('cities.workshops_one').replace('{{total}} ', '')}`))
				await expect(cities.getByRole('link', { name: new RegExp(`^${language === 'ru' ? 'Пайде' : 'Paide'}`) })).toContainText(t('cities.none'))

				const listed = Number((await tartu.textContent())!.match(/\d+/)![0])
				await tartu.click()
				await expect(page).toHaveURL(/\/workshop-list\?city=tartu(&|$)/)
				const title = fill(t('list.cityMetaTitle'), { city: tartuName })
				await expect(page).toHaveTitle(`${title} · Autohub`)
				await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
				await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', fill(t('list.cityMetaDescription'), { city: tartuName }))
				const results = page.getByRole('region', { name: t('list.resultsTitle') })
				await expect(results.getByRole('article').filter({ hasText: 'Tartu Autoremont' })).toBeVisible()
				// The city's workshops, as many as /cities counted, and no other city's.
				await expect(results.getByRole('article')).toHaveCount(listed)
				await expect(results.locator('.workshop-card__city')).toHaveText(Array(listed).fill(tartuName))
				await expect(crumbs.getByRole('listitem')).toHaveText([t('breadcrumbs.home'), t('list.title'), tartuName])
				await expect(crumbs.getByRole('listitem').last()).toHaveAttribute('aria-current', 'page')

				// The directory leads back to the cities.
				await crumbs.getByRole('link', { name: t('list.title') }).click()
				await expect(page).toHaveURL(/\/workshop-list(\?lng=\w+)?$/)
				await page.getByRole('main').getByRole('link', { name: common('nav.cities') }).click()
				await expect(page).toHaveURL(/\/cities(\?|$)/)
			})
		}
	})
}
