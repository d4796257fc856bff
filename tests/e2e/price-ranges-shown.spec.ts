import { type Page } from '@playwright/test'
import { dictionary, expect, javaScriptModes, open, test, uniqueEmail } from './fixtures'
import { addVehicle, offerOn, person, register } from './people'

/**
 * Issue 35, part 3 (decision 0149): the usual price of each service on the request form, for the
 * customer's vehicle's class in the chosen city's county, following the choices with JavaScript
 * and by "Show usual prices" without (what is typed stays); then "Above the usual range" beside
 * a dear offer on the comparison, and nothing beside an offer where there is no range.
 *
 * The ranges are the server's own, recomputed from completed jobs (the demo data's, job
 * `price-ranges`): the test finds on the form a service that has a range for a family car in
 * Harju County (Tallinn) and one that has none, rather than assuming figures.
 */
const c = dictionary('en', 'customer')
const w = dictionary('en', 'workshop')
const common = dictionary('en')

/** The form's box of usual prices. */
const usualBox = (page: Page) => page.getByRole('region', { name: c('usualPrices.title') })
const usually = c('usualPrices.usually', { range: '' }).trim()

/** A workshop in Tallinn doing these services on Toyotas. */
async function workshopInTallinn(page: Page, js: boolean, services: string[]) {
	await open(page, '/workshop-profile', js)
	await page.getByLabel(w('profile.streetName')).fill('Pärnu mnt 10')
	await page.getByRole('combobox', { name: w('profile.city') }).selectOption({ label: 'Tallinn' })
	await page.getByLabel(w('profile.zipCode')).fill('10148')
	await page.getByLabel(w('profile.state')).fill('Harju maakond')
	for (const service of services) await page.getByRole('group', { name: w('profile.services') }).getByLabel(service, { exact: true }).check()
	await page.getByRole('group', { name: w('profile.carBrands') }).getByLabel('Toyota').check()
	await page.getByRole('group', { name: w('profile.spareParts') }).getByLabel('Original (OEM) parts').check()
	await page.getByRole('group', { name: w('profile.paymentMethods') }).getByLabel('Card').check()
	const saved = page.waitForResponse((response) => response.url().includes('/workshop-profile') && response.request().method() === 'POST')
	await page.getByRole('button', { name: w('profile.save') }).click()
	await saved
}

/** Fills the rest of the request form for the one service left ticked, sends it, answers the request's slug. */
async function sendRequest(page: Page, token: string) {
	const when = new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString().slice(0, 10)
	await page.getByLabel(c('request.preferredAt')).fill(`${when}T10:00`)
	await page.getByLabel(c('request.location')).fill(`Tallinn ${token}`)
	await page.getByRole('button', { name: c('request.submit') }).click()
	await expect(page).toHaveURL(/\/request-details\//)
	return page.url().split('/request-details/')[1]!.split('?')[0]!
}

/** No sideways scroll: the page is as wide as the window. */
async function expectNoSidewaysScroll(page: Page) {
	expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0)
}

