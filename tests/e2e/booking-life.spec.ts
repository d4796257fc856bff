import { dictionary, expect, expectToast, javaScriptModes, open, test } from './fixtures'
import { bookedJob } from './people'

/**
 * A booked job's life (issue 33): the workshop proposes another time and the customer accepts it,
 * so both see the new time; then the workshop marks the car received and ready for pickup, and the
 * customer follows both on /work-progress; and a booking the workshop cancels frees its time and
 * reaches the customer's bell. JavaScript on and off.
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

	test(`the workshop cancels a booking: the customer is told by the bell and the time is free again (${mode})`, async ({ browser, baseURL }) => {
		test.setTimeout(240_000)
		const b = dictionary('en', 'booking')
		const common = dictionary('en', 'common')
		const job = await bookedJob(browser, baseURL, js, 'Cancel')
		const bookingOf = (page: typeof job.garage) => page.getByRole('region', { name: b('job.title') })

		const agendaOfTheDay = async () => {
			await open(job.garage, `/workshop-calendar?view=day&day=${job.startsAt.slice(0, 10)}`, js)
			return job.garage.getByRole('region', { name: b('calendar.agendaTitle') })
		}
		await expect((await agendaOfTheDay()).getByText(job.customerName)).toBeVisible()

		await open(job.garage, `/workshop-bid-details/${job.offerSlug}`, js)
		await bookingOf(job.garage).getByRole('link', { name: b('change.cancel') }).click()
		const confirm = js ? job.garage.getByRole('dialog', { name: b('change.cancelTitle') }) : job.garage.locator('.confirm-panel')
		await confirm.getByRole('button', { name: b('change.cancelConfirm') }).click()
		await expectToast(job.garage, b('change.done.cancelled'))

		// The customer's bell says so, with the workshop's name.
		await open(job.customer, '/notifications', js)
		const told = common('notifications.bookingCancelled').replace('{{workshop}}', job.workshopName).replace(/\{\{starts\}\}.*$/, '')
		await expect(job.customer.getByText(told, { exact: false }).first()).toBeVisible()

		// The time is free again: the agenda of its day no longer holds it.
		await expect((await agendaOfTheDay()).getByText(job.customerName)).toHaveCount(0)
	})
}
