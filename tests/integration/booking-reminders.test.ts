import { parseWithZod } from '@conform-to/zod/v4'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { SiteSettingsSchema } from '~/domain/admin/admin'
import { getSiteSettingsForEdit, saveSiteSettings } from '~/domain/admin/content.server'
import { customerRecord } from '~/domain/booking/record.server'
import { sendBookingReminders } from '~/domain/booking/reminders.server'
import { db } from '~/db/db.server'
import { bookings, emailOutbox, notifications, users, workshopBays } from '~/db/schema'
import { createAdmin } from '#tests/support/accounts'
import { jobInProgress } from '#tests/support/flow'

/**
 * A booked time's reminders (issue 33): the day before and shortly before, by bell and by e-mail in
 * the customer's language with the booking attached as a calendar file; each once, however many
 * times (and processes) the job runs; none for a booking that no longer holds its time.
 */

/** A job in progress whose time is booked `hours` after `now` (written directly: the reminders do not care how it was chosen). */
async function bookedIn(hours: number, now = new Date(), language: 'et' | 'en' | 'ru' = 'en') {
	const job = await jobInProgress()
	await db.update(users).set({ preferredLanguage: language }).where(eq(users.id, job.customerId))
	const [bay] = await db.insert(workshopBays).values({ workshopId: job.workshop.workshopId, position: 1 }).returning()
	const startsAt = new Date(now.getTime() + hours * 3600_000)
	const endsAt = new Date(startsAt.getTime() + 3600_000)
	const [booking] = await db
		.insert(bookings)
		.values({ workshopId: job.workshop.workshopId, bayId: bay!.id, offerId: job.offerId, requestId: job.requestId, customerId: job.customerId, startsAt, endsAt, blocksUntil: endsAt })
		.returning()
	const [customer] = await db.select().from(users).where(eq(users.id, job.customerId))
	return { ...job, booking: booking!, email: customer!.email }
}

const mailsTo = (email: string) => db.select().from(emailOutbox).where(eq(emailOutbox.to, email))
const bellOf = (userId: string) =>
	db.select().from(notifications).where(eq(notifications.userId, userId)).then((rows) => rows.filter((row) => row.messageKey === 'notifications.bookingReminder'))

describe('booking reminders', () => {
	test('the day before, once, in the customer’s language, with the booking as a calendar file; then shortly before', async () => {
		const now = new Date()
		const { booking, email, customerId } = await bookedIn(20, now, 'et')
		await sendBookingReminders(now)
		await sendBookingReminders(new Date(now.getTime() + 60_000))
		let mails = await mailsTo(email)
		const first = mails.filter((mail) => mail.subject.startsWith('Homme'))
		expect(first).toHaveLength(1)
		expect(first[0]!.text).toContain('registreerimistunnistus')
		const attachment = (first[0]!.attachments as Array<{ filename: string; contentType: string; content: string }>)[0]!
		expect(attachment.contentType).toMatch(/^text\/calendar/)
		expect(attachment.content).toContain(`UID:booking-${booking.id}@`)
		expect(attachment.content).toContain('SEQUENCE:0')
		const start = booking.startsAt.toISOString().replace(/[-:]/g, '').slice(0, 15)
		expect(attachment.content).toContain(`DTSTART:${start}Z`)
		expect(await bellOf(customerId)).toHaveLength(1)

		// Two hours before: the second reminder, once.
		const later = new Date(booking.startsAt.getTime() - 90 * 60_000)
		await Promise.all([sendBookingReminders(later), sendBookingReminders(later)])
		mails = await mailsTo(email)
		expect(mails.filter((mail) => mail.subject.startsWith('Varsti'))).toHaveLength(1)
		expect(await bellOf(customerId)).toHaveLength(2)
	})

	test('a time booked shortly ahead gets only the near reminder; an ended booking and a past one get none', async () => {
		const now = new Date()
		const soon = await bookedIn(1, now)
		const cancelled = await bookedIn(10, now)
		await db.update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, cancelled.booking.id))
		const past = await bookedIn(-1, now)
		await sendBookingReminders(now)
		const soonMails = await mailsTo(soon.email)
		expect(soonMails.map((mail) => mail.subject.slice(0, 5)).filter((start) => start === 'Soon:' || start === 'Tomor')).toEqual(['Soon:'])
		const [row] = await db.select().from(bookings).where(eq(bookings.id, soon.booking.id))
		expect(row!.firstReminderAt).not.toBeNull()
		expect(row!.secondReminderAt).not.toBeNull()
		expect((await mailsTo(cancelled.email)).filter((mail) => mail.subject.includes('Soon') || mail.subject.includes('Tomorrow'))).toHaveLength(0)
		expect((await mailsTo(past.email)).filter((mail) => mail.subject.includes('Soon') || mail.subject.includes('Tomorrow'))).toHaveLength(0)
	})
})

