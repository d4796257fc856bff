import { demo, dictionary, expect, expectToast, javaScriptModes, login, open, test, uniqueEmail, waitForEmail } from './fixtures'
import { addVehicle, person, register } from './people'

/**
 * Issue 20, the vehicle passport: the owner adds work done elsewhere to the service history (bad
 * input refused at its field, the input kept), downloads its PDF and the vehicle's calendar, and
 * makes and revokes the calendar's private link; nobody else gets any of it. (A completed job's
 * mileage and warranty in the history: service-flow.spec.)
 */
const c = dictionary('en', 'customer')
const w = dictionary('en', 'workshop')
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
		await owner.getByLabel(c('passport.mileage').replace('{{unit}}', 'km')).fill('41500')
		await owner.getByLabel(c('passport.description')).fill(`Oil and filter ${token}`)
		await owner.getByLabel(c('passport.workshopName')).fill('Garage on the corner')
		await owner.getByLabel(c('passport.price')).fill('59,90')
		await owner.getByLabel(c('passport.document')).setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a pdf at all') })
		await owner.getByRole('button', { name: c('passport.addRecord') }).click()
		await expect(owner.getByText(c('passport.futureDate'))).toBeVisible()
		await expect(owner.getByLabel(c('passport.description'))).toHaveValue(`Oil and filter ${token}`)

		await owner.getByLabel(c('passport.performedOn')).fill(daysAgo(30))
		await owner.getByLabel(c('passport.mileage').replace('{{unit}}', 'km')).fill('45000')
		await owner.getByLabel(c('passport.document')).setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a pdf at all') })
		await owner.getByRole('button', { name: c('passport.addRecord') }).click()
		await expect(owner.getByText(common('upload.wrongType'))).toBeVisible()
		await owner.getByLabel(c('passport.document')).setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: pdf })
		await owner.getByRole('button', { name: c('passport.addRecord') }).click()
		await expect(owner.getByText(c('passport.mileageAbove.km').replace('{{mileage, number}}', '42,000'))).toBeVisible()
		await expect(owner.getByLabel(c('passport.workshopName'))).toHaveValue('Garage on the corner')

		await owner.getByLabel(c('passport.mileage').replace('{{unit}}', 'km')).fill('41500')
		// The PDF chosen last time is held for this sending (decision 0083).
		await owner.getByRole('button', { name: c('passport.addRecord') }).click()
		await expectToast(owner, c('passport.recordAdded'))
		const entry = owner.getByRole('region', { name: c('passport.history'), exact: true }).locator('li').filter({ hasText: `Oil and filter ${token}` })
		await expect(entry).toContainText('41,500 km')
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

		// The history as a PDF for the owner, and a read-only link for a buyer, revoked once the car is sold.
		const historyPath = `${vehiclePath}/history.pdf`
		const ownPdf = await owner.request.get(historyPath)
		expect(ownPdf.status()).toBe(200)
		expect(ownPdf.headers()['content-type']).toBe('application/pdf')
		expect((await ownPdf.body()).subarray(0, 5).toString()).toBe('%PDF-')
		await history.getByRole('button', { name: c('passport.share.make') }).click()
		await expectToast(owner, c('passport.share.made'))
		const shareLink = new URL(await owner.getByLabel(c('passport.share.link')).inputValue())
		expect(shareLink.pathname).toBe(historyPath)
		const buyer = await browser.newContext({ baseURL })
		const bought = await buyer.request.get(shareLink.pathname + shareLink.search)
		expect(bought.status()).toBe(200)
		expect(bought.headers()['content-type']).toBe('application/pdf')
		expect((await buyer.request.get(historyPath)).status()).toBe(404)
		await history.getByRole('button', { name: c('passport.share.revoke') }).click()
		await expectToast(owner, c('passport.share.revoked'))
		expect((await buyer.request.get(shareLink.pathname + shareLink.search)).status()).toBe(404)
		await buyer.close()

		// Another customer: the page, the calendar and the PDFs are not there.
		await register(stranger, 'customer', uniqueEmail('passport-stranger'), { first: 'Sander', last: 'Stranger' })
		expect((await stranger.request.get(calendarPath)).status()).toBe(404)
		expect((await stranger.request.get(historyPath)).status()).toBe(404)
		expect((await stranger.request.get(documentHref)).status()).toBe(404)
		await open(stranger, vehiclePath, javaScriptEnabled)
		await expect(stranger.getByText(`Oil and filter ${token}`)).toHaveCount(0)
		await expect(stranger.getByRole('heading', { name: common('errors.notFoundTitle') })).toBeVisible()

		// The owner removes the record, once asked.
		await entry.getByRole('link', { name: c('passport.removeRecord') }).click()
		await owner.getByRole('button', { name: c('passport.removeRecordConfirm') }).click()
		await expectToast(owner, c('passport.recordRemoved'))
		await expect(owner.getByText(`Oil and filter ${token}`)).toHaveCount(0)
	})
}

