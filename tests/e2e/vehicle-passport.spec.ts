import { dictionary, expect, expectToast, javaScriptModes, open, test, uniqueEmail } from './fixtures'
import { addVehicle, person, register } from './people'

/**
 * Issue 20, the vehicle passport: the owner adds work done elsewhere to the service history (bad
 * input refused at its field, the input kept), downloads its PDF and the vehicle's calendar, and
 * makes and revokes the calendar's private link; nobody else gets any of it. (A completed job's
 * mileage and warranty in the history: service-flow.spec.)
 */
const c = dictionary('en', 'customer')
const common = dictionary('en')
const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n')
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10)

for (const javaScriptEnabled of javaScriptModes) {
	test(`the owner keeps the vehicle's history and calendar, and nobody else sees them, with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async ({ browser, baseURL }) => {
		test.setTimeout(150_000)
		const token = Math.random().toString(36).slice(2, 8)
		const owner = await person(browser, javaScriptEnabled, baseURL)
		const stranger = await person(browser, javaScriptEnabled, baseURL)
		await register(owner, 'customer', uniqueEmail('passport-owner'), { first: 'Piret', last: 'Pass' })
		const plate = `P${token.toUpperCase()}`
		await addVehicle(owner, plate, javaScriptEnabled)
		await expectToast(owner, c('vehicle.added'))
		await owner.locator('.vehicle-tile').filter({ hasText: plate }).getByRole('link').first().click()
		await expect(owner).toHaveURL(/\/vehicle-details\//)
		const vehiclePath = new URL(owner.url()).pathname
		const history = owner.getByRole('region', { name: c('passport.history'), exact: true })
		await expect(history).toContainText(c('passport.noHistory'))
		await expect(owner.getByRole('region', { name: c('passport.warranty'), exact: true })).toContainText(c('passport.noWarranty'))

		// Work done elsewhere: a day in the future, a mileage above today's (42,000) for a past day and a
		// file that is not a PDF are refused at their fields, and what was typed is kept.
		await owner.locator('summary', { hasText: c('passport.addElsewhere') }).click()
		await owner.getByLabel(c('passport.performedOn')).fill(daysAgo(-3))
		await owner.getByLabel(c('passport.mileage')).fill('41500')
		await owner.getByLabel(c('passport.description')).fill(`Oil and filter ${token}`)
		await owner.getByLabel(c('passport.workshopName')).fill('Garage on the corner')
		await owner.getByLabel(c('passport.price')).fill('59,90')
		await owner.getByLabel(c('passport.document')).setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a pdf at all') })
		await owner.getByRole('button', { name: c('passport.addRecord') }).click()
		await expect(owner.getByText(c('passport.futureDate'))).toBeVisible()
		await expect(owner.getByLabel(c('passport.description'))).toHaveValue(`Oil and filter ${token}`)

		await owner.getByLabel(c('passport.performedOn')).fill(daysAgo(30))
		await owner.getByLabel(c('passport.mileage')).fill('45000')
		await owner.getByLabel(c('passport.document')).setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a pdf at all') })
		await owner.getByRole('button', { name: c('passport.addRecord') }).click()
		await expect(owner.getByText(common('upload.wrongType'))).toBeVisible()
		await owner.getByLabel(c('passport.document')).setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: pdf })
		await owner.getByRole('button', { name: c('passport.addRecord') }).click()
		await expect(owner.getByText(c('passport.mileageAbove').replace('{{mileage, number}}', '42,000'))).toBeVisible()
		await expect(owner.getByLabel(c('passport.workshopName'))).toHaveValue('Garage on the corner')

		await owner.getByLabel(c('passport.mileage')).fill('41500')
		// The PDF chosen last time is held for this sending (decision 0083).
		await owner.getByRole('button', { name: c('passport.addRecord') }).click()
		await expectToast(owner, c('passport.recordAdded'))
		const entry = owner.getByRole('region', { name: c('passport.history'), exact: true }).locator('li').filter({ hasText: `Oil and filter ${token}` })
		await expect(entry).toContainText('41,500 miles')
		await expect(entry).toContainText('Garage on the corner')
		await expect(entry).toContainText('€59.90')
		const documentHref = (await entry.getByRole('link', { name: c('passport.documentPdf') }).getAttribute('href'))!
		const document = await owner.request.get(documentHref)
		expect(document.status()).toBe(200)
		expect(document.headers()['content-type']).toBe('application/pdf')

		// The calendar: the owner's download, then a private link for a phone, renewed and revoked.
		const calendarPath = `${vehiclePath}/calendar.ics`
		const own = await owner.request.get(calendarPath)
		expect(own.status()).toBe(200)
		expect(own.headers()['content-type']).toContain('text/calendar')
		expect(await own.text()).toContain('BEGIN:VCALENDAR')
		const calendar = owner.getByRole('region', { name: c('passport.calendar.title'), exact: true })
		await calendar.getByRole('button', { name: c('passport.calendar.make') }).click()
		await expectToast(owner, c('passport.calendar.made'))
		const link = await owner.getByLabel(c('passport.calendar.link')).inputValue()
		expect(link).toContain(`${calendarPath}?token=`)
		const privateLink = new URL(link).pathname + new URL(link).search
		const phone = await browser.newContext({ baseURL })
		expect((await phone.request.get(privateLink)).status()).toBe(200)
		await calendar.getByRole('button', { name: c('passport.calendar.revoke') }).click()
		await expectToast(owner, c('passport.calendar.revoked'))
		await expect(owner.getByLabel(c('passport.calendar.link'))).toHaveCount(0)
		expect((await phone.request.get(privateLink)).status()).toBe(404)
		expect((await phone.request.get(calendarPath)).status()).toBe(404)
		await phone.close()

		// Another customer: the page, the calendar and the PDF are not there.
		await register(stranger, 'customer', uniqueEmail('passport-stranger'), { first: 'Sander', last: 'Stranger' })
		expect((await stranger.request.get(calendarPath)).status()).toBe(404)
		expect((await stranger.request.get(documentHref)).status()).toBe(404)
		await open(stranger, vehiclePath, javaScriptEnabled)
		await expect(stranger.getByText(`Oil and filter ${token}`)).toHaveCount(0)
		await expect(stranger.getByRole('heading', { name: common('errors.notFoundTitle') })).toBeVisible()

		// The owner removes the record.
		await entry.getByRole('button', { name: c('passport.removeRecord') }).click()
		await expectToast(owner, c('passport.recordRemoved'))
		await expect(owner.getByText(`Oil and filter ${token}`)).toHaveCount(0)
	})
}
