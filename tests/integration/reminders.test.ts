import { parseWithZod } from '@conform-to/zod/v4'
import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { emailOutbox, notifications, services, users, vehicleReminders } from '~/db/schema'
import { SiteSettingsSchema } from '~/domain/admin/admin'
import { completeJob } from '~/domain/service-flow/job-moves.server'
import { makeOffer, selectOffer } from '~/domain/service-flow/offer-moves.server'
import { vehicleCalendar } from '~/domain/service-flow/passport-calendar.server'
import { linkedVehicle } from '~/domain/service-flow/passport.server'
import { ReminderOffSchema, reminderSchemas, SnoozeReminderSchema } from '~/domain/service-flow/reminder-schema'
import { addDays, parseDayOfYear, reminderSchedule, unsetReminder } from '~/domain/service-flow/reminders'
import { changeReminder, saveReminder, sendReminders, vehicleReminderList } from '~/domain/service-flow/reminders.server'
import { getNotificationDetail } from '~/domain/messaging/notifications.server'
import { db } from '~/db/db.server'
import { tallinnDay } from '~/utils/time'
import { createCustomer } from '#tests/support/accounts'
import { refused } from '#tests/support/refusals'
import { customerWithVehicle, openRequest, workshopOffering } from '#tests/support/flow'

/**
 * Issue 20, the passport's reminders: the technical inspection, the seasonal tyres and the service
 * interval are told by the bell and e-mail at the right time (the clock moved), once per
 * occurrence, opening a request prefilled with the vehicle and the service; snoozed, turned off,
 * absurd figures refused; in the calendar; the owner's only.
 */

const DAY = 86_400_000
const later = (days: number) => new Date(Date.now() + days * DAY)
const today = () => tallinnDay()
const tyreDays = { autumn: '10-01', spring: '03-15' }

/** The form's input as the browser sends it, parsed by the shared schema. */
function form(kind: 'inspection' | 'tyres' | 'service', fields: Record<string, string>) {
	const formData = new FormData()
	formData.set('kind', kind)
	for (const [name, value] of Object.entries(fields)) formData.set(name, value)
	return parseWithZod(formData, { schema: reminderSchemas[kind] })
}
function valid(kind: 'inspection' | 'tyres' | 'service', fields: Record<string, string>) {
	const submission = form(kind, fields)
	if (submission.status !== 'success') throw new Error(`invalid: ${JSON.stringify(submission.error)}`)
	return submission.value
}

async function told(userId: string) {
	const [owner] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId))
	const bell = await db.select({ key: notifications.messageKey, id: notifications.id }).from(notifications).where(eq(notifications.userId, userId))
	const mails = await db.select({ subject: emailOutbox.subject, text: emailOutbox.text }).from(emailOutbox).where(eq(emailOutbox.to, owner!.email))
	return { bell, mails, keys: bell.map((row) => row.key) }
}

