import { type Page } from '@playwright/test'
import { dictionary, expect, expectToast, javaScriptModes, loginAsAdmin, open, test } from './fixtures'
import { jobInProgress, person } from './people'

/**
 * Issue 19, parts 4–6: a final price above the binding total needs a reason and the customer's
 * yes; the customer confirms it, or disputes it and an administrator settles it. The review of
 * the job shows it verified, quoted and paid; reported, an administrator hides it.
 */
const w = dictionary('en', 'workshop')
const c = dictionary('en', 'customer')
const common = dictionary('en')
const a = dictionary('en', 'admin')
const p = dictionary('en', 'public')

const filled = (text: string, params: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name]))
/** The page's "Final bill" panel. */
const billPanel = (page: Page) => page.getByRole('region', { name: common('bill.title'), exact: true })
/** A fact's row of a panel: its label and value. */
const fact = (panel: ReturnType<typeof billPanel>, label: string) => panel.getByText(label, { exact: true }).locator('..')

/** The workshop bills €130: first without a reason (refused at its field, the price kept), then with one. */
async function billAbove(garage: Page) {
	await garage.getByLabel(w('job.finalPrice')).fill('130')
	await garage.getByLabel(w('job.mileage').replace('{{unit}}', 'km')).fill('42100')
	await garage.getByRole('button', { name: w('job.submit') }).click()
	await expect(garage.getByText(w('job.reasonRequired'))).toBeVisible()
	await expect(garage.getByLabel(w('job.finalPrice'))).toHaveValue('130')
	await garage.getByLabel(w('job.reason')).fill('Two valve stems were cracked as well.')
	await garage.getByRole('button', { name: w('job.submit') }).click()
	await expectToast(garage, w('job.billProposed'))
	await expect(garage.getByText(filled(w('bill.waiting'), { price: '€130.00', binding: '€100.00' }))).toBeVisible()
	await expect(garage.getByText(common('status.offer.bill_proposed')).first()).toBeVisible()
}

