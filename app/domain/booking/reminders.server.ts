import { sql } from 'drizzle-orm'
import { type DbOrTx, queryRows, transaction } from '~/db/db.server'
import { vehicleLabel } from '~/db/sql'
import { getFixedT } from '~/i18n/i18n.server'
import { type Language } from '~/i18n/config'
import { portalLink, readerLanguage, sendEmail } from '~/domain/messaging/emails.server'
import { NotificationType, notify } from '~/domain/messaging/notifications.server'
import { formatDateTime } from '~/utils/format'
import { encodeId } from '~/utils/public-id'
import { bookingCalendar } from './booking-ics.server'
import { bookingSettings } from './calendar.server'

/**
 * The customer is reminded of a booked time twice (issue 33): the day before and shortly before
 * (the site's `booking_first_reminder_hours` and `booking_second_reminder_hours`), by bell and by
 * e-mail with the booking as a calendar file attached. Each reminder is claimed by an UPDATE that
 * marks it, so two processes running the job at once send it once; when both are due (a time
 * booked two hours ahead), only the nearer one is sent and both are marked.
 */

type DueReminder = {
	id: string
	which: 'first' | 'second'
	sequence: number
	startsAt: Date
	endsAt: Date
	requestId: string
	userId: string
	email: string
	language: string | null
	blocked: boolean
	workshop: string
	address: string
	phone: string
	car: string
}

/** Claims the due reminders (marks them sent) and answers what to tell, in one statement. */
async function claimDue(tx: DbOrTx, now: Date, hours: { first: number; second: number }): Promise<DueReminder[]> {
	const first = new Date(now.getTime() + hours.first * 3600_000)
	const second = new Date(now.getTime() + hours.second * 3600_000)
	return queryRows<DueReminder>(
		tx,
		sql`with due as (
		      select k.id, case when k.starts_at <= ${second} then 'second' else 'first' end as which
		      from bookings k
		      where k.status = 'booked' and k.starts_at > ${now}
		        and ((k.starts_at <= ${first} and k.first_reminder_at is null) or (k.starts_at <= ${second} and k.second_reminder_at is null))
		      for update skip locked
		    ), marked as (
		      update bookings k set
		        first_reminder_at = coalesce(k.first_reminder_at, ${now}),
		        second_reminder_at = case when due.which = 'second' then ${now} else k.second_reminder_at end
		      from due where k.id = due.id
		      returning k.id, due.which, k.sequence, k.starts_at, k.ends_at, k.request_id
		    )
		    select m.id, m.which, m.sequence, m.starts_at as "startsAt", m.ends_at as "endsAt", m.request_id as "requestId",
		           u.id as "userId", u.email, u.preferred_language as language, u.blocked,
		           w.workshop_name as workshop, concat_ws(', ', nullif(w.street_name, ''), nullif(w.zip_code, ''), c.name_et) as address,
		           w.phone, ${vehicleLabel('registration')} as car
		    from marked m
		    join service_requests r on r.id = m.request_id
		    join users u on u.id = r.customer_id
		    join offers o on o.id = r.selected_offer_id
		    join workshops w on w.id = o.workshop_id
		    left join cities c on c.id = w.city_id
		    join vehicles v on v.id = r.vehicle_id
		    join car_brands b on b.id = v.brand_id`,
	)
}

/** The reminder's e-mail: when and where, what to bring, the booking as a calendar file. */
function reminderEmail(reminder: DueReminder, language: Language) {
	const t = getFixedT(language, 'booking')
	const when = formatDateTime(new Date(reminder.startsAt), language)
	const url = portalLink(`/work-progress/${encodeId(reminder.requestId)}`, language)
	const subject = t(`reminders.${reminder.which}.subject`, { workshop: reminder.workshop, when })
	const ics = bookingCalendar(
		[
			{
				id: reminder.id,
				sequence: reminder.sequence,
				status: 'booked',
				startsAt: new Date(reminder.startsAt),
				endsAt: new Date(reminder.endsAt),
				summary: t('reminders.eventSummary', { workshop: reminder.workshop, car: reminder.car }),
				location: reminder.address,
				url,
			},
		],
		{ name: reminder.workshop, language },
	)
	return {
		subject,
		content: {
			preview: subject,
			heading: subject,
			paragraphs: [t(`reminders.${reminder.which}.body`, { workshop: reminder.workshop, when }), t('reminders.bring')],
			facts: [
				{ label: t('reminders.facts.when'), value: when },
				{ label: t('reminders.facts.where'), value: [reminder.workshop, reminder.address].filter(Boolean).join(', ') },
				{ label: t('reminders.facts.car'), value: reminder.car },
				...(reminder.phone ? [{ label: t('reminders.facts.phone'), value: reminder.phone }] : []),
			],
			action: { label: t('reminders.action'), url },
		},
		attachments: [{ filename: 'booking.ics', contentType: 'text/calendar; charset=utf-8; method=PUBLISH', content: ics }],
	}
}

/** The job: every reminder due now, each sent once. Answers how many were sent. */
export async function sendBookingReminders(now = new Date()): Promise<number> {
	const settings = await bookingSettings()
	return transaction(async (tx) => {
		const due = await claimDue(tx, now, { first: settings.firstReminderHours, second: settings.secondReminderHours })
		for (const reminder of due) {
			if (reminder.blocked) continue
			const language = readerLanguage(reminder.language)
			await notify(tx, {
				userId: reminder.userId,
				type: NotificationType.dialog,
				messageKey: 'notifications.bookingReminder',
				messageParams: { workshop: reminder.workshop, startsAt: new Date(reminder.startsAt).toISOString() },
				receivedId: reminder.requestId,
			})
			const { subject, content, attachments } = reminderEmail(reminder, language)
			await sendEmail(tx, { to: reminder.email, language, subject, content, attachments, dedupeKey: `booking-reminder:${reminder.id}:${reminder.which}` })
		}
		return due.length
	})
}