describe('the site’s booking settings', () => {
	test('are validated: the second reminder comes after the first, hours and minutes within their ranges', async () => {
		const current = await getSiteSettingsForEdit()
		const form = (changes: Record<string, string>) => {
			const data = new FormData()
			for (const [name, value] of Object.entries({ ...current, vatRate: '24', ...changes })) data.set(name, String(value))
			return parseWithZod(data, { schema: SiteSettingsSchema })
		}
		expect(form({}).status).toBe('success')
		expect(form({ bookingFirstReminderHours: '2', bookingSecondReminderHours: '2' }).reply().error).toEqual({ bookingSecondReminderHours: ['admin:validation.secondReminderBeforeFirst'] })
		expect(form({ bookingTypicalMinutes: '5' }).reply().error?.bookingTypicalMinutes).toBeTruthy()
		expect(form({ bookingFreeChangeHours: 'x' }).reply().error?.bookingFreeChangeHours).toBeTruthy()
	})

	test('the reminders follow them', async () => {
		const admin = await createAdmin()
		const current = await getSiteSettingsForEdit()
		await saveSiteSettings(admin.id, { ...current, vatRate: 2400, bookingFirstReminderHours: 48, bookingSecondReminderHours: 6 }, {})
		try {
			const now = new Date()
			const { email } = await bookedIn(40, now)
			await sendBookingReminders(now)
			expect((await mailsTo(email)).filter((mail) => mail.subject.startsWith('Tomorrow'))).toHaveLength(1)
		} finally {
			await saveSiteSettings(admin.id, { ...current, vatRate: 2400 }, {})
		}
	})
})

describe('a customer’s record of booked times', () => {
	test('counts the times come due, a no-show as not come, a time the workshop did not take not at all; shown from three on', async () => {
		const now = new Date()
		const first = await bookedIn(-50, now)
		const customerId = first.customerId
		expect(await customerRecord(customerId, now)).toBeNull()
		// Four more jobs of the same customer, each booked in the past, with their ends.
		const statuses = ['done', 'no_show', 'not_taken', 'cancelled'] as const
		for (const [index, status] of statuses.entries()) {
			const job = await jobInProgress({ owner: first.owner })
			const [bay] = await db.insert(workshopBays).values({ workshopId: job.workshop.workshopId, position: 1 }).returning()
			const startsAt = new Date(now.getTime() - (index + 2) * 24 * 3600_000)
			await db.insert(bookings).values({ workshopId: job.workshop.workshopId, bayId: bay!.id, offerId: job.offerId, requestId: job.requestId, customerId, startsAt, endsAt: new Date(startsAt.getTime() + 3600_000), blocksUntil: new Date(startsAt.getTime() + 3600_000), status })
		}
		await db.update(bookings).set({ status: 'done' }).where(eq(bookings.id, first.booking.id))
		// Due: the two done and the no-show; not the workshop's failing, not the cancelled one.
		expect(await customerRecord(customerId, now)).toEqual({ due: 3, came: 2 })
	})
})