for (const javaScriptEnabled of javaScriptModes) {
	test(`a bill above the binding total confirmed by the customer, the review of the job reported and hidden, with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async ({ browser, baseURL }) => {
		test.setTimeout(240_000)
		const { garage, customer, slug, bid, workshopName } = await jobInProgress(browser, baseURL, javaScriptEnabled, 'Bill')
		await billAbove(garage)

		// The customer is told, on the dashboard too, and reads what was agreed, what is billed and why.
		await open(customer, '/dashboard', javaScriptEnabled)
		await expect(customer.getByRole('link', { name: c('bill.waiting') })).toHaveAttribute('href', `/work-progress/${slug}#final-bill`)
		await open(customer, '/notifications', javaScriptEnabled)
		await expect(customer.getByText(filled(common('notifications.billProposed'), { workshop: workshopName, price: '€130.00', binding: '€100.00' })).first()).toBeVisible()
		await open(customer, `/work-progress/${slug}`, javaScriptEnabled)
		await expect(customer.getByRole('link', { name: c('bill.waiting') })).toHaveAttribute('href', '#final-bill')
		const panel = billPanel(customer)
		await expect(fact(panel, common('bill.binding'))).toContainText('€100.00')
		await expect(fact(panel, common('bill.difference'))).toContainText('€30.00')
		await expect(panel).toContainText('Two valve stems were cracked as well.')
		// A dispute needs a reason: refused at its field, nothing changed.
		await panel.getByRole('button', { name: c('bill.dispute') }).click()
		await expect(panel.getByText(common('validation.required'))).toBeVisible()
		await panel.getByRole('button', { name: filled(c('bill.confirm'), { price: '€130.00' }) }).click()
		await expectToast(customer, c('bill.confirmed'))
		await expect(billPanel(customer)).toHaveCount(0)
		await expect(customer.getByRole('link', { name: c('progress.leaveFeedback') })).toBeVisible()
		await expect(customer.locator('.facts__row').filter({ hasText: c('progress.finalPrice') })).toContainText('€130.00')

		// The workshop sees the job done at the bill.
		await open(garage, bid, javaScriptEnabled)
		await expect(garage.getByText(common('status.offer.job_completed')).first()).toBeVisible()
		await expect(garage.getByRole('button', { name: w('job.submit') })).toHaveCount(0)

		// The customer reviews the job: the workshop's page shows it verified, with what was quoted and paid.
		const title = `Pricier than offered ${workshopName}`
		await open(customer, `/leave-feedback/${slug}`, javaScriptEnabled)
		// Each half star is a target a finger hits: at least 24×24 px (WCAG 2.2, 2.5.8; issue 32).
		const halves = await customer.locator('.rating-input__star label').evaluateAll((labels) => labels.map((label) => label.getBoundingClientRect()).map((box) => [box.width, box.height]))
		expect(halves).toHaveLength(10)
		for (const [width, height] of halves) expect(Math.min(width!, height!)).toBeGreaterThanOrEqual(24)
		await customer.getByRole('radio', { name: c('review.stars_other').replace('{{rating}}', '2'), exact: true }).check()
		await customer.getByLabel(c('review.reviewTitle')).fill(title)
		await customer.getByLabel(c('review.body')).fill('The bill was thirty euros more than the offer.')
		await customer.getByRole('button', { name: c('review.submit') }).click()
		await expectToast(customer, c('review.saved'))
		await open(customer, '/workshop-list?lng=en&q=' + encodeURIComponent(workshopName), javaScriptEnabled)
		await customer.getByRole('link', { name: workshopName }).first().click()
		const publicReview = customer.locator('.review').filter({ hasText: title })
		await expect(publicReview.getByText(p('reviews.verified'))).toBeVisible()
		await expect(publicReview).toContainText(filled(p('reviews.quotedPaid'), { quoted: '€100.00', paid: '€130.00' }))
		const workshopPage = new URL(customer.url()).pathname

		// The workshop reports it: a reason is needed; the administrators hide it, and it is gone.
		await open(garage, `${workshopPage}?lng=en`, javaScriptEnabled)
		await garage.locator('.review').filter({ hasText: title }).getByRole('link', { name: p('report.link') }).click()
		await garage.getByRole('button', { name: p('report.submit') }).click()
		await expect(garage.getByText(common('validation.unknownChoice'))).toBeVisible()
		await garage.getByLabel(p('report.reason')).selectOption({ label: p('report.reasons.offensive') })
		await garage.getByLabel(p('report.details')).fill('It calls us cheats.')
		await garage.getByRole('button', { name: p('report.submit') }).click()
		await expectToast(garage, p('report.sent'))
		// Reported once: the report page says so at once, before any form.
		await garage.locator('.review').filter({ hasText: title }).getByRole('link', { name: p('report.link') }).click()
		await expectToast(garage, p('report.already'))
		await expect(garage.getByRole('button', { name: p('report.submit') })).toHaveCount(0)
		const admin = await person(browser, javaScriptEnabled, baseURL)
		await loginAsAdmin(admin)
		await open(admin, '/admin/reviews?lng=en', javaScriptEnabled)
		const reported = admin.locator('.admin-list-item').filter({ hasText: title })
		await expect(reported).toContainText('It calls us cheats.')
		await reported.getByLabel(a('reviews.note')).fill('A bill the customer confirmed is no cheating.')
		await reported.getByRole('button', { name: a('reviews.hide') }).click()
		await expectToast(admin, a('reviews.hidden'))
		await open(customer, `${workshopPage}?lng=en`, javaScriptEnabled)
		await expect(customer.getByRole('heading', { level: 1, name: workshopName })).toBeVisible()
		await expect(customer.locator('.review').filter({ hasText: title })).toHaveCount(0)
		await open(garage, '/customer-reviews', javaScriptEnabled)
		await expect(garage.getByText(filled(w('reviews.hiddenByAdmin'), { note: 'A bill the customer confirmed is no cheating.' }))).toBeVisible()
	})

	test(`a disputed bill settled by an administrator at the binding total, with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async ({ browser, baseURL }) => {
		test.setTimeout(180_000)
		const { garage, customer, slug, bid, customerName, workshopName } = await jobInProgress(browser, baseURL, javaScriptEnabled, 'Bill')
		await billAbove(garage)
		await open(customer, `/work-progress/${slug}`, javaScriptEnabled)
		await customer.getByLabel(c('bill.disputeReason')).fill('Nobody asked me about the valve stems.')
		await customer.getByRole('button', { name: c('bill.dispute') }).click()
		await expectToast(customer, c('bill.disputed'))
		await expect(billPanel(customer)).toContainText(common('bill.disputeOpen'))
		await expect(customer.getByRole('button', { name: filled(c('bill.confirm'), { price: '€130.00' }) })).toHaveCount(0)

		// An administrator settles it: a reason is needed, then the binding total is paid.
		const admin = await person(browser, javaScriptEnabled, baseURL)
		await loginAsAdmin(admin)
		await open(admin, '/admin/disputes?lng=en', javaScriptEnabled)
		const item = admin.locator('.admin-list-item').filter({ hasText: customerName })
		await expect(item).toContainText(filled(a('disputes.between'), { customer: customerName, workshop: workshopName }))
		await expect(item).toContainText('Nobody asked me about the valve stems.')
		await expect(item).toContainText('Two valve stems were cracked as well.')
		await item.getByRole('button', { name: filled(a('disputes.binding'), { price: '€100.00' }) }).click()
		await expect(item.getByText(common('validation.required'))).toBeVisible()
		// Its own words (the other JavaScript mode's test settles one too): the audit row is this one.
		const note = `Extra work needs ${customerName}’s yes before it is done.`
		await item.getByLabel(a('disputes.note')).fill(note)
		await item.getByRole('button', { name: filled(a('disputes.binding'), { price: '€100.00' }) }).click()
		await expectToast(admin, a('disputes.settled'))
		// The audit log keeps this decision and its reason (not just some settlement).
		await open(admin, '/admin/audit?lng=en', javaScriptEnabled)
		const audited = admin.getByRole('row').filter({ hasText: note })
		await expect(audited).toContainText(a('audit.actions.bill.settle'))

		// Both sides see the outcome and its reason.
		await open(customer, `/work-progress/${slug}`, javaScriptEnabled)
		const outcome = filled(common('bill.decision.binding'), { price: '€100.00' })
		await expect(billPanel(customer)).toContainText(outcome)
		await expect(billPanel(customer)).toContainText(note)
		await expect(customer.getByRole('link', { name: c('progress.leaveFeedback') })).toBeVisible()
		await open(garage, bid, javaScriptEnabled)
		await expect(billPanel(garage)).toContainText(outcome)
	})
}