describe('when a reminder is due', () => {
	test('the inspection: days before its day, overdue after it; the tyres on the season days; the service by months or by mileage', () => {
		const inspection = { ...unsetReminder('inspection'), active: true, dueOn: '2027-05-20', daysBefore: 14 }
		const at = (day: string, mileage = 50_000) => ({ mileage, today: day, tyreDays })
		expect(reminderSchedule(inspection, at('2027-05-05'))).toMatchObject({ state: 'scheduled', nextOn: '2027-05-20', notify: false })
		expect(reminderSchedule(inspection, at('2027-05-06'))).toMatchObject({ state: 'due', key: '2027-05-20', notify: true })
		expect(reminderSchedule({ ...inspection, notifiedKey: '2027-05-20' }, at('2027-05-07')).notify).toBe(false)
		expect(reminderSchedule(inspection, at('2027-05-21')).state).toBe('overdue')
		expect(reminderSchedule({ ...inspection, snoozedUntil: '2027-05-13' }, at('2027-05-10'))).toMatchObject({ state: 'snoozed', notify: false })
		expect(reminderSchedule({ ...inspection, active: false }, at('2027-05-10'))).toMatchObject({ state: 'off', notify: false })

		const tyres = { ...unsetReminder('tyres'), active: true }
		expect(reminderSchedule(tyres, at('2026-09-30'))).toMatchObject({ state: 'scheduled', nextOn: '2026-10-01', season: 'winter' })
		expect(reminderSchedule(tyres, at('2026-10-01'))).toMatchObject({ state: 'due', season: 'winter', key: '2026-10-01', notify: true })
		expect(reminderSchedule(tyres, at('2026-10-20'))).toMatchObject({ state: 'scheduled', nextOn: '2027-03-15', season: 'summer' })
		expect(reminderSchedule(tyres, at('2027-03-20'))).toMatchObject({ state: 'due', season: 'summer', key: '2027-03-15' })
		expect(reminderSchedule(tyres, { ...at('2027-02-01'), tyreDays: { autumn: '11-01', spring: '04-01' } }).nextOn).toBe('2027-04-01')

		// Every 15,000 km (all in km, decision 0122); told 1,000 km before it, or 14 days before 12 months.
		const service = { ...unsetReminder('service'), active: true, lastDoneOn: '2026-06-01', lastDoneMileage: 40_000 }
		expect(reminderSchedule(service, at('2026-12-01', 53_000))).toMatchObject({ state: 'scheduled', nextOn: '2027-06-01', dueKm: 55_000 })
		expect(reminderSchedule(service, at('2026-12-01', 54_000))).toMatchObject({ state: 'due', notify: true })
		expect(reminderSchedule(service, at('2027-05-18', 41_000))).toMatchObject({ state: 'due' })
		expect(reminderSchedule(service, at('2026-12-01', 55_000)).state).toBe('overdue')
	})

	test('an inspection is told once, by the bell and e-mail, with the clock moved; its notice opens a request for the vehicle and the service', async () => {
		const { customer, vehicleId } = await customerWithVehicle()
		const dueOn = addDays(today(), 60)
		await saveReminder(customer.id, vehicleId, valid('inspection', { dueOn, daysBefore: '14' }))
		expect((await told(customer.id)).keys).not.toContain('notifications.reminderInspection')

		// A month on: still 30 days left, nothing.
		await sendReminders(later(30))
		expect((await told(customer.id)).keys).not.toContain('notifications.reminderInspection')
		// 10 days before the day: told, once.
		await sendReminders(later(50))
		await sendReminders(later(52))
		const after = await told(customer.id)
		expect(after.keys.filter((key) => key === 'notifications.reminderInspection')).toHaveLength(1)
		const mail = after.mails.find((row) => row.subject.startsWith('The technical inspection of'))
		expect(mail, 'the e-mail').toBeTruthy()
		expect(mail!.text).toMatch(/\/new-service-register\?vehicle=[\w-]+&service=inspection-prep/)
		const bell = after.bell.find((row) => row.key === 'notifications.reminderInspection')!
		const detail = await getNotificationDetail(customer.id, bell.id, 'en')
		expect(detail.link).toMatchObject({ to: expect.stringMatching(/^\/new-service-register\?vehicle=.+&service=inspection-prep$/), labelKey: 'notifications.askForOffers' })

		// Snoozed a week: nothing within it, told again after it.
		await changeReminder(customer.id, vehicleId, 'inspection', { snoozeDays: 7 }, later(52))
		await sendReminders(later(55))
		expect((await told(customer.id)).keys.filter((key) => key === 'notifications.reminderInspection')).toHaveLength(1)
		await sendReminders(later(59))
		expect((await told(customer.id)).keys.filter((key) => key === 'notifications.reminderInspection')).toHaveLength(2)

		// Turned off: never again, even overdue.
		await changeReminder(customer.id, vehicleId, 'inspection', 'off')
		// A second press (another tab) is no error; snoozing one that is off is.
		await changeReminder(customer.id, vehicleId, 'inspection', 'off')
		await refused(changeReminder(customer.id, vehicleId, 'inspection', { snoozeDays: 7 }), 'common:errors.notFoundTitle')
		await sendReminders(later(70))
		expect((await told(customer.id)).keys.filter((key) => key === 'notifications.reminderInspection')).toHaveLength(2)
		const [reminder] = (await vehicleReminderList({ id: vehicleId, mileage: 60_000 })).reminders
		expect(reminder).toMatchObject({ kind: 'inspection', state: 'off' })
	})

	test('a reminder saved when it is already due is told at once; from the last inspection the day is worked out', async () => {
		const { customer, vehicleId } = await customerWithVehicle()
		// Last inspected 23 months and a half ago, every 24 months: due in about two weeks.
		const lastDoneOn = addDays(today(), -715)
		await saveReminder(customer.id, vehicleId, valid('inspection', { lastDoneOn, everyMonths: '24', daysBefore: '30' }))
		const [reminder] = (await vehicleReminderList({ id: vehicleId, mileage: 60_000 })).reminders
		expect(reminder).toMatchObject({ state: 'due', lastDoneOn })
		expect(reminder!.nextOn! > today()).toBe(true)
		expect((await told(customer.id)).keys).toContain('notifications.reminderInspection')
	})

	test('the tyres on the season day; the service by mileage, restarted by a maintenance job through us', async () => {
		const owner = await customerWithVehicle()
		const userId = owner.customer.id
		await saveReminder(userId, owner.vehicleId, valid('tyres', {}))
		// The next 1 October or 15 March, whichever comes first.
		const next = (await vehicleReminderList({ id: owner.vehicleId, mileage: 60_000 })).reminders[1]!
		await sendReminders(new Date(`${next.nextOn}T09:00:00Z`))
		const season = next.season === 'winter' ? 'notifications.reminderWinterTyres' : 'notifications.reminderSummerTyres'
		expect((await told(userId)).keys.filter((key) => key === season)).toHaveLength(1)
		await sendReminders(new Date(`${addDays(next.nextOn!, 3)}T09:00:00Z`))
		expect((await told(userId)).keys.filter((key) => key === season)).toHaveLength(1)

		await saveReminder(userId, owner.vehicleId, valid('service', { lastDoneOn: addDays(today(), -100), lastDoneMileage: '59000', everyKm: '15000', everyMonths: '12', daysBefore: '14' }))
		expect((await told(userId)).keys).not.toContain('notifications.reminderService')
		const job = async (serviceId: string, mileage: number) => {
			const workshop = await workshopOffering([serviceId])
			const requestId = await openRequest(userId, owner.vehicleId, [serviceId])
			const offerId = await makeOffer(workshop, requestId, { price: 15000 }, null)
			await selectOffer(userId, requestId, offerId)
			await completeJob(workshop, offerId, 15000, { mileage })
		}
		const interval = async () =>
			(
				await db
					.select({ lastDoneOn: vehicleReminders.lastDoneOn, lastDoneMileage: vehicleReminders.lastDoneMileage })
					.from(vehicleReminders)
					.where(and(eq(vehicleReminders.vehicleId, owner.vehicleId), eq(vehicleReminders.kind, 'service')))
			)[0]
		// A brake job is no service: the interval runs on.
		await job(owner.refs.brakes, 60_050)
		expect(await interval()).toEqual({ lastDoneOn: addDays(today(), -100), lastDoneMileage: 59_000 })
		// A maintenance job at 60,100 km starts the interval again from it.
		const [maintenance] = await db.select({ id: services.id }).from(services).where(eq(services.code, 'maintenance'))
		await job(maintenance!.id, 60_100)
		expect(await interval()).toEqual({ lastDoneOn: today(), lastDoneMileage: 60_100 })
		// 15,000 km later, less 1,000 ahead: due by mileage long before the months.
		const service = (await vehicleReminderList({ id: owner.vehicleId, mileage: 74_200 })).reminders[2]!
		expect(service).toMatchObject({ state: 'due', dueKm: 75_100 })
	})
})

