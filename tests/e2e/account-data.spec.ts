import { unzipSync, strFromU8 } from 'fflate'
import { dictionary, expect, expectToast, javaScriptModes, open, test, waitForEmail } from './fixtures'
import { jobInProgress, PASSWORD } from './people'

/**
 * Issue 21, parts 1 and 2 (decision 0111): a new customer whose job was completed and reviewed
 * downloads their data as a ZIP, is refused deletion with a wrong password, deletes the account
 * with the right one, and is told by e-mail; the login then fails and the review is shown as
 * "Former customer". A workshop with a job under way is refused, with the reason, and nothing changes.
 */
const a = dictionary('en', 'account')
const auth = dictionary('en', 'auth')
const c = dictionary('en', 'customer')
const w = dictionary('en', 'workshop')
const common = dictionary('en')

for (const javaScriptEnabled of javaScriptModes) {
	test(`a customer downloads their data and deletes the account; their review stays as "Former customer", with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async ({
		browser,
		baseURL,
	}) => {
		test.setTimeout(180_000)
		const { garage, customer, slug, bid, workshopName, customerName } = await jobInProgress(browser, baseURL, javaScriptEnabled, 'Erase')

		// The workshop cannot leave while the job is under way: the reason shows, nothing changes.
		await open(garage, '/settings', javaScriptEnabled)
		const garageDeletion = garage.getByRole('region', { name: a('deletion.title') })
		await garageDeletion.getByLabel(a('deletion.password')).fill(PASSWORD)
		await garageDeletion.getByRole('button', { name: a('deletion.submit') }).click()
		await expect(garage.getByText(a('deletion.openJobs'))).toBeVisible()
		await open(garage, bid, javaScriptEnabled)

		// The job is completed and reviewed.
		await garage.getByLabel(w('job.finalPrice')).fill('100')
		await garage.getByLabel(w('job.mileage').replace('{{unit}}', 'km')).fill('42500')
		await garage.getByRole('button', { name: w('job.submit') }).click()
		await expectToast(garage, w('job.completed'))
		await open(customer, `/leave-feedback/${slug}`, javaScriptEnabled)
		await customer.getByRole('radio', { name: c('review.stars_other').replace('{{rating}}', '5'), exact: true }).check()
		const title = `Erased but kept ${slug.slice(0, 6)}`
		await customer.getByLabel(c('review.reviewTitle')).fill(title)
		await customer.getByLabel(c('review.body')).fill('Good work, on time.')
		await customer.getByRole('button', { name: c('review.submit') }).click()
		await expectToast(customer, c('review.saved'))

		// "Download my data": a ZIP with the account, the vehicle, the request and the review.
		await open(customer, '/settings', javaScriptEnabled)
		const data = customer.getByRole('region', { name: a('export.title') })
		const [download] = await Promise.all([customer.waitForEvent('download'), data.getByRole('link', { name: a('export.download') }).click()])
		expect(download.suggestedFilename()).toMatch(/^autohub-data-\d{4}-\d{2}-\d{2}\.zip$/)
		const chunks: Buffer[] = []
		for await (const chunk of (await download.createReadStream())!) chunks.push(chunk as Buffer)
		const zip = unzipSync(new Uint8Array(Buffer.concat(chunks)))
		const exported = JSON.parse(strFromU8(zip['data.json']!))
		expect(`${exported.account.firstName} ${exported.account.lastName}`).toBe(customerName)
		expect(exported.vehicles[0].registrationNumber).toMatch(/^N[A-Z0-9]{6}$/)
		expect(exported.serviceRequests[0].offers[0].finalPriceCents).toBe(10000)
		expect(exported.reviews[0].title).toBe(title)
		const address = exported.account.email as string
		expect(address).toMatch(/@example\.com$/)

		// A wrong password: refused at its field, nothing deleted.
		const deletion = customer.getByRole('region', { name: a('deletion.title') })
		await deletion.getByLabel(a('deletion.password')).fill('not-my-pass')
		await deletion.getByRole('button', { name: a('deletion.submit') }).click()
		await expect(customer.getByText(a('deletion.wrongPassword'))).toBeVisible()
		await open(customer, '/dashboard', javaScriptEnabled)
		await expect(customer.locator('.shell__header')).toContainText(customerName)

		// The right one: signed out, told so, and by e-mail.
		await open(customer, '/settings', javaScriptEnabled)
		await deletion.getByLabel(a('deletion.password')).fill(PASSWORD)
		await deletion.getByRole('button', { name: a('deletion.submit') }).click()
		await expect(customer).toHaveURL(/\/$/)
		await expectToast(customer, a('deletion.done'))
		const mail = await waitForEmail({ to: address, subject: a('deletion.email.subject') })
		expect(mail.text).toContain(a('deletion.email.subject'))
		await open(customer, '/dashboard', javaScriptEnabled)
		await expect(customer).toHaveURL(/\/\?redirectTo=%2Fdashboard$/)

		// The login fails as for an unknown address.
		await open(customer, '/login?lng=en', javaScriptEnabled)
		await customer.getByLabel(auth('login.email')).fill(address)
		await customer.getByLabel(auth('login.password')).fill(PASSWORD)
		await customer.getByRole('button', { name: auth('login.submit') }).click()
		await expect(customer.getByText(auth('login.invalid'))).toBeVisible()

		// The review stays on the workshop's page, under "Former customer".
		await open(customer, `/workshop-list?lng=en&q=${encodeURIComponent(workshopName)}`, javaScriptEnabled)
		await customer.getByRole('link', { name: workshopName }).first().click()
		const review = customer.locator('.review').filter({ hasText: title })
		await expect(review).toContainText(common('formerCustomer'))
		await expect(review).not.toContainText(customerName)

		await garage.context().close()
		await customer.context().close()
	})
}
