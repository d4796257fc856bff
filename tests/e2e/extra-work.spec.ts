import { type Page } from '@playwright/test'
import sharp from 'sharp'
import { dictionary, expect, expectToast, javaScriptModes, open, test } from './fixtures'
import { jobInProgress } from './people'

/**
 * Issue 19, part 3: while the job is under way, the chosen workshop asks for extra work (lines, a
 * reason, a photo); the customer is told, and approves one and declines another on the job's
 * page; only the approved one joins the binding total; the job cannot be finished while one waits.
 */
const w = dictionary('en', 'workshop')
const c = dictionary('en', 'customer')
const common = dictionary('en')

const filled = (text: string, params: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name]))
const png = (colour: string) => sharp({ create: { width: 640, height: 480, channels: 3, background: colour } }).png().toBuffer()

/** The extra-work form's n-th line (1-based). */
const line = (page: Page, n: number) => page.locator('#extra-work-form .offer-lines__line').nth(n - 1)

/** The workshop asks for extra work: one labour line (the form starts with it) and, when given, a part. */
async function askForExtraWork(page: Page, reason: string, labour: [string, string, string], part?: [string, string, string]) {
	await page.getByLabel(w('extraWork.reason')).fill(reason)
	await line(page, 1).getByLabel(w('offer.lineDescription')).fill(labour[0])
	await line(page, 1).getByLabel(w('offer.hours')).fill(labour[1])
	await line(page, 1).getByLabel(w('offer.hourlyRate')).fill(labour[2])
	if (part) {
		await page.locator('#extra-work-form').getByRole('button', { name: w('offer.addPart') }).click()
		await line(page, 2).getByLabel(w('offer.lineDescription')).fill(part[0])
		await line(page, 2).getByLabel(w('offer.quantity')).fill(part[1])
		await line(page, 2).getByLabel(w('offer.unitPrice')).fill(part[2])
	}
}

