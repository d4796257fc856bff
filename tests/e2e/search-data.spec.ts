import { type Page } from '@playwright/test'
import { dictionary, expect, javaScriptModes, open, test } from './fixtures'

/** Issue 16, part 8: schema.org data for search engines, and breadcrumbs a person sees too. */
const origin = `http://127.0.0.1:${process.env.E2E_PORT ?? '3210'}`

type Thing = { '@type': string; [key: string]: unknown }

/** Every JSON-LD block of the page, parsed, its things flattened out of `@graph`. */
async function searchData(page: Page): Promise<Thing[]> {
	const blocks = await page.locator('script[type="application/ld+json"]').allTextContents()
	return blocks.flatMap((text) => {
		const data = JSON.parse(text) as Thing & { '@graph'?: Thing[] }
		expect(data['@context']).toBe('https://schema.org')
		return data['@graph'] ?? [data]
	})
}
const ofType = (things: Thing[], type: string) => things.filter((thing) => thing['@type'] === type)

for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`search data with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		test('a workshop’s page describes an AutoRepair with its rating and reviews, under visible breadcrumbs', async ({ page }) => {
			const t = dictionary('en', 'public')
			await open(page, '/workshop-list?q=viljandi&lng=en', javaScriptEnabled)
			// With JavaScript on, the page is rendered in the browser: its data must be there all the same.
			await page.getByRole('link', { name: 'Viljandi Autokeskus' }).click()
			await expect(page.getByRole('heading', { level: 1 })).toHaveText('Viljandi Autokeskus')
			const crumbs = page.getByRole('navigation', { name: t('breadcrumbs.label') })
			await expect(crumbs.getByRole('listitem')).toHaveText([t('breadcrumbs.home'), t('list.title'), 'Viljandi', 'Viljandi Autokeskus'])
			await expect(crumbs.getByRole('link', { name: 'Viljandi' })).toHaveAttribute('href', '/workshop-list?city=viljandi')

			const things = await searchData(page)
			const [repair] = ofType(things, 'AutoRepair')
			expect(repair).toMatchObject({
				name: 'Viljandi Autokeskus',
				url: `${origin}${new URL(page.url()).pathname}`,
				address: { '@type': 'PostalAddress', streetAddress: 'Riia mnt 27', addressLocality: 'Viljandi', addressCountry: 'EE' },
				aggregateRating: { '@type': 'AggregateRating', bestRating: 5 },
			})
			expect((repair!.aggregateRating as { reviewCount: number }).reviewCount).toBeGreaterThanOrEqual(6)
			const reviews = repair!.review as Array<Thing & { author: { name: string }; reviewRating: { ratingValue: number } }>
			expect(reviews).toHaveLength(5)
			for (const review of reviews) {
				expect(review['@type']).toBe('Review')
				expect(review.author.name).toMatch(/^\S+ \S\.$/)
				expect(review.reviewRating.ratingValue).toBeGreaterThanOrEqual(1)
				expect(review.datePublished).toMatch(/^\d{4}-\d\d-\d\d$/)
			}
			expect(repair!.openingHoursSpecification).toEqual(expect.arrayContaining([expect.objectContaining({ '@type': 'OpeningHoursSpecification' })]))

			const [trail] = ofType(things, 'BreadcrumbList')
			expect((trail!.itemListElement as Array<{ name: string; position: number }>).map((item) => [item.position, item.name])).toEqual([
				[1, t('breadcrumbs.home')],
				[2, t('list.title')],
				[3, 'Viljandi'],
				[4, 'Viljandi Autokeskus'],
			])
		})

		test('the home page names the organization and the site with its search', async ({ page }) => {
			await open(page, '/?lng=en', javaScriptEnabled)
			const things = await searchData(page)
			expect(ofType(things, 'Organization')[0]).toMatchObject({ name: 'Autohub', url: `${origin}/`, logo: expect.stringMatching(new RegExp(`^${origin}/uploads/`)) })
			expect(ofType(things, 'WebSite')[0]).toMatchObject({
				url: `${origin}/`,
				potentialAction: { '@type': 'SearchAction', target: { urlTemplate: `${origin}/workshop-list?q={search_term_string}` } },
			})
			// The search it names works.
			await open(page, '/workshop-list?q=viljandi&lng=en', javaScriptEnabled)
			await expect(page.getByRole('main').getByRole('article')).toHaveCount(1)
		})

		test('the directory and /cities carry their breadcrumbs as data', async ({ page }) => {
			for (const path of ['/workshop-list?lng=en', '/workshop-list?city=tartu&lng=en', '/cities?lng=en']) {
				await open(page, path, javaScriptEnabled)
				const [trail] = ofType(await searchData(page), 'BreadcrumbList')
				const items = trail!.itemListElement as Array<{ item: string }>
				expect(items.at(-1)!.item, path).toBe(`${origin}${path}`)
			}
		})
	})
}

test('the sitemap lists /cities and the pages of the cities with workshops', async ({ request }) => {
	const xml = await (await request.get('/sitemap.xml')).text()
	expect(xml).toContain(`<loc>${origin}/cities</loc>`)
	expect(xml).toContain(`<loc>${origin}/workshop-list?city=tartu</loc>`)
	expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="et" href="${origin}/workshop-list?city=tartu&amp;lng=et"/>`)
})
