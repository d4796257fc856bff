import { type Page } from '@playwright/test'
import { demo, dictionary, expect, expectToast, javaScriptModes, login, open, test, uniqueEmail } from './fixtures'
import { completeTyreWorkshopProfile, person, register, vehicleAndTyreRequest } from './people'

/**
 * Issue 19, part 1: a workshop offers in lines (labour, parts, a fee), adding and removing them
 * with JavaScript off as on; a bad line is refused at its field and nothing is sent; the customer
 * sees what the price is made of and the total the server computed, not one the form claimed.
 */
const w = dictionary('en', 'workshop')
const common = dictionary('en')
const c = dictionary('en', 'customer')

/** A text with its {{placeholders}} filled. */
const filled = (text: string, params: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name]))

/** The n-th line of the form (1-based). */
const line = (page: Page, n: number) => page.locator('.offer-lines__line').nth(n - 1)

for (const javaScriptEnabled of javaScriptModes) {
	test(`an itemised offer, made and compared, with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async ({ browser, baseURL }) => {
		test.setTimeout(150_000)
		const token = Math.random().toString(36).slice(2, 8)
		const workshopName = `Lines Garage ${token}`
		const garage = await person(browser, javaScriptEnabled, baseURL)
		const customer = await person(browser, javaScriptEnabled, baseURL)
		await register(garage, 'workshop', uniqueEmail('lines-garage'), { first: 'Liis', last: 'Lines', workshop: workshopName })
		await completeTyreWorkshopProfile(garage, javaScriptEnabled)
		await register(customer, 'customer', uniqueEmail('lines-customer'), { first: 'Karl', last: 'Kask' })
		const slug = await vehicleAndTyreRequest(customer, token, javaScriptEnabled)

		await open(garage, `/customer-request-details/${slug}`, javaScriptEnabled)
		await expect(garage.getByLabel(w('offer.price'))).toBeVisible()
		// Labour: the one price field goes, since the lines make the price.
		await garage.getByRole('button', { name: w('offer.addLabour') }).click()
		await expect(line(garage, 1)).toBeVisible()
		await expect(garage.getByLabel(w('offer.price'))).toHaveCount(0)
		await line(garage, 1).getByLabel(w('offer.lineDescription')).fill('Tyre change and balancing')
		await line(garage, 1).getByLabel(w('offer.hours')).fill('1,5')
		await line(garage, 1).getByLabel(w('offer.hourlyRate')).fill('40')
		// Two parts, one of them removed again; what was typed in the first line stays.
		await garage.getByRole('button', { name: w('offer.addPart') }).click()
		await garage.getByRole('button', { name: w('offer.addPart') }).click()
		await expect(garage.locator('.offer-lines__line')).toHaveCount(3)
		await expect(line(garage, 1).getByLabel(w('offer.lineDescription'))).toHaveValue('Tyre change and balancing')
		await garage.getByRole('button', { name: filled(w('offer.removeLine'), { number: 3 }) }).click()
		await expect(garage.locator('.offer-lines__line')).toHaveCount(2)
		await line(garage, 2).getByLabel(w('offer.lineDescription')).fill('Valve stems')
		await line(garage, 2).getByLabel(w('offer.lineReference')).fill('Schrader 414')
		await line(garage, 2).getByLabel(w('offer.quality')).selectOption('aftermarket')
		await line(garage, 2).getByLabel(w('offer.quantity')).fill('4')
		await line(garage, 2).getByLabel(w('offer.unitPrice')).fill('0')
		await garage.getByRole('button', { name: w('offer.addFee') }).click()
		await line(garage, 3).getByLabel(w('offer.lineDescription')).fill('Disposal')
		await line(garage, 3).getByLabel(w('offer.unitPrice')).fill('3')
		await garage.getByLabel(w('offer.earliestStart')).fill('2099-03-02')
		await garage.getByLabel(w('offer.durationDays')).fill('1')

		// A part at €0 is refused at its field, and nothing is sent.
		await garage.getByRole('button', { name: w('offer.send') }).click()
		await expect(line(garage, 2).getByText(common('validation.money'))).toBeVisible()
		await expect(garage.getByRole('heading', { name: w('requestPage.yourOffer') })).toHaveCount(0)

		await line(garage, 2).getByLabel(w('offer.unitPrice')).fill('2,50')
		// 60.00 + 10.00 + 3.00, VAT included.
		if (javaScriptEnabled) await expect(garage.locator('.offer-lines__total')).toHaveText(filled(w('offer.linesTotal'), { total: '€73.00' }))
		await garage.getByRole('button', { name: w('offer.send') }).click()
		await expectToast(garage, w('offer.made'))
		await expect(garage.getByRole('heading', { name: w('requestPage.yourOffer') })).toBeVisible()
		// The workshop's own offer comes back to its form as it was typed.
		await expect(line(garage, 2).getByLabel(w('offer.lineReference'))).toHaveValue('Schrader 414')

		await open(customer, `/compaire-offers/${slug}`, javaScriptEnabled)
		const card = customer.locator('.offer-card').filter({ hasText: workshopName })
		await expect(card.locator('.offer-card__amount')).toHaveText('€73.00')
		const table = card.getByRole('table', { name: common('offerTerms.linesTitle') })
		await expect(table.getByRole('row')).toHaveCount(4)
		await expect(table.getByRole('row').nth(1)).toContainText('Tyre change and balancing')
		await expect(table.getByRole('row').nth(1)).toContainText('€60.00')
		await expect(table.getByRole('row').nth(2)).toContainText('Schrader 414')
		await expect(table.getByRole('row').nth(2)).toContainText(common('partQuality.aftermarket'))
		await expect(card.locator('.offer-terms__total')).toContainText('€73.00')
		await expect(card).toContainText(common('offerTerms.vatIncluded'))
		await expect(card).toContainText(filled(common('offerTerms.days_one'), { count: 1 }))
		await expect(card).toContainText('2 March 2099')
	})
}

/** The demo customer's open request and its three offers, two of them itemised (demo data). */
async function demoComparison(page: Page, javaScriptEnabled: boolean) {
	await login(page, demo.customer.email, demo.customer.password)
	await open(page, '/customer-requests?lng=en', javaScriptEnabled)
	const compare = page.locator('a[href^="/compaire-offers/"]').first()
	await open(page, `${await compare.getAttribute('href')}?lng=en`, javaScriptEnabled)
}

for (const javaScriptEnabled of javaScriptModes) {
	test.describe(`the offers side by side, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
		test.use({ javaScriptEnabled })

		test('on a wide screen, a column per offer, its rows labelled, the best of each row marked', async ({ page }) => {
			await page.setViewportSize({ width: 1366, height: 900 })
			await demoComparison(page, javaScriptEnabled)
			const table = page.getByRole('table', { name: c('offers.compare.caption') })
			await expect(table).toBeVisible()
			await expect(table.locator('tbody th')).toHaveText(['Total', 'Labour', 'Parts', 'Part quality', 'Earliest start', 'Duration', 'Warranty', 'Rating', 'Response time', 'City'])
			const columns = await table.locator('thead th').allTextContents()
			expect(columns).toHaveLength(3)
			// Cheapest first (the page's sort): the lowest total is the first column's, and marked.
			const total = table.locator('tr[data-row="total"] td')
			await expect(total.first()).toHaveClass(/compare-table__best/)
			await expect(total.first()).toContainText(c('offers.compare.best'))
			await expect(total.nth(1)).not.toHaveClass(/compare-table__best/)
			// An offer of one price has no labour line: the cell says it is not itemised, and is not best (issue 32).
			await expect(table.locator('tr[data-row="labour"] td').nth(2)).toHaveText(c('offers.compare.notItemised'))
			// Newest first, the columns follow the cards.
			await page.getByRole('link', { name: c('offers.sort.newest') }).click()
			await expect(table.locator('thead th')).toHaveText([...columns].reverse())
		})

		test('on a phone, no table: each offer card lists the same rows', async ({ page }) => {
			await page.setViewportSize({ width: 360, height: 740 })
			await demoComparison(page, javaScriptEnabled)
			await expect(page.getByRole('table', { name: c('offers.compare.caption') })).toBeHidden()
			const facts = page.locator('.offer-card').first().locator('.compare-facts')
			await expect(facts).toBeVisible()
			await expect(facts.locator('dt')).toHaveText(['Total', 'Labour', 'Parts', 'Part quality', 'Earliest start', 'Duration', 'Warranty', 'Rating', 'Response time', 'City'])
			await expect(facts.locator('div[data-row="total"]')).toContainText(c('offers.compare.best'))
			expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
		})
	})
}