for (const javaScriptEnabled of javaScriptModes) {
	// A phone without JavaScript, a desktop with it: both widths, both modes, in one pass.
	const viewport = javaScriptEnabled ? { width: 1366, height: 900 } : { width: 360, height: 800 }
	test.describe(`usual prices, JavaScript ${javaScriptEnabled ? 'on' : 'off'}, ${viewport.width} px`, () => {
		test.use({ javaScriptEnabled, viewport })

		test('the usual price beside the services chosen, and "Above the usual range" beside a dear offer', async ({ page, browser, baseURL }, testInfo) => {
			test.setTimeout(240_000)
			const token = Math.random().toString(36).slice(2, 8)
			const plate = `U${token.toUpperCase()}`
			await register(page, 'customer', uniqueEmail('usual-customer'), { first: 'Uku', last: `Usual ${token}` })
			await addVehicle(page, plate, javaScriptEnabled)
			await open(page, '/new-service-register?lng=en', javaScriptEnabled)
			const box = usualBox(page)
			const services = page.getByRole('group', { name: c('request.services') })
			// Before the choices: what the box is for.
			await expect(box).toContainText(c('usualPrices.chooseFirst'))
			// The one vehicle is chosen already; every service, then the city.
			for (const checkbox of await services.getByRole('checkbox').all()) await checkbox.check()
			await page.getByLabel(c('request.details')).fill(`Brakes squeak ${token}`)
			if (javaScriptEnabled) await expect(box).toContainText(c('usualPrices.chooseCity'))
			await page.getByRole('combobox', { name: c('request.city') }).selectOption({ label: 'Tallinn' })
			if (!javaScriptEnabled) {
				// The form's second button: the form comes back with the prices, as typed, with no errors.
				await page.getByRole('button', { name: c('usualPrices.show') }).click()
				await expect(page.getByLabel(c('request.details'))).toHaveValue(`Brakes squeak ${token}`)
				await expect(page.getByRole('combobox', { name: c('request.city') })).toHaveValue(/./)
				await expect(page.locator('.field__errors').filter({ hasText: /\S/ })).toHaveCount(0)
			} else {
				await expect(page.getByRole('button', { name: c('usualPrices.show') })).toHaveCount(0)
			}
			await expect(box).toContainText(c('usualPrices.for', { vehicleClass: common('vehicleClass.family'), county: common('county.harju') }))
			const lines = box.getByRole('listitem')
			await expect(lines).toHaveCount(await services.getByRole('checkbox').count())
			const texts = (await lines.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim())
			const ranged = texts.find((text) => text.includes(`: ${usually} `))
			const bare = texts.find((text) => text.endsWith(c('usualPrices.none')))
			expect(ranged, 'the demo data gives a family car in Harju County a usual price of some service').toBeTruthy()
			expect(bare, 'and some service has none').toBeTruthy()
			// "Brake repair: usually €140 – €210 (median €170; from 12 jobs at 5 workshops, Dec 2024 – Nov 2026)"
			expect(ranged).toMatch(/^.+: usually €\d+ – €\d+ \(median €\d+; from \d+ jobs at \d+ workshops, [A-Z][a-z]{2} \d{4}( – [A-Z][a-z]{2} \d{4})?\)$/)
			const withRange = ranged!.split(':')[0]!
			const withoutRange = bare!.split(':')[0]!
			await page.screenshot({ path: testInfo.outputPath(`form-${viewport.width}.png`), fullPage: true })
			await box.screenshot({ path: testInfo.outputPath(`usual-prices-${viewport.width}.png`) })
			await expectNoSidewaysScroll(page)

			// Only the service with a range: one line, still with its range.
			for (const checkbox of await services.getByRole('checkbox').all()) await checkbox.uncheck()
			await services.getByLabel(withRange, { exact: true }).check()
			if (!javaScriptEnabled) await page.getByRole('button', { name: c('usualPrices.show') }).click()
			await expect(lines).toHaveCount(1)
			await expect(lines.first()).toContainText(`${withRange}: ${usually} `)
			const rangedSlug = await sendRequest(page, token)

			// The second request: the service without a range.
			await open(page, '/new-service-register?lng=en', javaScriptEnabled)
			await services.getByLabel(withoutRange, { exact: true }).check()
			await page.getByRole('combobox', { name: c('request.city') }).selectOption({ label: 'Tallinn' })
			await page.getByLabel(c('request.details')).fill('Please have a look.')
			if (!javaScriptEnabled) await page.getByRole('button', { name: c('usualPrices.show') }).click()
			await expect(lines).toHaveCount(1)
			await expect(lines.first()).toHaveText(`${withoutRange}: ${c('usualPrices.none')}`)
			const bareSlug = await sendRequest(page, `${token}b`)

			// A workshop in Tallinn offers far above the range, and on the other request too.
			const workshopName = `Usual Garage ${token}`
			const garage = await person(browser, javaScriptEnabled, baseURL)
			await register(garage, 'workshop', uniqueEmail('usual-garage'), { first: 'Gert', last: 'Garage', workshop: workshopName })
			await workshopInTallinn(garage, javaScriptEnabled, [withRange, withoutRange])
			await offerOn(garage, rangedSlug, '9999', javaScriptEnabled)
			await offerOn(garage, bareSlug, '9999', javaScriptEnabled)
			await garage.context().close()

			await open(page, `/compaire-offers/${rangedSlug}?lng=en`, javaScriptEnabled)
			const card = page.locator('.offer-card').filter({ hasText: workshopName })
			const verdict = card.locator('.range-verdict')
			await expect(verdict).toHaveText(new RegExp(`^${c('usualPrices.verdict.above', { range: 'RANGE' }).replace(/[()]/g, '\\$&').replace('RANGE', '€\\d+\\s–\\s€\\d+')}$`))
			await page.screenshot({ path: testInfo.outputPath(`compare-${viewport.width}.png`), fullPage: true })
			await expectNoSidewaysScroll(page)

			// No range for the service: no verdict at all.
			await open(page, `/compaire-offers/${bareSlug}?lng=en`, javaScriptEnabled)
			const bareCard = page.locator('.offer-card').filter({ hasText: workshopName })
			await expect(bareCard.locator('.offer-card__amount')).toBeVisible()
			await expect(bareCard.getByText(/usual range/i)).toHaveCount(0)
		})
	})
}
