import { type Page } from '@playwright/test'
import sharp from 'sharp'
import { dictionary, expect, expectToast, javaScriptModes, login, open, test, uniqueEmail } from './fixtures'
import { addVehicle, customerOnRequestForm, person, register } from './people'

/**
 * The whole service flow of issues 5 and 6, with two people in two browsers: a workshop completes
 * its profile, a customer adds a vehicle and asks for a tyre change with two photos, the workshop
 * offers with a PDF, the customer compares and selects, the workshop completes the job with a final
 * price, the customer leaves feedback, the workshop replies, and both show on the public page.
 */
const c = dictionary('en', 'customer')
const w = dictionary('en', 'workshop')
const common = dictionary('en')

const png = (colour: string) => sharp({ create: { width: 640, height: 480, channels: 3, background: colour } }).png().toBuffer()
const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n')
/** Confirms an action: the server's confirmation panel without JavaScript, the dialog with it. */
async function confirm(page: Page, trigger: string, button: string) {
	await page.getByRole('link', { name: trigger }).first().click()
	await page.getByRole('button', { name: button }).click()
}

for (const javaScriptEnabled of javaScriptModes) {
	test(`the whole service flow with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async ({ browser, baseURL }) => {
		test.setTimeout(180_000)
		const token = Math.random().toString(36).slice(2, 8)
		const workshopName = `Flow Garage ${token}`
		const garage = await person(browser, javaScriptEnabled, baseURL)
		const customer = await person(browser, javaScriptEnabled, baseURL)

		// The workshop registers and completes its profile (issue 6).
		await register(garage, 'workshop', uniqueEmail('flow-garage'), { first: 'Gert', last: 'Garage', workshop: workshopName })
		await open(garage, '/workshop-profile', javaScriptEnabled)
		await expect(garage.getByText(w('profile.customerServiceNote'))).toBeVisible()
		await garage.getByLabel(w('profile.streetName')).fill('Mustamäe tee 99')
		await garage.getByRole('combobox', { name: w('profile.city') }).selectOption({ label: 'Tallinn' })
		await garage.getByLabel(w('profile.zipCode')).fill('10617')
		await garage.getByLabel(w('profile.state')).fill('Harju maakond')
		await garage.getByRole('group', { name: w('profile.services') }).getByLabel('Tyre change and storage').check()
		await garage.getByRole('group', { name: w('profile.carBrands') }).getByLabel('Toyota').check()
		await garage.getByRole('group', { name: w('profile.spareParts') }).getByLabel('Original (OEM) parts').check()
		await garage.getByRole('group', { name: w('profile.paymentMethods') }).getByLabel('Card').check()
		await garage.getByLabel(w('profile.marketingText')).fill('Tyres changed while you have a coffee.')
		await garage.getByLabel(w('profile.warrantyWorkKm')).fill('15000')
		await garage.getByLabel(w('profile.warrantyPartsMonths')).fill('12')
		await garage.getByRole('button', { name: w('profile.save') }).click()
		await expectToast(garage, w('profile.saved'))

		// The customer registers, adds a vehicle and asks for a tyre change with two photos (issue 5).
		await register(customer, 'customer', uniqueEmail('flow-customer'), { first: 'Kaia', last: 'Kuusk' })
		const plate = `F${token.toUpperCase()}`
		await addVehicle(customer, plate, javaScriptEnabled)
		await expectToast(customer, c('vehicle.added'))
		await expect(customer.getByText(plate)).toBeVisible()

		await customer.getByRole('link', { name: c('vehicles.requestService') }).first().click()
		await expect(customer).toHaveURL(/\/new-service-register/)
		await customer.getByRole('combobox', { name: c('request.vehicle') }).selectOption({ label: `Toyota Yaris · ${plate}` })
		await customer.getByRole('group', { name: c('request.services') }).getByLabel('Tyre change and storage').check()
		const when = new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString().slice(0, 10)
		await customer.getByLabel(c('request.preferredAt')).fill(`${when}T10:00`)
		await customer.getByLabel(c('request.location')).fill(`Tallinn, Kristiine ${token}`)
		await customer.getByLabel(c('request.details')).fill('Winter tyres on, summer tyres into storage.')
		await customer.getByLabel(c('request.images')).setInputFiles([
			{ name: 'front.png', mimeType: 'image/png', buffer: await png('#c0392b') },
			{ name: 'tyres.png', mimeType: 'image/png', buffer: await png('#2c3e50') },
		])
		await customer.getByRole('button', { name: c('request.submit') }).click()
		await expectToast(customer, c('request.created'))
		await expect(customer).toHaveURL(/\/request-details\//)
		await expect(customer.locator('.photo-strip img')).toHaveCount(2)
		const requestSlug = customer.url().split('/request-details/')[1]!.split('?')[0]!

		// The workshop sees the request among those it can bid on and offers with a PDF.
		await open(garage, '/customer-requests', javaScriptEnabled)
		await expect(garage.locator(`a[href="/customer-request-details/${requestSlug}"]`).first()).toBeVisible()
		await open(garage, `/customer-request-details/${requestSlug}`, javaScriptEnabled)
		await expect(garage.locator('.photo-strip img')).toHaveCount(2)
		await garage.getByLabel(w('offer.price')).fill('89,50')
		await garage.getByLabel(w('offer.description')).fill('Tyre change and balancing, storage for a season.')
		await garage.getByLabel(w('offer.attachment')).setInputFiles({ name: 'offer.pdf', mimeType: 'application/pdf', buffer: pdf })
		await garage.getByRole('button', { name: w('offer.send') }).click()
		await expectToast(garage, w('offer.made'))
		await open(garage, '/workshop-bid-history', javaScriptEnabled)
		await expect(garage.locator('.item').filter({ hasText: 'Tyre change and storage' }).filter({ hasText: '€89.50' }).first()).toBeVisible()

		// The customer compares, sees the PDF and the warranty, and selects the offer.
		await open(customer, `/compaire-offers/${requestSlug}`, javaScriptEnabled)
		const card = customer.locator('.offer-card').filter({ hasText: workshopName })
		await expect(card).toContainText('€89.50')
		await expect(card).toContainText('15,000 km')
		await expect(card.getByRole('link', { name: c('offers.attachment') })).toBeVisible()
		await confirm(customer, c('offers.select'), c('offers.selectConfirm'))
		await expectToast(customer, c('offers.selected'))
		await expect(customer).toHaveURL(/\/work-progress\//)
		await expect(customer.getByText(workshopName).first()).toBeVisible()

		// The workshop completes the job with the final price.
		await open(garage, '/workshop-bid-history?status=selected', javaScriptEnabled)
		await garage.locator('.item').filter({ hasText: 'Tyre change and storage' }).first().getByRole('link').first().click()
		await garage.getByLabel(w('job.finalPrice')).fill('85')
		// The vehicle passport (issue 20): the mileage at the job, not below the last recorded (42,000), and the invoice.
		await garage.getByLabel(w('job.mileage').replace('{{unit}}', 'km')).fill('41000')
		await garage.getByLabel(w('job.invoice')).setInputFiles({ name: 'arve.pdf', mimeType: 'application/pdf', buffer: pdf })
		await garage.getByRole('button', { name: w('job.submit') }).click()
		await expect(garage.getByText(w('job.mileageBelow.km').replace('{{mileage, number}}', '42,000'))).toBeVisible()
		await expect(garage.getByLabel(w('job.finalPrice'))).toHaveValue('85')
		await garage.getByLabel(w('job.mileage').replace('{{unit}}', 'km')).fill('42350')
		await garage.getByRole('button', { name: w('job.submit') }).click()
		await expectToast(garage, w('job.completed'))
		await expect(garage.getByRole('link', { name: w('job.invoiceDownload') })).toBeVisible()

		// The job is in the vehicle's service history with its mileage and invoice, and its warranty runs.
		await open(customer, '/my-vehicle', javaScriptEnabled)
		await customer.locator('.vehicle-tile').filter({ hasText: plate }).getByRole('link').first().click()
		const history = customer.getByRole('region', { name: c('passport.history'), exact: true })
		const job = history.locator('li').filter({ hasText: 'Tyre change and storage' })
		await expect(job).toContainText('42,350 km')
		await expect(job).toContainText(workshopName)
		await expect(job).toContainText('€85.00')
		await expect(job.getByRole('link', { name: c('passport.invoicePdf') })).toBeVisible()
		const warranty = customer.getByRole('region', { name: c('passport.warranty'), exact: true })
		await expect(warranty).toContainText(c('passport.workWarranty').replace('{{distance}}', '15,000 km'))
		// All in the vehicle's km (issue 32): the work warranty runs 15,000 km from the job's 42,350.
		await expect(warranty).toContainText(c('passport.workLeft').replace('{{left}}', '15,000 km').replace('{{until}}', '57,350 km'))
		await expect(warranty).not.toContainText('miles')
		await expect(warranty).toContainText(c('passport.partsWarranty_other').replace('{{count}}', '12'))
		await expect(customer.locator('.facts__row').filter({ hasText: c('vehicle.mileage') })).toContainText('42,350 km')

		// The customer sees the bill and leaves feedback; it shows on the workshop's public page.
		await open(customer, `/work-progress/${requestSlug}`, javaScriptEnabled)
		await expect(customer.getByText('€85.00')).toBeVisible()
		await customer.getByRole('link', { name: c('progress.leaveFeedback') }).click()
		// Half stars, by keyboard: four stars, then the arrow key moves half a star up.
		const stars = (rating: string) => customer.getByRole('radio', { name: c('review.stars_other').replace('{{rating}}', rating), exact: true })
		await stars('4').check()
		await stars('4').press('ArrowRight')
		await expect(stars('4.5')).toBeChecked()
		await customer.getByLabel(c('review.reviewTitle')).fill(`Quick and tidy ${token}`)
		await customer.getByLabel(c('review.body')).fill('Done in forty minutes, fair price.')
		await customer.getByRole('button', { name: c('review.submit') }).click()
		await expectToast(customer, c('review.saved'))
		await expect(customer).toHaveURL(/\/service-details\//)
		const halfStars = { name: dictionary('en', 'public')('stars.label').replace('{{rating}}', '4.5') }
		await expect(customer.getByRole('img', halfStars).first()).toBeVisible()

		await open(garage, '/customer-reviews', javaScriptEnabled)
		const review = garage.locator('.review-feed > li').filter({ hasText: `Quick and tidy ${token}` })
		await expect(review.getByRole('img', halfStars)).toBeVisible()
		await review.getByLabel(w('reviews.reply')).fill(`Thank you, Kaia! ${token}`)
		await review.getByRole('button', { name: w('reviews.send') }).click()
		await expectToast(garage, w('reviews.replied'))

		await open(customer, '/workshop-list?lng=en&q=' + encodeURIComponent(workshopName), javaScriptEnabled)
		await customer.getByRole('link', { name: workshopName }).first().click()
		await expect(customer.getByText(`Quick and tidy ${token}`)).toBeVisible()
		await expect(customer.getByText(`Thank you, Kaia! ${token}`)).toBeVisible()
		// A verified job, its kind, and what was quoted and paid (issue 19).
		const publicReview = customer.locator('.review').filter({ hasText: `Quick and tidy ${token}` })
		await expect(publicReview.getByText(dictionary('en', 'public')('reviews.verified'))).toBeVisible()
		await expect(publicReview).toContainText('Tyre change and storage')
		await expect(publicReview).toContainText(dictionary('en', 'public')('reviews.quotedPaid').replace('{{quoted}}', '€89.50').replace('{{paid}}', '€85.00'))
		await expect(customer.getByText(/Based on 1 review/).first()).toBeVisible()
		await expect(customer.getByRole('img', halfStars).first()).toBeVisible()

		await garage.context().close()
		await customer.context().close()
	})
}

test.describe('refusals a user can meet', () => {
	test('a program renamed to .png is refused next to the photos and nothing is sent', async ({ browser, baseURL }) => {
		const page = await customerOnRequestForm(browser, false, baseURL, { first: 'Ants', last: 'Allik' })
		await page.getByLabel(c('request.details')).fill('Engine light')
		await page.getByLabel(c('request.images')).setInputFiles({ name: 'car.png', mimeType: 'image/png', buffer: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(2048, 7)]) })
		await page.getByRole('button', { name: c('request.submit') }).click()
		await expect(page.locator('#request-images-error')).toHaveText(common('upload.wrongType'))
		// The rest of the input is kept.
		await expect(page.getByLabel(c('request.location'))).toHaveValue('Tartu')
		await page.goto('/my-requests?status=all')
		await expect(page.getByText(common('empty.noData'))).toBeVisible()
		await page.context().close()
	})

	test('another customer’s request is "not found"', async ({ browser, baseURL }) => {
		const page = await person(browser, true, baseURL)
		await login(page, 'customer@example.com', 'demo12345')
		await open(page, '/my-requests?status=all&lng=en', true)
		const href = await page.locator('.item__title a').first().getAttribute('href')
		await page.context().close()

		const stranger = await person(browser, true, baseURL)
		await register(stranger, 'customer', uniqueEmail('stranger'), { first: 'Sten', last: 'Saar' })
		const response = await stranger.goto(href!.replace('service-details', 'request-details'))
		expect(response?.status()).toBe(404)
		await expect(stranger.getByRole('heading', { name: common('errors.notFoundTitle') })).toBeVisible()
		await stranger.context().close()
	})

	test('another workshop’s offer is "not found"', async ({ browser, baseURL }) => {
		const workshop = await person(browser, true, baseURL)
		await login(workshop, 'workshop@example.com', 'demo12345')
		await open(workshop, '/workshop-bid-history', true)
		const bid = await workshop.locator('.item__title a').first().getAttribute('href')
		await workshop.context().close()
		const rival = await person(browser, true, baseURL)
		await register(rival, 'workshop', uniqueEmail('rival'), { first: 'Rein', last: 'Rival', workshop: 'Rival Garage' })
		expect((await rival.goto(bid!))?.status()).toBe(404)
		await rival.context().close()
	})
})