for (const javaScriptEnabled of javaScriptModes) {
	test(`extra work asked for, approved and declined, with JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async ({ browser, baseURL }) => {
		test.setTimeout(180_000)
		const { garage, customer, slug, bid, workshopName } = await jobInProgress(browser, baseURL, javaScriptEnabled, 'Extra')
		// No extra work yet: no such panel for the customer.
		await expect(customer.getByRole('heading', { name: common('extraWork.title'), exact: true })).toHaveCount(0)

		// The workshop's job page: a part at €0 is refused at its field, nothing is asked.
		await askForExtraWork(garage, 'The valve stems are cracked and leak air.', ['Replace the valve stems', '0,5', '40'], ['Valve stem', '4', '0'])
		await garage.getByLabel(w('extraWork.photos')).setInputFiles({ name: 'valve.png', mimeType: 'image/png', buffer: await png('#7f8c8d') })
		await garage.getByRole('button', { name: w('extraWork.submit') }).click()
		await expect(line(garage, 2).getByText(common('validation.money'))).toBeVisible()
		await expect(garage.locator('.extra-work__item')).toHaveCount(0)
		// What was typed stays.
		await expect(line(garage, 1).getByLabel(w('offer.lineDescription'))).toHaveValue('Replace the valve stems')
		await line(garage, 2).getByLabel(w('offer.unitPrice')).fill('3')
		if (javaScriptEnabled) await expect(garage.locator('#extra-work-form .offer-lines__total')).toHaveText(filled(w('offer.linesTotal'), { total: '€32.00' }))
		// Without JavaScript the server refused the form and holds the photo; with it, the form was never sent.
		if (!javaScriptEnabled) await expect(garage.locator('#extra-work-form .file-list__held').getByRole('checkbox')).toBeChecked()
		await garage.getByRole('button', { name: w('extraWork.submit') }).click()
		await expectToast(garage, w('extraWork.asked'))
		const asked = garage.locator('.extra-work__item').first()
		await expect(asked).toContainText(common('extraWork.status.workshop.waiting'))
		await expect(asked).toContainText('€32.00')
		await expect(asked.locator('.photo-strip img')).toHaveCount(1)

		// While it waits, the job cannot be completed.
		await garage.getByLabel(w('job.finalPrice')).fill('132')
		await garage.getByLabel(w('job.mileage').replace('{{unit}}', 'km')).fill('42100')
		await garage.getByRole('button', { name: w('job.submit') }).click()
		await expect(garage.getByText(w('job.extraWorkWaiting'))).toBeVisible()

		// The customer is told, on the dashboard and the request list too, and sees what it is, with its photo, waiting for the answer.
		const waitingNote = filled(c('requests.extraWorkWaiting_one'), { count: 1 })
		await open(customer, '/dashboard', javaScriptEnabled)
		await expect(customer.getByRole('link', { name: waitingNote })).toBeVisible()
		await open(customer, '/my-requests', javaScriptEnabled)
		await expect(customer.getByRole('link', { name: waitingNote })).toHaveAttribute('href', `/work-progress/${slug}#extra-work`)
		await open(customer, '/notifications', javaScriptEnabled)
		await expect(customer.getByText(filled(common('notifications.extraWorkRequested'), { workshop: workshopName, price: '€32.00' })).first()).toBeVisible()
		await open(customer, `/work-progress/${slug}`, javaScriptEnabled)
		await expect(customer.getByText(filled(c('progress.extraWorkWaiting_one'), { count: 1 }))).toBeVisible()
		const item = customer.locator('.extra-work__item').first()
		await expect(item).toContainText(common('extraWork.status.customer.waiting'))
		await expect(item).toContainText('The valve stems are cracked and leak air.')
		await expect(item.getByRole('table', { name: common('offerTerms.linesTitle') }).getByRole('row')).toHaveCount(3)
		await expect(item.locator('.photo-strip img')).toHaveCount(1)
		await item.getByRole('button', { name: `${c('extraWork.approve')} (€32.00)` }).click()
		await expectToast(customer, c('extraWork.approved'))
		await expect(customer.getByText(filled(c('progress.extraWorkWaiting_one'), { count: 1 }))).toHaveCount(0)
		await expect(customer.locator('.extra-work__item').first()).toContainText(common('extraWork.status.customer.approved'))
		await expect(customer.locator('.extra-work__item').first().getByRole('button')).toHaveCount(0)
		await expect(customer.locator('.facts__row').filter({ hasText: common('extraWork.bindingTotal') })).toContainText('€132.00')

		// A second request, declined: the binding total stays.
		await open(garage, bid, javaScriptEnabled)
		await expect(garage.locator('.extra-work__item').first()).toContainText(common('extraWork.status.workshop.approved'))
		await askForExtraWork(garage, 'The rims are bent.', ['Straighten two rims', '2', '45'])
		await garage.getByRole('button', { name: w('extraWork.submit') }).click()
		await expectToast(garage, w('extraWork.asked'))
		await open(customer, `/work-progress/${slug}`, javaScriptEnabled)
		const second = customer.locator('.extra-work__item').nth(1)
		await expect(second).toContainText('€90.00')
		await second.getByRole('button', { name: c('extraWork.decline') }).click()
		await expectToast(customer, c('extraWork.declined'))
		await expect(customer.locator('.extra-work__item').nth(1)).toContainText(common('extraWork.status.customer.declined'))
		await expect(customer.locator('.facts__row').filter({ hasText: common('extraWork.bindingTotal') })).toContainText('€132.00')

		// The workshop sees both answers and completes the job at the binding total.
		await open(garage, bid, javaScriptEnabled)
		await expect(garage.locator('.extra-work__item').nth(1)).toContainText(common('extraWork.status.workshop.declined'))
		await expect(garage.getByText(w('bid.bindingTotal'), { exact: true }).locator('..')).toContainText('€132.00')
		await garage.getByLabel(w('job.finalPrice')).fill('132')
		await garage.getByLabel(w('job.mileage').replace('{{unit}}', 'km')).fill('42100')
		await garage.getByRole('button', { name: w('job.submit') }).click()
		await expectToast(garage, w('job.completed'))
		// The job done, nothing more can be asked.
		await expect(garage.getByRole('button', { name: w('extraWork.submit') })).toHaveCount(0)
	})
}