describe('bad input and strangers', () => {
	test('absurd intervals, past or far due days, a future last day: field errors; the reminder unchanged', () => {
		const errors = (kind: 'inspection' | 'service', fields: Record<string, string>) => {
			const submission = form(kind, fields)
			return submission.status === 'success' ? {} : Object.fromEntries(Object.entries(submission.error ?? {}).map(([name, list]) => [name, list?.[0]]))
		}
		expect(errors('inspection', {})).toMatchObject({ dueOn: 'customer:reminders.dueOrLast' })
		expect(errors('inspection', { dueOn: addDays(today(), -1) })).toMatchObject({ dueOn: 'customer:reminders.dueInPast' })
		expect(errors('inspection', { dueOn: addDays(today(), 365 * 6) })).toMatchObject({ dueOn: 'customer:reminders.dueTooFar' })
		expect(errors('inspection', { lastDoneOn: addDays(today(), 1) })).toMatchObject({ lastDoneOn: 'customer:passport.futureDate' })
		expect(errors('inspection', { dueOn: addDays(today(), 30), everyMonths: '600', daysBefore: '0' })).toMatchObject({
			everyMonths: 'customer:reminders.inspectionMonthsRange',
			daysBefore: 'customer:reminders.daysBeforeRange',
		})
		expect(errors('service', { lastDoneOn: today(), lastDoneMileage: '1000', everyKm: '5', everyMonths: '120' })).toMatchObject({
			everyKm: 'customer:reminders.serviceKmRange',
			everyMonths: 'customer:reminders.serviceMonthsRange',
		})
		expect(errors('service', { lastDoneOn: today(), lastDoneMileage: '1000', everyKm: '1e9', everyMonths: '-1' })).toMatchObject({
			everyKm: 'customer:reminders.serviceKmRange',
			everyMonths: 'customer:reminders.serviceMonthsRange',
		})
	})

	test("another customer's vehicle is not found for every change; snoozing an unset reminder is not found", async () => {
		const { customer, vehicleId } = await customerWithVehicle()
		const stranger = await createCustomer()
		await refused(saveReminder(stranger.id, vehicleId, valid('tyres', {})), 'common:errors.notFoundTitle')
		await refused(changeReminder(stranger.id, vehicleId, 'tyres', 'off'), 'common:errors.notFoundTitle')
		await refused(changeReminder(customer.id, vehicleId, 'tyres', { snoozeDays: 7 }), 'common:errors.notFoundTitle')
		// Snoozing is by a week or a month, and only a kind there is.
		expect(SnoozeReminderSchema.safeParse({ kind: 'tyres', days: '7' }).success).toBe(true)
		expect(SnoozeReminderSchema.safeParse({ kind: 'tyres', days: '3' }).success).toBe(false)
		expect(ReminderOffSchema.safeParse({ kind: 'oil' }).success).toBe(false)
		expect(await db.select().from(vehicleReminders).where(eq(vehicleReminders.vehicleId, vehicleId))).toEqual([])
	})

	test('the site settings keep the tyre days as day.month; a day that is not one is a field error', () => {
		const base = { appname: 'Autohub', siteEmail: 'info@example.com', vatRate: '24' }
		const parsed = (fields: Record<string, string>) => SiteSettingsSchema.safeParse({ ...base, ...fields })
		expect(parsed({ tyreAutumnDay: '1.11', tyreSpringDay: '01.04.' }).data).toMatchObject({ tyreAutumnDay: '11-01', tyreSpringDay: '04-01' })
		expect(parsed({}).data).toMatchObject({ tyreAutumnDay: '10-01', tyreSpringDay: '03-15' })
		expect(parsed({ tyreAutumnDay: '31.09' }).error?.issues[0]).toMatchObject({ path: ['tyreAutumnDay'], message: 'admin:validation.dayOfYear' })
		expect(parseDayOfYear('29.02')).toBeNull()
		expect(parseDayOfYear('15.10')).toBe('10-15')
	})
})

describe('the calendar', () => {
	test("holds the reminders' next days, not those turned off", async () => {
		const { customer, vehicleId } = await customerWithVehicle()
		const dueOn = addDays(today(), 90)
		await saveReminder(customer.id, vehicleId, valid('inspection', { dueOn }))
		await saveReminder(customer.id, vehicleId, valid('tyres', {}))
		const vehicle = await linkedVehicle(vehicleId, 'calendar', { userId: customer.id, token: null })
		let ics = await vehicleCalendar(vehicle)
		expect(ics).toContain(`DTSTART;VALUE=DATE:${dueOn.replaceAll('-', '')}`)
		expect(ics).toContain('SUMMARY:Technical inspection:')
		expect(ics).toMatch(/SUMMARY:Change to (winter|summer) tyres:/)
		await changeReminder(customer.id, vehicleId, 'tyres', 'off')
		ics = await vehicleCalendar(vehicle)
		expect(ics).not.toMatch(/SUMMARY:Change to (winter|summer) tyres:/)
		expect(ics).toContain('SUMMARY:Technical inspection:')
	})
})
