import { type Page } from '@playwright/test'
import { demo, dictionary, expect, expectToast, javaScriptModes, login, open, test, uniqueEmail } from './fixtures'
import { offerOn, person, register, vehicleAndTyreRequest } from './people'

/**
 * Issue 15: a request nobody was chosen for two weeks after its first offer expires. The demo
 * customer has one: the page says what happened and offers to reopen it, once, for a new time;
 * the workshop whose offer ended with it sees it again and offers anew.
 */
const c = dictionary('en', 'customer')
const w = dictionary('en', 'workshop')
const common = dictionary('en')
const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]))
/** The request's status as its page's header shows it (the timeline lists the past ones too). */
const statusBadge = (page: Page) => page.locator('.page-header .badge')

test('an expired request is explained, reopened once without JavaScript, and offered on again', async ({ browser, baseURL }) => {
	test.setTimeout(120_000)
	// Read first with JavaScript on, on a phone: the story and the way out.
	const phone = await person(browser, true, baseURL)
	await phone.setViewportSize({ width: 360, height: 740 })
	await login(phone, demo.customer.email, demo.customer.password)
	await open(phone, '/my-requests?status=expired&lng=en', true)
	await expect(phone.getByRole('link', { name: c('requests.filters.expired') })).toHaveAttribute('aria-current', 'page')
	const expired = phone.locator('.item__title a')
	// The demo customer's expired request (app/db/seed/demo-data.server.ts, story 8), not reopened yet.
	await expect(expired, 'the demo data has an expired request to reopen').not.toHaveCount(0)
	await expired.first().click()
	await expect(phone).toHaveURL(/\/request-details\//)
	const slug = phone.url().split('/request-details/')[1]!.split('?')[0]!
	await expect(statusBadge(phone)).toHaveText(common('status.request.expired'))
	await expect(phone.getByText(fill(c('requestDetails.expiredText'), { days: 14 }))).toBeVisible()
	await expect(phone.getByRole('button', { name: c('requestDetails.reopen') })).toBeVisible()
	expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
	await phone.context().close()

	// Reopened with JavaScript off: open again, waiting for offers, and not a second time.
	const customer = await person(browser, false, baseURL)
	await login(customer, demo.customer.email, demo.customer.password)
	await customer.goto(`/request-details/${slug}?lng=en`)
	// A time in the past is refused next to its field, and nothing changes.
	await customer.getByLabel(c('request.preferredAt')).fill('2020-01-10T09:00')
	await customer.getByRole('button', { name: c('requestDetails.reopen') }).click()
	await expect(customer.getByText(common('validation.futureDate'))).toBeVisible()
	await expect(statusBadge(customer)).toHaveText(common('status.request.expired'))
	const when = new Date(Date.now() + 4 * 24 * 3600 * 1000).toISOString().slice(0, 10)
	await customer.getByLabel(c('request.preferredAt')).fill(`${when}T09:30`)
	await customer.getByRole('button', { name: c('requestDetails.reopen') }).click()
	await expectToast(customer, c('requestDetails.reopened'))
	await expect(statusBadge(customer)).toHaveText(common('status.request.pending'))
	await expect(customer.getByRole('button', { name: c('requestDetails.reopen') })).toHaveCount(0)
	await customer.context().close()

	// The workshop whose offer ended with the request (a demo owner) is asked to offer again.
	const workshop = await person(browser, true, baseURL)
	await login(workshop, 'owner@premium-auto-service.example', demo.workshop.password)
	await open(workshop, `/customer-request-details/${slug}?lng=en`, true)
	await expect(workshop.locator('.notice').filter({ hasText: w('requestPage.reopenedNote').split('(')[0]! })).toBeVisible()
	await offerOn(workshop, slug, '65', true)
	await expect(workshop.getByText(w('requestPage.reopenedNote').split('(')[0]!)).toHaveCount(0)
	await workshop.context().close()
})

for (const javaScriptEnabled of javaScriptModes) {
	test(`a request with no offers is widened from the e-mail's link to reach more workshops (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async ({ browser, baseURL }) => {
		test.setTimeout(120_000)
		const token = Math.random().toString(36).slice(2, 8)
		const page = await person(browser, javaScriptEnabled, baseURL)
		await register(page, 'customer', uniqueEmail('widen'), { first: 'Laia', last: 'Laiendaja' })
		const slug = await vehicleAndTyreRequest(page, token, javaScriptEnabled)

		// Folded on the page; the two-day e-mail's button opens the page at the form, unfolded.
		await open(page, `/request-details/${slug}?lng=en`, javaScriptEnabled)
		await expect(page.getByRole('button', { name: c('requestDetails.widenSubmit') })).toBeHidden()
		await open(page, `/request-details/${slug}?lng=en#widen`, javaScriptEnabled)
		const form = page.locator('#widen')
		await expect(form.getByRole('button', { name: c('requestDetails.widenSubmit') })).toBeVisible()
		// Nothing chosen: the form says so and nothing changes.
		await form.getByRole('button', { name: c('requestDetails.widenSubmit') }).click()
		await expect(page.getByText(c('requestDetails.widenNothing'))).toBeVisible()

		await page.locator('#widen').getByRole('group', { name: c('requestDetails.widenServices') }).getByLabel('Brake repair').check()
		await page.locator('#widen').getByRole('button', { name: c('requestDetails.widenSubmit') }).click()
		await expectToast(page, c('requestDetails.widened_other').split('{{')[0]!)
		await expect(page.getByRole('heading', { level: 1 })).toContainText('Brake repair')
		// On a phone, in the longest of the three languages, the unfolded form stays inside the screen.
		await page.setViewportSize({ width: 360, height: 740 })
		await open(page, `/request-details/${slug}?lng=ru#widen`, javaScriptEnabled)
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
		await page.context().close()
	})
}
