import { dictionary, expect, expectToast, javaScriptModes, open, test } from './fixtures'
import { bookedJob } from './people'

/**
 * A booked job's life (issue 33): the workshop proposes another time and the customer accepts it,
 * so both see the new time; then the workshop marks the car received and ready for pickup, and the
 * customer follows both on /work-progress. JavaScript on and off.
 */
for (const js of javaScriptModes) {
	const mode = `JavaScript ${js ? 'on' : 'off'}`

	test(`a new time proposed by the workshop is accepted, and the workshop's steps reach the customer (${mode})`, async ({ browser, baseURL }) => {
		test.setTimeout(240_000)
		const b = dictionary('en', 'booking')
		const job = await bookedJob(browser, baseURL, js, 'Life')
		const workshopPage = `/workshop-bid-details/${job.offerSlug}`
		const customerPage = `/work-progress/${job.requestSlug}`
		const bookingOf = (page: typeof job.garage) => page.getByRole('region', { name: b('job.title') })

		// Another time, while the car is not yet there: the workshop proposes, the customer accepts.
		await open(job.garage, workshopPage, js)
		const other = bookingOf(job.garage).getByRole('radio').nth(1)
		const otherTime = (await other.getAttribute('value'))!
		await other.check()
		await bookingOf(job.garage).getByRole('button', { name: b('change.propose') }).click()
		await expectToast(job.garage, b('change.done.proposed'))

		await open(job.customer, customerPage, js)
		await bookingOf(job.customer).getByRole('button', { name: b('change.accept') }).click()
		await expectToast(job.customer, b('change.done.moved'))
		expect(otherTime).toBeTruthy()

		// The steps: car received, then straight to ready for pickup (a short job skips "work started").
		await open(job.garage, workshopPage, js)
		await bookingOf(job.garage).getByRole('button', { name: b('job.stepButtons.receiveCar') }).click()
		await expectToast(job.garage, b('job.done.receiveCar'))
		await bookingOf(job.garage).getByRole('button', { name: b('job.stepButtons.markReady') }).click()
		await expectToast(job.garage, b('job.done.markReady'))

		await open(job.customer, customerPage, js)
		const steps = bookingOf(job.customer)
		await expect(steps.getByText(b('job.steps.ready'))).toBeVisible()
		// "Work started" (skipped) and "completed" are the two not reached.
		await expect(steps.getByText(b('job.notYet'))).toHaveCount(2)
	})
}
