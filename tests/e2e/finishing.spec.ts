import { demo, dictionary, expect, login, open, test } from './fixtures'

/** Issue 16, part 9: the finishing touches a reader sees. */
const c = dictionary('en', 'customer')
const w = dictionary('en', 'workshop')

test.describe('filter tabs', () => {
	// The page's own tab is the one "page"; the side menu names its section with "true".
	const cases = [
		{ who: demo.customer, url: '/my-requests?lng=en', tab: c('requests.filters.open') },
		{ who: demo.customer, url: '/my-requests?status=all&lng=en', tab: c('requests.filters.all') },
		{ who: demo.customer, url: '/my-requests?status=completed&lng=en', tab: c('requests.filters.completed') },
		{ who: demo.workshop, url: '/customer-requests?lng=en', tab: w('requests.notYetBid') },
		{ who: demo.workshop, url: '/customer-requests?show=all&lng=en', tab: w('requests.allOpen') },
		{ who: demo.workshop, url: '/workshop-bid-history?lng=en', tab: w('bids.all') },
	]
	for (const { who, url, tab } of cases) {
		test(`only the active filter is the current page on ${url}`, async ({ page }) => {
			await login(page, who.email, who.password)
			await open(page, url, false)
			const current = page.locator('[aria-current="page"]')
			await expect(current).toHaveCount(1)
			await expect(current).toHaveText(tab)
			await expect(current.locator('xpath=ancestor::nav')).toHaveAttribute('aria-label', c('requests.filterLabel'))
		})
	}
})

test.describe('the side menu in Russian', () => {
	for (const width of [1366, 960]) {
		for (const who of [demo.customer, demo.workshop]) {
			test(`keeps its icons' size and its labels inside at ${width} px (${who.email})`, async ({ page }) => {
				await page.setViewportSize({ width, height: 800 })
				await login(page, who.email, who.password)
				await open(page, '/dashboard?lng=ru', false)
				const links = page.locator('.shell__side-menu .side-menu a')
				expect(await links.count()).toBeGreaterThan(5)
				const boxes = await links.evaluateAll((anchors) =>
					anchors.map((a) => {
						const icon = a.querySelector('svg')!.getBoundingClientRect()
						return { label: a.textContent, icon: [icon.width, icon.height], overflows: a.scrollWidth > a.clientWidth }
					}),
				)
				for (const box of boxes) expect(box, box.label ?? '').toEqual({ label: box.label, icon: [20, 20], overflows: false })
			})
		}
	}
})
