import { dictionary, expect, javaScriptModes, open, test, waitForEmail } from './fixtures'
import { bookedJob } from './people'

/**
 * The booked time's reminder (issue 33, part 6) as the customer meets it: a workshop open around the
 * clock is booked for its next free time, within a day; the reminder e-mail arrives through the
 * portal's outbox and SMTP with the booking as a calendar file, says what to bring and links to the
 * job; the bell says it too. The reminder job runs every 5 s here (BOOKING_REMINDERS_POLL_MS in
 * tests/e2e/serve.mjs; on PostgreSQL pg-boss's cron, every minute).
 */
const b = dictionary('en', 'booking')
const common = dictionary('en', 'common')

for (const js of javaScriptModes) {
	test(`a booked time within a day is reminded by e-mail with its calendar file, and by the bell (JavaScript ${js ? 'on' : 'off'})`, async ({ browser, baseURL }) => {
		test.setTimeout(300_000)
		const job = await bookedJob(browser, baseURL, js, 'Remind', { aroundTheClock: true })

		// "Tomorrow: …" the day before, "Soon: …" within two hours: the next free time is one of them.
		const subject = (which: 'first' | 'second') => b(`reminders.${which}.subject`).replace('{{workshop}}', job.workshopName).replace(/\{\{when\}\}.*$/, '')
		const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
		const mail = await waitForEmail({ to: job.customerEmail, subject: new RegExp(`^(${escape(subject('first'))}|${escape(subject('second'))})`) }, 150_000)
		expect(mail.attachments).toContainEqual({ filename: 'booking.ics', mimeType: 'text/calendar' })
		expect(mail.text).toContain(b('reminders.bring'))
		expect(mail.text).toMatch(new RegExp(`/work-progress/${job.requestSlug}`))

		// The bell has it as well, with the workshop's name.
		await open(job.customer, '/notifications', js)
		const notice = common('notifications.bookingReminder').replace('{{workshop}}', job.workshopName).replace(/\{\{starts\}\}.*$/, '')
		await expect(job.customer.getByText(notice, { exact: false }).first()).toBeVisible()
	})
}
