import { type Page } from '@playwright/test'
import { dictionary, expect, expectToast, javaScriptModes, open, test, uniqueEmail } from './fixtures'
import { completeTyreWorkshopProfile, person, register } from './people'

/**
 * Issue 35: a workshop builds a price list with an item that sends instant offers; a customer
 * asks for that service for a car it fits and sees the workshop's "Instant offer" on the request's
 * page at once, and on the comparison; the workshop's public page shows the list. The item is for
 * an SUV with a 1.6–2.5 l engine: no other test's car is one, so its instant offers reach no other
 * test's requests.
 */
const w = dictionary('en', 'workshop')
const c = dictionary('en', 'customer')
const common = dictionary('en')
const pub = dictionary('en', 'public')

const line = (page: Page, n: number) => page.locator('.offer-lines__line').nth(n - 1)

for (const javaScriptEnabled of javaScriptModes) {
	test(`a price list's instant offer reaches a fitting request at once, with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async ({ browser, baseURL }) => {
		test.setTimeout(180_000)
		const js = javaScriptEnabled
		const token = Math.random().toString(36).slice(2, 8)
		const workshopName = `Price Garage ${token}`
		const garage = await person(browser, js, baseURL)
		const customer = await person(browser, js, baseURL)
		await register(garage, 'workshop', uniqueEmail('prices-garage'), { first: 'Hele', last: 'Hind', workshop: workshopName })
		await completeTyreWorkshopProfile(garage, js, { service: 'Oil change', hours: true })

		// The menu leads to the price list, empty at first.
		await open(garage, '/dashboard', js)
		await garage.getByRole('link', { name: w('priceList.menu') }).first().click()
		await expect(garage).toHaveURL(/\/workshop-prices/)
		await expect(garage.getByText(w('priceList.empty'))).toBeVisible()

		const form = garage.locator('form.price-item-form')
		await form.getByLabel(w('priceList.service')).selectOption({ label: 'Oil change' })
		await form.getByLabel(w('priceList.vehicleClass')).selectOption({ label: common('vehicleClass.suv_van') })
		await form.getByLabel(w('priceList.engineBand')).selectOption({ label: common('engineBand.1600_2500') })
		// Lines are added as an offer's are (without JavaScript too): labour and a part.
		await form.getByRole('button', { name: w('offer.addLabour') }).click()
		await line(garage, 1).getByLabel(w('offer.lineDescription')).fill('Oil change')
		await line(garage, 1).getByLabel(w('offer.hours')).fill('1')
		await line(garage, 1).getByLabel(w('offer.hourlyRate')).fill('60')
		await form.getByRole('button', { name: w('offer.addPart') }).click()
		await line(garage, 2).getByLabel(w('offer.lineDescription')).fill('Engine oil 5W-30')
		await line(garage, 2).getByLabel(w('offer.quality')).selectOption('original')
		await line(garage, 2).getByLabel(w('offer.quantity')).fill('5')
		await line(garage, 2).getByLabel(w('offer.unitPrice')).fill('12')
		await expect(line(garage, 1).getByLabel(w('offer.lineDescription'))).toHaveValue('Oil change')
		await form.getByLabel(w('priceList.durationHours')).fill('1')
		await form.getByLabel(w('priceList.durationMinutes')).fill('15')
		await form.getByLabel(w('priceList.included')).fill('Oil up to 5 l and a new filter.')
		await form.getByLabel(w('priceList.sendsInstant')).check()
		// A last day before the first is refused next to it, and nothing is saved.
		await form.getByLabel(w('priceList.validFromLabel')).fill('2030-05-10')
		await form.getByLabel(w('priceList.validUntilLabel')).fill('2030-05-01')
		await form.getByRole('button', { name: w('priceList.add') }).click()
		await expect(form.getByText(w('priceList.untilBeforeFrom'))).toBeVisible()
		await expect(garage.getByText(w('priceList.empty'))).toBeVisible()
		// From today, open-ended.
		const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Tallinn' })
		await form.getByLabel(w('priceList.validFromLabel')).fill(today)
		await form.getByLabel(w('priceList.validUntilLabel')).fill('')
		await form.getByRole('button', { name: w('priceList.add') }).click()
		await expectToast(garage, w('priceList.added'))
		const item = garage.locator('.price-items .item').first()
		const itemTitle = `Oil change · ${common('vehicleClass.suv_van')} · ${common('engineBand.1600_2500')}`
		await expect(item).toContainText(itemTitle)
		// €60 + €60, VAT included: €96.77 of it without.
		await expect(item.locator('.price-item__total')).toHaveText('€120.00')
		await expect(item.locator('.price-item__net')).toHaveText(w('priceList.net', { price: '€96.77' }))
		await expect(item).toContainText(common('instantOffer.badge'))

		// The customer's SUV with a 2.0 l engine.
		await register(customer, 'customer', uniqueEmail('prices-customer'), { first: 'Siim', last: `Suv ${token}` })
		const plate = `P${token.toUpperCase()}`
		await open(customer, '/add-vehicle', js)
		await customer.getByLabel(c('vehicle.registrationNumber')).fill(plate)
		await customer.getByRole('combobox', { name: c('vehicle.brand') }).selectOption({ label: 'Toyota' })
		await customer.getByLabel(c('vehicle.model'), { exact: true }).fill('RAV4')
		await customer.getByLabel(c('vehicle.modelSpecification')).fill('2.0 Valvematic')
		await customer.getByRole('combobox', { name: c('vehicle.transmission') }).selectOption('automatic')
		await customer.getByRole('combobox', { name: c('vehicle.fuelType') }).selectOption('petrol')
		await expect(customer.getByRole('combobox', { name: c('vehicle.vehicleClass') })).toHaveValue('family')
		await customer.getByRole('combobox', { name: c('vehicle.vehicleClass') }).selectOption('suv_van')
		await customer.getByLabel(c('vehicle.engineCc')).fill('1998')
		await customer.getByLabel(c('vehicle.mileage')).fill('88000')
		await customer.getByLabel(c('vehicle.vehicleYear')).fill('2017')
		await customer.getByRole('button', { name: c('vehicle.addSubmit') }).click()
		await expectToast(customer, c('vehicle.added'))

		await open(customer, '/new-service-register', js)
		await customer.getByRole('combobox', { name: c('request.vehicle') }).selectOption({ label: `Toyota RAV4 · ${plate}` })
		await customer.getByRole('group', { name: c('request.services') }).getByLabel('Oil change').check()
		const when = new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString().slice(0, 10)
		await customer.getByLabel(c('request.preferredAt')).fill(`${when}T10:00`)
		await customer.getByLabel(c('request.location')).fill(`Tallinn ${token}`)
		await customer.getByLabel(c('request.details')).fill('Oil change before a long trip.')
		await customer.getByRole('button', { name: c('request.submit') }).click()
		await expect(customer).toHaveURL(/\/request-details\//)

		// On the request's page within seconds: the workshop's instant offer.
		const instant = customer.locator('.instant-offers li').filter({ hasText: workshopName })
		await expect(instant).toContainText(common('instantOffer.badge'), { timeout: 10_000 })
		await expect(instant).toContainText(c('requestDetails.instantFrom', { workshop: workshopName, price: '€120.00' }))
		await customer.getByRole('link', { name: c('requestDetails.compare') }).click()
		const card = customer.locator('.offer-card').filter({ hasText: workshopName })
		await expect(card.locator('.offer-card__amount')).toHaveText('€120.00')
		await expect(card.locator('.badge--instant')).toHaveText(common('instantOffer.badge'))
		await expect(card).toContainText('Oil up to 5 l and a new filter.')

		// The workshop's public page lists the price.
		await card.getByRole('link', { name: workshopName, exact: true }).click()
		const prices = customer.getByRole('region', { name: pub('workshop.priceList') })
		await expect(prices).toContainText(itemTitle)
		await expect(prices).toContainText('€120.00')
		await expect(prices).toContainText(w('priceList.net', { price: '€96.77' }))
		await expect(prices).toContainText('Oil up to 5 l and a new filter.')

		// The workshop sees it in its bid history, marked.
		await open(garage, '/workshop-bid-history', js)
		await expect(garage.locator('.item').filter({ hasText: 'Oil change' }).first()).toContainText(common('instantOffer.badge'))
	})
}

for (const javaScriptEnabled of javaScriptModes) {
	test(`the vehicle form: an electric car is an electric car, with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async ({ browser, baseURL }) => {
		const js = javaScriptEnabled
		const customer = await person(browser, js, baseURL)
		await register(customer, 'customer', uniqueEmail('prices-ev'), { first: 'Eva', last: 'Elekter' })
		await open(customer, '/add-vehicle', js)
		const plate = `E${Math.random().toString(36).slice(2, 7).toUpperCase()}`
		await customer.getByLabel(c('vehicle.registrationNumber')).fill(plate)
		await customer.getByRole('combobox', { name: c('vehicle.brand') }).selectOption({ label: 'Tesla' })
		await customer.getByLabel(c('vehicle.model'), { exact: true }).fill('Model 3')
		await customer.getByLabel(c('vehicle.modelSpecification')).fill('Long Range')
		await customer.getByRole('combobox', { name: c('vehicle.transmission') }).selectOption('automatic')
		await customer.getByLabel(c('vehicle.mileage')).fill('30000')
		await customer.getByLabel(c('vehicle.vehicleYear')).fill('2022')
		const vehicleClass = customer.getByRole('combobox', { name: c('vehicle.vehicleClass') })
		await expect(vehicleClass).toHaveValue('family')
		await customer.getByRole('combobox', { name: c('vehicle.fuelType') }).selectOption('electric')
		if (js) {
			// The class follows the fuel while the owner has not chosen one.
			await expect(vehicleClass).toHaveValue('electric')
		} else {
			// Without JavaScript the server says why, next to the class, and keeps what was typed.
			await customer.getByRole('button', { name: c('vehicle.addSubmit') }).click()
			await expect(customer.getByText(c('vehicle.electricClass'))).toBeVisible()
			await expect(customer.getByLabel(c('vehicle.registrationNumber'))).toHaveValue(plate)
			await vehicleClass.selectOption('electric')
		}
		// An engine size out of range is refused next to it.
		await customer.getByLabel(c('vehicle.engineCc')).fill('20000')
		await customer.getByRole('button', { name: c('vehicle.addSubmit') }).click()
		await expect(customer.getByText(c('vehicle.engineCcRange'))).toBeVisible()
		await customer.getByLabel(c('vehicle.engineCc')).fill('')
		await customer.getByRole('button', { name: c('vehicle.addSubmit') }).click()
		await expectToast(customer, c('vehicle.added'))
		// Its page says its class.
		await customer.locator('.vehicle-tile').filter({ hasText: plate }).getByRole('link', { name: 'Tesla Model 3' }).click()
		await expect(customer.getByRole('region', { name: c('vehicles.facts') })).toContainText(common('vehicleClass.electric'))
	})
}
