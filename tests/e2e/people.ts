import { type Browser, type Page } from '@playwright/test'
import { dictionary, expect, expectToast, open, uniqueEmail } from './fixtures'

/** People of the multi-user flows: each in a browser context of their own, with their own client IP. */
export const PASSWORD = 'flow-pass-1'

const randomIp = () => `10.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`

export async function person(browser: Browser, javaScriptEnabled: boolean, baseURL: string | undefined) {
	const context = await browser.newContext({ javaScriptEnabled, baseURL, extraHTTPHeaders: { 'X-Forwarded-For': randomIp() } })
	return context.newPage()
}

export async function register(page: Page, role: 'customer' | 'workshop', email: string, names: { first: string; last: string; workshop?: string }) {
	await page.goto(`/register?lng=en&role=${role}`)
	await fillRegistration(page, role, email, names)
	// Registered is logged in (decision 0121).
	await page.waitForURL('**/dashboard')
}

/** Fills and sends the registration form on the page (English), with `PASSWORD`. */
export async function fillRegistration(page: Page, role: 'customer' | 'workshop', email: string, names: { first: string; last: string; workshop?: string }) {
	const a = dictionary('en', 'auth')
	if (role === 'workshop') {
		await page.getByLabel(a('register.workshopName')).fill(names.workshop!)
		await page.getByLabel(a('register.companyName')).fill(`${names.workshop} OÜ`)
		await page.getByLabel(a('register.companyId')).fill('1098765432')
	}
	await page.getByLabel(a('register.firstName')).fill(names.first)
	await page.getByLabel(a('register.lastName')).fill(names.last)
	await page.getByLabel(a('register.mobile')).fill('+372 5000 1234')
	await page.getByLabel(a('register.email')).fill(email)
	await page.getByLabel(a('register.password'), { exact: true }).fill(PASSWORD)
	await page.getByLabel(a('register.confirmPassword')).fill(PASSWORD)
	await page.getByRole('button', { name: a(role === 'workshop' ? 'register.submitWorkshop' : 'register.submitCustomer') }).click()
}


/**
 * A workshop profile that offers tyre changes (or `service`) for Toyotas in Tallinn, so new requests
 * for it reach the workshop; `hours`: open Monday to Friday 08:00–17:00, so its calendar has free
 * times (issue 33).
 */
export async function completeTyreWorkshopProfile(page: Page, js: boolean, options: { hours?: boolean; service?: string } = {}) {
	const service = options.service ?? 'Tyre change and storage'
	const w = dictionary('en', 'workshop')
	await open(page, '/workshop-profile', js)
	await page.getByLabel(w('profile.streetName')).fill('Mustamäe tee 99')
	await page.getByRole('combobox', { name: w('profile.city') }).selectOption({ label: 'Tallinn' })
	await page.getByLabel(w('profile.zipCode')).fill('10617')
	await page.getByLabel(w('profile.state')).fill('Harju maakond')
	await page.getByRole('group', { name: w('profile.services') }).getByLabel(service).check()
	await page.getByRole('group', { name: w('profile.carBrands') }).getByLabel('Toyota').check()
	await page.getByRole('group', { name: w('profile.spareParts') }).getByLabel('Original (OEM) parts').check()
	await page.getByRole('group', { name: w('profile.paymentMethods') }).getByLabel('Card').check()
	if (options.hours) {
		const weekdays = page.getByRole('group', { name: w('profile.days.weekday') })
		await weekdays.getByLabel(w('profile.opens')).fill('08:00')
		await weekdays.getByLabel(w('profile.closes')).fill('17:00')
	}
	// The toast fades after 5 s on a slow machine: the saved profile is what tells, once the POST is answered.
	const saved = page.waitForResponse((response) => response.url().includes('/workshop-profile') && response.request().method() === 'POST')
	await page.getByRole('button', { name: w('profile.save') }).click()
	await saved
	await open(page, '/workshop-profile', js)
	await expect(page.getByRole('group', { name: w('profile.services') }).getByLabel(service)).toBeChecked()
}

/** Fills and sends the add-vehicle form for a Toyota Yaris with this plate (`path` may carry a returnTo). */
export async function addVehicle(page: Page, plate: string, js: boolean, path = '/add-vehicle') {
	const c = dictionary('en', 'customer')
	await open(page, path, js)
	await page.getByLabel(c('vehicle.registrationNumber')).fill(plate)
	await page.getByRole('combobox', { name: c('vehicle.brand') }).selectOption({ label: 'Toyota' })
	await page.getByLabel(c('vehicle.model'), { exact: true }).fill('Yaris')
	await page.getByLabel(c('vehicle.modelSpecification')).fill('1.5 Hybrid')
	await page.getByRole('combobox', { name: c('vehicle.transmission') }).selectOption('automatic')
	await page.getByLabel(c('vehicle.mileage')).fill('42000')
	await page.getByLabel(c('vehicle.vehicleYear')).fill('2020')
	await page.getByRole('button', { name: c('vehicle.addSubmit') }).click()
	// Stored before the caller goes on: a page opened at once would cancel the sending with JavaScript.
	await expectToast(page, c('vehicle.added'))
}