for (const javaScriptEnabled of javaScriptModes) {
	test(`a reminder set on the vehicle's page is e-mailed when due and opens a prefilled request, with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async ({ browser, baseURL }) => {
		test.setTimeout(150_000)
		const token = Math.random().toString(36).slice(2, 8)
		const email = uniqueEmail('reminder-owner')
		const owner = await person(browser, javaScriptEnabled, baseURL)
		await register(owner, 'customer', email, { first: 'Reet', last: 'Meelde' })
		const plate = `R${token.toUpperCase()}`
		await addVehicle(owner, plate, javaScriptEnabled)
		await owner.locator('.vehicle-tile').filter({ hasText: plate }).getByRole('link').first().click()
		await expect(owner).toHaveURL(/\/vehicle-details\//)
		const vehiclePath = new URL(owner.url()).pathname
		const reminders = owner.getByRole('region', { name: c('reminders.title'), exact: true })
		const inspection = reminders.locator('li').filter({ has: owner.getByRole('heading', { name: c('reminders.kinds.inspection') }) })
		await expect(inspection).toContainText(c('reminders.notSet'))

		// Bad input: a due day that has passed and an absurd number of days before; what was typed is kept.
		await inspection.locator('summary', { hasText: c('reminders.setUp') }).click()
		const form = owner.locator('#reminder-inspection')
		await form.getByLabel(c('reminders.dueOn')).fill(daysAgo(3))
		await form.getByLabel(c('reminders.daysBefore')).fill('400')
		await form.getByRole('button', { name: c('reminders.save') }).click()
		await expect(form.getByText(c('reminders.dueInPast'))).toBeVisible()
		await expect(form.getByText(c('reminders.daysBeforeRange'))).toBeVisible()
		await expect(form.getByLabel(c('reminders.daysBefore'))).toHaveValue('400')

		// Due in ten days, told two weeks before: the bell and the e-mail come at once.
		await form.getByLabel(c('reminders.dueOn')).fill(daysAgo(-10))
		await form.getByLabel(c('reminders.daysBefore')).fill('14')
		await form.getByRole('button', { name: c('reminders.save') }).click()
		await expectToast(owner, c('reminders.saved'))
		await expect(inspection.locator('.badge')).toHaveText(c('reminders.states.due'))

		// The service interval refuses an absurd interval at its field.
		const service = reminders.locator('li').filter({ has: owner.getByRole('heading', { name: c('reminders.kinds.service') }) })
		await service.locator('summary', { hasText: c('reminders.setUp') }).click()
		const serviceForm = owner.locator('#reminder-service')
		await serviceForm.getByLabel(c('reminders.lastServiceOn')).fill(daysAgo(20))
		await serviceForm.getByLabel(c('reminders.lastServiceMileage').replace('{{unit}}', 'km')).fill('41000')
		await serviceForm.getByLabel(c('reminders.serviceEveryKm').replace('{{unit}}', 'km')).fill('5')
		await serviceForm.getByLabel(c('reminders.serviceEveryMonths')).fill('12')
		await serviceForm.getByRole('button', { name: c('reminders.save') }).click()
		await expect(serviceForm.getByText(c('reminders.serviceKmRange'))).toBeVisible()
		await serviceForm.getByLabel(c('reminders.serviceEveryKm').replace('{{unit}}', 'km')).fill('15000')
		await serviceForm.getByRole('button', { name: c('reminders.save') }).click()
		await expectToast(owner, c('reminders.saved'))
		await expect(service).toContainText('km, whichever comes first')

		// The e-mail's button opens a request with the vehicle and the service chosen.
		const mail = await waitForEmail({ to: email, subject: new RegExp(`^The technical inspection of \\S.* \\(${plate}\\) is due on`) }, 30_000)
		const link = mail.text.match(/https?:\/\/[^\s\]]*\/new-service-register\?[^\s\]]*/)?.[0]
		expect(link, 'a link to a prefilled request').toContain('service=inspection-prep')
		await owner.goto(link!)
		await expect(owner.locator('select[name="vehicleId"] option:checked')).toContainText(plate)
		await expect(owner.getByRole('checkbox', { name: 'Inspection preparation' })).toBeChecked()
		await expect(owner.getByRole('checkbox', { name: 'Tyre change and storage' })).not.toBeChecked()

		// Snoozed for a week, then turned off; the tyres turned on.
		await open(owner, vehiclePath, javaScriptEnabled)
		await inspection.getByRole('button', { name: c('reminders.snooze7') }).click()
		await expectToast(owner, c('reminders.snoozed'))
		await expect(inspection.locator('.badge')).toHaveText(c('reminders.states.snoozed'))
		await inspection.getByRole('button', { name: c('reminders.turnOff') }).click()
		await expectToast(owner, c('reminders.turnedOff'))
		await expect(inspection.locator('.badge')).toHaveText(c('reminders.states.off'))
		const tyres = reminders.locator('li').filter({ has: owner.getByRole('heading', { name: c('reminders.kinds.tyres') }) })
		await tyres.getByRole('button', { name: c('reminders.turnOn') }).click()
		await expectToast(owner, c('reminders.saved'))
		await expect(tyres.getByRole('button', { name: c('reminders.turnOff') })).toBeVisible()
	})
}

for (const javaScriptEnabled of javaScriptModes) {
	test(`a workshop sees the vehicle's history on a request only while its owner shares it there, with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async ({ browser, baseURL }) => {
		test.setTimeout(150_000)
		const token = Math.random().toString(36).slice(2, 8)
		const owner = await person(browser, javaScriptEnabled, baseURL)
		await register(owner, 'customer', uniqueEmail('history-sharer'), { first: 'Helju', last: 'Jagaja' })
		const plate = `H${token.toUpperCase()}`
		await addVehicle(owner, plate, javaScriptEnabled)
		await owner.locator('.vehicle-tile').filter({ hasText: plate }).getByRole('link').first().click()
		await expect(owner).toHaveURL(/\/vehicle-details\//)
		const vehiclePath = new URL(owner.url()).pathname
		await owner.locator('summary', { hasText: c('passport.addElsewhere') }).click()
		await owner.getByLabel(c('passport.performedOn')).fill(daysAgo(60))
		await owner.getByLabel(c('passport.mileage').replace('{{unit}}', 'km')).fill('40500')
		await owner.getByLabel(c('passport.description')).fill(`Timing belt ${token}`)
		await owner.getByLabel(c('passport.workshopName')).fill('Garage on the corner')
		await owner.getByLabel(c('passport.price')).fill('320')
		await owner.getByRole('button', { name: c('passport.addRecord') }).click()
		await expectToast(owner, c('passport.recordAdded'))

		// A tyre request with the history shared (off unless ticked), which the demo tyre workshop sees.
		await open(owner, '/new-service-register', javaScriptEnabled)
		await owner.getByRole('combobox', { name: c('request.vehicle') }).selectOption({ label: `Toyota Yaris · ${plate}` })
		await owner.getByRole('group', { name: c('request.services') }).getByLabel('Tyre change and storage').check()
		await owner.getByLabel(c('request.preferredAt')).fill(`${daysAgo(-3)}T10:00`)
		await owner.getByLabel(c('request.location')).fill(`Tallinn ${token}`)
		await owner.getByLabel(c('request.details')).fill('Winter tyres on, please.')
		const share = owner.getByRole('checkbox', { name: c('request.shareHistory') })
		await expect(share).not.toBeChecked()
		await share.check()
		await owner.getByRole('button', { name: c('request.submit') }).click()
		await expect(owner).toHaveURL(/\/request-details\//)
		const slug = owner.url().split('/request-details/')[1]!.split('?')[0]!
		await expect(owner.getByText(c('requestDetails.historyShared'))).toBeVisible()

		const garage = await person(browser, javaScriptEnabled, baseURL)
		await login(garage, demo.workshop.email, demo.workshop.password)
		await open(garage, `/customer-request-details/${slug}?lng=en`, javaScriptEnabled)
		const shared = garage.getByRole('region', { name: w('sharedHistory.title'), exact: true })
		const entry = shared.locator('li').filter({ hasText: `Timing belt ${token}` })
		await expect(entry).toContainText('40,500 km')
		await expect(entry).toContainText('Garage on the corner')
		// What was paid and the documents stay the owner's; the vehicle's own pages are not the workshop's.
		await expect(shared).not.toContainText('€320')
		await expect(shared.getByRole('link')).toHaveCount(0)
		await expect(shared.getByRole('button')).toHaveCount(0)
		for (const path of [vehiclePath, `${vehiclePath}/history.pdf`, `${vehiclePath}/calendar.ics`]) expect((await garage.request.get(path, { maxRedirects: 0 })).status(), path).toBe(404)

		// The owner stops sharing: the workshop's page no longer shows it; shared again, it does.
		await owner.getByRole('button', { name: c('requestDetails.historyStop') }).click()
		await expectToast(owner, c('requestDetails.historyStoppedToast'))
		await expect(owner.getByText(c('requestDetails.historyNotShared'))).toBeVisible()
		await open(garage, `/customer-request-details/${slug}?lng=en`, javaScriptEnabled)
		await expect(garage.getByRole('heading', { name: w('requestPage.request') })).toBeVisible()
		await expect(shared).toHaveCount(0)
		await expect(garage.getByText(`Timing belt ${token}`)).toHaveCount(0)
		await owner.getByRole('button', { name: c('requestDetails.historyShare') }).click()
		await expectToast(owner, c('requestDetails.historySharedToast'))
		await open(garage, `/customer-request-details/${slug}?lng=en`, javaScriptEnabled)
		await expect(entry).toBeVisible()
	})
}
