import { type Page } from '@playwright/test'
import { dictionary, expect, javaScriptModes, open, test, uniqueEmail } from './fixtures'
import { bookedJob, chooseOfferTime, completeTyreWorkshopProfile, person, register, vehicleAndTyreRequest } from './people'

/**
 * Selecting an offer and its time in one step (issue 33): the workshop's offer carries the
 * calendar's suggested times, the customer chooses one on the compare page, confirms with the
 * price, the time, the address and what to bring before them, and the request page shows the
 * booked time; a time taken meanwhile is answered with the next free ones. JavaScript on and off.
 */
const languages = ['et', 'en', 'ru'] as const

/** The label of the time a card's choice has checked. */
async function checkedTime(page: Page, workshopName: string) {
	const card = page.locator('.offer-card').filter({ hasText: workshopName })
	return (await card.locator('.time-choice label').filter({ has: page.locator('input:checked') }).innerText()).trim()
}

for (const js of javaScriptModes) {
	const mode = `JavaScript ${js ? 'on' : 'off'}`

	test(`an offer with its suggested times is selected with one, confirmed and booked (${mode})`, async ({ browser, baseURL }) => {
		test.setTimeout(180_000)
		const b = dictionary('en', 'booking')
		const job = await bookedJob(browser, baseURL, js, 'Booked')
		expect(job.startsAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/)
		await open(job.customer, `/request-details/${job.requestSlug}?lng=en`, js)
		await expect(job.customer.locator('.booked-time')).toContainText(b('select.booked'))
		// The workshop's offer shows its proposed times in its terms.
		await open(job.garage, `/workshop-bid-history?status=selected`, js)
		await expect(job.garage.locator(`a[href^="/workshop-bid-details/"]`).first()).toBeVisible()
	})

	for (const language of languages) {
		test(`the confirmation states price, time, address and what to bring in ${language} (${mode})`, async ({ browser, baseURL }) => {
			test.setTimeout(180_000)
			const b = dictionary(language, 'booking')
			const w = dictionary('en', 'workshop')
			const token = Math.random().toString(36).slice(2, 8)
			const workshopName = `Lang ${language} Garage ${token}`
			const garage = await person(browser, js, baseURL)
			const customer = await person(browser, js, baseURL)
			await register(garage, 'workshop', uniqueEmail(`lang-${language}-garage`), { first: 'Berit', last: 'Lang', workshop: workshopName })
			await completeTyreWorkshopProfile(garage, js, { hours: true })
			await register(customer, 'customer', uniqueEmail(`lang-${language}-customer`), { first: 'Kati', last: `Klient ${token}` })
			const slug = await vehicleAndTyreRequest(customer, token, js)
			await open(garage, `/customer-request-details/${slug}`, js)
			await garage.getByLabel(w('offer.price')).fill('120')
			await garage.getByRole('button', { name: w('offer.send') }).click()
			await expect(garage.getByRole('heading', { name: w('requestPage.yourOffer') })).toBeVisible()

			await open(customer, `/compaire-offers/${slug}?lng=${language}`, js)
			const card = customer.locator('.offer-card').filter({ hasText: workshopName })
			await expect(card.getByRole('group', { name: b('select.chooseTime') })).toBeVisible()
			const time = await checkedTime(customer, workshopName)
			await card.getByRole('button', { name: b('select.select') }).click()
			const confirmation = customer.locator('.confirm-panel').filter({ hasText: workshopName })
			await expect(confirmation).toContainText(time)
			await expect(confirmation).toContainText('120')
			await expect(confirmation).toContainText('Mustamäe tee 99')
			for (const key of ['bringPapers', 'bringKeys', 'bringParts']) await expect(confirmation).toContainText(b(`select.${key}`))
			await confirmation.getByRole('button', { name: b('select.confirm') }).click()
			await expect(customer).toHaveURL(/\/work-progress\//)
			await open(customer, `/request-details/${slug}`, js)
			await expect(customer.locator('.booked-time')).toContainText(b('select.booked'))
			await expect(customer.locator('.booked-time')).toContainText(time)
		})
	}

	test(`a time taken meanwhile is answered with the next free ones (${mode})`, async ({ browser, baseURL }) => {
		test.setTimeout(240_000)
		const b = dictionary('en', 'booking')
		const w = dictionary('en', 'workshop')
		const token = Math.random().toString(36).slice(2, 8)
		const workshopName = `Taken Garage ${token}`
		const garage = await person(browser, js, baseURL)
		const first = await person(browser, js, baseURL)
		const second = await person(browser, js, baseURL)
		await register(garage, 'workshop', uniqueEmail('taken-garage'), { first: 'Berit', last: 'Taken', workshop: workshopName })
		await completeTyreWorkshopProfile(garage, js, { hours: true })
		await register(first, 'customer', uniqueEmail('taken-first'), { first: 'Esimene', last: `Klient ${token}` })
		await register(second, 'customer', uniqueEmail('taken-second'), { first: 'Teine', last: `Klient ${token}` })
		const firstSlug = await vehicleAndTyreRequest(first, `${token}a`, js)
		const secondSlug = await vehicleAndTyreRequest(second, `${token}b`, js)
		// One bay: the workshop offers both customers the same suggested times.
		for (const slug of [firstSlug, secondSlug]) {
			await open(garage, `/customer-request-details/${slug}`, js)
			await garage.getByLabel(w('offer.price')).fill('90')
			await garage.getByRole('button', { name: w('offer.send') }).click()
			await expect(garage.getByRole('heading', { name: w('requestPage.yourOffer') })).toBeVisible()
		}
		// The second customer has the first time's confirmation before them when the first customer books it.
		const { confirmation } = await chooseOfferTime(second, secondSlug, workshopName, js, { confirm: false })
		const time = await checkedTime(second, workshopName)
		await chooseOfferTime(first, firstSlug, workshopName, js)
		await expect(first).toHaveURL(/\/work-progress\//)
		await confirmation.getByRole('button', { name: b('select.confirm') }).click()
		const card = second.locator('.offer-card').filter({ hasText: workshopName })
		await expect(card.locator('.time-choice__error')).toContainText(b('refusals.taken'))
		await expect(card.locator('.time-choice__error')).toContainText(b('refusals.nextFree'))
		await expect(card.getByRole('radio', { name: time })).toHaveCount(0)
		// The next free one, chosen and confirmed, is booked.
		const next = await checkedTime(second, workshopName)
		await card.getByRole('button', { name: b('select.select') }).click()
		await second.locator('.confirm-panel').filter({ hasText: workshopName }).getByRole('button', { name: b('select.confirm') }).click()
		await expect(second).toHaveURL(/\/work-progress\//)
		await open(second, `/request-details/${secondSlug}`, js)
		await expect(second.locator('.booked-time')).toContainText(next)
	})
}