/**
 * A new customer with a Toyota, on the new-request form with a diagnostics request in Tartu filled
 * in; the details and the photos are the caller's to fill or leave out.
 */
export async function customerOnRequestForm(browser: Browser, js: boolean, baseURL: string | undefined, names: { first: string; last: string }) {
	const c = dictionary('en', 'customer')
	const page = await person(browser, js, baseURL)
	await register(page, 'customer', uniqueEmail(names.last.toLowerCase()), names)
	await addVehicle(page, `R${Math.random().toString(36).slice(2, 7).toUpperCase()}`, js)
	await open(page, '/new-service-register', js)
	await page.getByRole('group', { name: c('request.services') }).getByLabel('Diagnostics').check()
	await page.getByLabel(c('request.preferredAt')).fill('2030-01-10T09:00')
	await page.getByLabel(c('request.location')).fill('Tartu')
	return page
}

/** A customer's Toyota and a tyre-change request for it; answers the request's slug. */
export async function vehicleAndTyreRequest(page: Page, token: string, js: boolean) {
	const c = dictionary('en', 'customer')
	const plate = `N${token.toUpperCase()}`
	await addVehicle(page, plate, js)
	await expect(page.getByText(plate).first()).toBeVisible()
	await open(page, '/new-service-register', js)
	await page.getByRole('combobox', { name: c('request.vehicle') }).selectOption({ label: `Toyota Yaris · ${plate}` })
	await page.getByRole('group', { name: c('request.services') }).getByLabel('Tyre change and storage').check()
	const when = new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString().slice(0, 10)
	await page.getByLabel(c('request.preferredAt')).fill(`${when}T10:00`)
	await page.getByLabel(c('request.location')).fill(`Tallinn ${token}`)
	await page.getByLabel(c('request.details')).fill('Winter tyres on, please.')
	await page.getByRole('button', { name: c('request.submit') }).click()
	await expect(page).toHaveURL(/\/request-details\//)
	return page.url().split('/request-details/')[1]!.split('?')[0]!
}

/** The workshop's offer on a request. */
export async function offerOn(page: Page, requestSlug: string, price: string, js: boolean) {
	const w = dictionary('en', 'workshop')
	await open(page, `/customer-request-details/${requestSlug}`, js)
	await page.getByLabel(w('offer.price')).fill(price)
	await page.getByLabel(w('offer.description')).fill('Tyre change and balancing.')
	await page.getByRole('button', { name: w('offer.send') }).click()
	await expect(page.getByRole('heading', { name: w('requestPage.yourOffer') })).toBeVisible()
}

/**
 * Two people and a job under way: a tyre workshop (`${label} Garage …`) made a €100 offer on a new
 * customer's tyre request, the customer chose it, and the workshop has the job's page open.
 */
export async function jobInProgress(browser: Browser, baseURL: string | undefined, js: boolean, label: string) {
	const c = dictionary('en', 'customer')
	const token = Math.random().toString(36).slice(2, 8)
	const workshopName = `${label} Garage ${token}`
	const garage = await person(browser, js, baseURL)
	const customer = await person(browser, js, baseURL)
	await register(garage, 'workshop', uniqueEmail(`${label.toLowerCase()}-garage`), { first: 'Berit', last: label, workshop: workshopName })
	await completeTyreWorkshopProfile(garage, js)
	await register(customer, 'customer', uniqueEmail(`${label.toLowerCase()}-customer`), { first: 'Kati', last: `Klient ${token}` })
	const slug = await vehicleAndTyreRequest(customer, token, js)
	await offerOn(garage, slug, '100', js)
	await open(customer, `/compaire-offers/${slug}`, js)
	await customer.getByRole('link', { name: c('offers.select') }).first().click()
	await customer.getByRole('button', { name: c('offers.selectConfirm') }).click()
	await expect(customer).toHaveURL(/\/work-progress\//)
	await open(garage, '/workshop-bid-history?status=selected', js)
	const bid = (await garage.locator('a[href^="/workshop-bid-details/"]').first().getAttribute('href'))!
	await open(garage, bid, js)
	return { garage, customer, slug, bid, workshopName, customerName: `Kati Klient ${token}` }
}

/**
 * A booked job (issue 33): a tyre workshop open on weekdays (`${label} Garage …`) offered €100 with
 * the calendar's suggested times through its form, and a new customer selected it with its first
 * time on the compare page and confirmed. Answers both pages (the customer's on /work-progress),
 * the request's and the offer's slugs, and the booked start as the Tallinn clock reads it
 * ("2026-12-01T08:00", as a datetime-local field has it).
 */
export async function bookedJob(browser: Browser, baseURL: string | undefined, js: boolean, label: string, options: { aroundTheClock?: boolean } = {}) {
	const w = dictionary('en', 'workshop')
	const b = dictionary('en', 'booking')
	const token = Math.random().toString(36).slice(2, 8)
	const workshopName = `${label} Garage ${token}`
	const customerEmail = uniqueEmail(`${label.toLowerCase()}-customer`)
	const garage = await person(browser, js, baseURL)
	const customer = await person(browser, js, baseURL)
	await register(garage, 'workshop', uniqueEmail(`${label.toLowerCase()}-garage`), { first: 'Berit', last: label, workshop: workshopName })
	await completeTyreWorkshopProfile(garage, js, { hours: true })
	if (options.aroundTheClock) await openAroundTheClock(garage, js)
	await register(customer, 'customer', customerEmail, { first: 'Kati', last: `Klient ${token}` })
	const requestSlug = await vehicleAndTyreRequest(customer, token, js)

	await open(garage, `/customer-request-details/${requestSlug}`, js)
	await garage.getByLabel(w('offer.price')).fill('100')
	await garage.getByLabel(w('offer.description')).fill('Tyre change and balancing.')
	const firstStart = garage.getByLabel(b('offerTimes.start').replace('{{number}}', '1'))
	// The form is filled with the calendar's next free times.
	await expect(firstStart).toHaveValue(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/)
	const startsAt = (await firstStart.inputValue()).slice(0, 16)
	await garage.getByRole('button', { name: w('offer.send') }).click()
	await expect(garage.getByRole('heading', { name: w('requestPage.yourOffer') })).toBeVisible()

	const { offerSlug } = await chooseOfferTime(customer, requestSlug, workshopName, js)
	await expect(customer).toHaveURL(/\/work-progress\//)
	return { garage, customer, customerEmail, requestSlug, offerSlug, startsAt, workshopName, customerName: `Kati Klient ${token}` }
}

/**
 * The workshop takes bookings every day from 00:00 to 23:59 with no notice: its next free time is
 * minutes away, whatever the hour the test runs (the reminders' test needs a time within a day).
 */
export async function openAroundTheClock(garage: Page, js: boolean) {
	const b = dictionary('en', 'booking')
	const edge = (day: string, which: 'opens' | 'closes') => b('calendar.interval', { day: b(`calendar.days.${day}`), number: 1, edge: b(`calendar.${which}`) })
	await open(garage, '/workshop-calendar?lng=en', js)
	const settings = garage.getByRole('region', { name: b('calendar.settingsTitle') })
	for (const day of ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']) {
		await settings.getByLabel(edge(day, 'opens')).fill('00:00')
		await settings.getByLabel(edge(day, 'closes')).fill('23:59')
	}
	await settings.getByLabel(b('calendar.minNoticeHours')).fill('0')
	await settings.getByLabel(b('calendar.openOnPublicHolidays')).check()
	await settings.getByRole('button', { name: b('calendar.save') }).click()
	await expectToast(garage, b('calendar.saved'))
}

/**
 * The customer chooses the workshop's offer on the compare page with its first free time (or the
 * one whose label is `time`), and confirms; answers the offer's slug. The caller checks the outcome.
 */
export async function chooseOfferTime(customer: Page, requestSlug: string, workshopName: string, js: boolean, options: { time?: string; confirm?: boolean } = {}) {
	const b = dictionary('en', 'booking')
	await open(customer, `/compaire-offers/${requestSlug}`, js)
	const card = customer.locator('.offer-card').filter({ hasText: workshopName })
	if (options.time) await card.getByRole('radio', { name: options.time }).check()
	await card.getByRole('button', { name: b('select.select') }).click()
	const confirmation = customer.locator('.confirm-panel').filter({ hasText: workshopName })
	await expect(confirmation.getByRole('button', { name: b('select.confirm') })).toBeVisible()
	const offerSlug = (await confirmation.locator('input[name="offer"]').getAttribute('value'))!
	if (options.confirm !== false) await confirmation.getByRole('button', { name: b('select.confirm') }).click()
	return { offerSlug, confirmation }
}
