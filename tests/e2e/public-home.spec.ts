import { dictionary, expect, javaScriptModes, open, test } from './fixtures'

// The demo data's paid (featured) workshops and its newest review (app/db/seed/demo-data.server.ts).
const paid = ['Tallinna Rehvikeskus', 'Tartu Autoremont', 'EV Garaaž', 'Premium Auto Service Tallinn']

for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`the home page with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		for (const language of ['et', 'en'] as const) {
			test(`explains the service, features workshops and shows the latest reviews in ${language}`, async ({ page }) => {
				const t = dictionary(language, 'public')
				const common = dictionary(language)
				await open(page, `/?lng=${language}`, javaScriptEnabled)
				await expect(page.getByRole('heading', { level: 1 })).toHaveText(common('home.heroTitle'))
				for (const step of ['request', 'compare', 'progress', 'feedback']) {
					await expect(page.getByRole('heading', { name: common(`home.steps.${step}.title`) })).toBeVisible()
				}

				// The best rated, as the directory sorts them: payment plays no part, and no card says "Featured" (issue 32).
				const featured = page.getByRole('region', { name: t('home.featuredTitle') })
				const cards = featured.getByRole('article')
				await expect(cards).toHaveCount(6)
				const shown = await cards.getByRole('heading').allTextContents()
				const list = (await (await page.request.get(`/admin/api/workshop-list?lng=${language}`)).json()) as { data: { items: Array<{ name: string }> } }
				expect(shown).toEqual(list.data.items.slice(0, 6).map((w) => w.name))
				expect(shown.slice(0, 4).sort()).not.toEqual([...paid].sort())
				await expect(featured.getByText(t('workshop.featured'))).toHaveCount(0)

				// Latest reviews, newest first, with stars read out as "n out of 5".
				const reviews = page.getByRole('region', { name: t('home.latestReviews') })
				await expect(reviews.getByRole('article')).toHaveCount(6)
				// Other tests running beside this one may have added newer reviews: the demo's newest is among the six.
				const newestDemoReview = reviews.getByRole('article').filter({ hasText: 'Auto sõidab jälle otse' })
				await expect(newestDemoReview.getByRole('link', { name: 'Kask Autoteenindus' })).toBeVisible()
				const times = await reviews.getByRole('article').locator('time').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('datetime') ?? ''))
				expect(times, 'newest first').toEqual([...times].sort().reverse())
				await expect(reviews.getByRole('img', { name: t('stars.label').replace('{{rating}}', language === 'en' ? '5.0' : '5,0') }).first()).toBeVisible()

				// Calls to join, as a customer or as a workshop.
				await expect(page.getByRole('link', { name: common('home.ctaCustomerRegister') })).toHaveAttribute('href', '/register?role=customer')
				await expect(page.getByRole('link', { name: common('home.ctaWorkshop') })).toHaveAttribute('href', '/register?role=workshop')

				// The ad areas: HTML at the top, an image with its link at the bottom.
				// In the reader's language only (issue 32).
				await expect(page.getByRole('complementary', { name: t('ads.headerLabel') })).toContainText(language === 'et' ? 'Talverehvid' : 'Winter tyres')
				const footerAd = page.getByRole('complementary', { name: t('ads.footerLabel') })
				await expect(footerAd.getByRole('link')).toHaveAttribute('href', '/workshop-list?service=maintenance')
				await expect(footerAd.getByRole('img', { name: t('ads.imageAlt') })).toBeVisible()
			})
		}

		test('the search leads to the list with the chosen filters', async ({ page }) => {
			const t = dictionary('en', 'public')
			await open(page, '/?lng=en', javaScriptEnabled)
			const search = page.getByRole('search', { name: t('home.searchTitle') })
			await search.getByLabel(t('search.city')).selectOption({ label: 'Tallinn' })
			await search.getByLabel(t('search.service')).selectOption({ label: 'Tyre change and storage' })
			await search.getByRole('button', { name: t('home.searchSubmit') }).click()
			// Empty fields are dropped from the address, so it can be shared as it is.
			await expect(page).toHaveURL(/\/workshop-list\?city=tallinn&service=tyres$/)
			await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('list.title'))
			// The demo's tyre workshops in Tallinn (other tests may add their own), and only Tallinn ones.
			const articles = page.getByRole('main').getByRole('article')
			await expect(articles.filter({ hasText: 'Kask Autoteenindus' })).toHaveCount(1)
			const names = await articles.getByRole('heading').allTextContents()
			expect(names).toEqual(expect.arrayContaining(['EV Garaaž', 'Kask Autoteenindus', 'Tallinna Rehvikeskus']))
			for (const text of await articles.allTextContents()) expect(text).toContain('Tallinn')
		})
	})
}
