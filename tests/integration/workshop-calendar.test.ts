import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { agenda } from '~/domain/booking/agenda.server'
import { workshopFeed, revokeFeed, startFeed } from '~/domain/booking/calendar-feed.server'
import { bookTime, freeTimes } from '~/domain/booking/calendar.server'
import { CalendarSettingsSchema, type CalendarSettingsInput } from '~/domain/booking/capacity'
import { calendarSettings, saveCalendarSettings } from '~/domain/booking/capacity.server'
import { db, transaction } from '~/db/db.server'
import { workshopBays, workshopHours, workshops } from '~/db/schema'
import { getEnv } from '~/utils/env.server'
import { DomainError, FieldError } from '~/utils/errors'
import { encodeId } from '~/utils/public-id'
import { tallinnDay, tallinnToDate } from '~/utils/time'
import { jobInProgress, referenceData, workshopOffering } from '#tests/support/flow'

/**
 * The workshop's calendar (issue 33): its settings saved and read back, bad hours refused, a bay
 * with a booked job not removed, its agenda of its own bookings only, and its private feed.
 */

const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri'] as const

/** The form as a workshop sends it: weekdays 08:00–12:00 and 12:30–17:00. */
function form(overrides: Record<string, string | string[]> = {}) {
	const hours = Object.fromEntries(weekdays.flatMap((day) => [[`${day}1Opens`, '08:00'], [`${day}1Closes`, '12:00'], [`${day}2Opens`, '12:30'], [`${day}2Closes`, '17:00']]))
	return { bays: '2', minNoticeHours: '0', horizonDays: '60', bufferMinutes: '15', stepMinutes: '30', ...hours, ...overrides }
}

function parsed(values: Record<string, string | string[]>): CalendarSettingsInput {
	const result = CalendarSettingsSchema.safeParse(values)
	if (!result.success) throw new Error(JSON.stringify(result.error.issues))
	return result.data
}

/** A weekday (Tue–Thu) at 10:00 in Tallinn, 3 to 9 days ahead, not a public holiday. */
function nextWeekdayTen() {
	for (let days = 3; ; days++) {
		const day = new Date(Date.now() + days * 24 * 3600_000).toISOString().slice(0, 10)
		const weekday = new Date(`${day}T12:00:00Z`).getUTCDay()
		if (weekday >= 2 && weekday <= 4 && !['12-24', '12-25', '12-26', '01-01'].includes(day.slice(5))) return { day, startsAt: tallinnToDate(`${day}T10:00`) }
	}
}

async function calendarWorkshop() {
	const refs = await referenceData()
	const workshop = await workshopOffering([refs.brakes])
	await saveCalendarSettings(workshop.workshopId, parsed(form()))
	return workshop
}

/** A selected offer of the workshop booked at `startsAt`. */
async function booked(workshop: Awaited<ReturnType<typeof workshopOffering>>, startsAt: Date) {
	const job = await jobInProgress({ workshop })
	const bookingId = await transaction((tx) =>
		bookTime(tx, { workshopId: workshop.workshopId, offerId: job.offerId, requestId: job.requestId, customerId: job.customerId, startsAt, durationMinutes: 60 }),
	)
	return { ...job, bookingId }
}

describe('the calendar settings', () => {
	test('are saved and read back: bays, hours with a break, rules, a day off added and removed', async () => {
		const refs = await referenceData()
		const workshop = await workshopOffering([refs.brakes])
		await db.update(workshops).set({ weekdayOpens: '09:00', weekdayCloses: '18:00' }).where(eq(workshops.id, workshop.workshopId))
		// Never saved: the profile's hours and one bay.
		const before = await calendarSettings(workshop.workshopId)
		expect(before).toMatchObject({ bays: 1, ownHours: false, minNoticeHours: 2, horizonDays: 42, stepMinutes: 30, openOnPublicHolidays: false, feedToken: null })
		expect(before.hours.filter((interval) => interval.weekday === 1)).toEqual([{ weekday: 1, opens: '09:00', closes: '18:00' }])

		const dayOff = new Date(Date.now() + 10 * 24 * 3600_000).toISOString().slice(0, 10)
		await saveCalendarSettings(workshop.workshopId, parsed(form({ bays: '3', openOnPublicHolidays: 'on', dayOff, dayOffNote: 'Inventory', stepMinutes: '20' })))
		const after = await calendarSettings(workshop.workshopId)
		expect(after).toMatchObject({ bays: 3, ownHours: true, minNoticeHours: 0, horizonDays: 60, bufferMinutes: 15, stepMinutes: 20, openOnPublicHolidays: true })
		expect(after.hours.filter((interval) => interval.weekday === 1)).toEqual([
			{ weekday: 1, opens: '08:00', closes: '12:00' },
			{ weekday: 1, opens: '12:30', closes: '17:00' },
		])
		expect(after.hours.some((interval) => interval.weekday === 6)).toBe(false)
		expect(after.daysOff).toEqual([{ day: dayOff, note: 'Inventory' }])
		// The free times follow: none in the break.
		const free = await freeTimes(workshop.workshopId, { durationMinutes: 60, limit: 200 })
		expect(free.some((start) => tallinnDay(start.startsAt) !== dayOff && new Date(start.startsAt).toISOString() === tallinnToDate(`${tallinnDay(start.startsAt)}T12:00`).toISOString())).toBe(false)
		expect(free.some((start) => tallinnDay(start.startsAt) === dayOff)).toBe(false)

		await saveCalendarSettings(workshop.workshopId, parsed(form({ bays: '1', removeDaysOff: [dayOff] })))
		const again = await calendarSettings(workshop.workshopId)
		expect(again.bays).toBe(1)
		expect(again.daysOff).toEqual([])
	})

	test('bad hours are refused with their reason next to their field, and nothing is saved', async () => {
		const result = CalendarSettingsSchema.safeParse(form({ mon1Opens: '12:00', mon1Closes: '08:00', tue2Opens: '11:00', wed1Closes: '', bays: '21', stepMinutes: '25' }))
		expect(result.success).toBe(false)
		const issues = Object.fromEntries(result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]))
		expect(issues).toMatchObject({
			mon1Closes: 'validation.closesAfterOpens',
			tue2Opens: 'booking:calendar.errors.overlap',
			wed1Closes: 'validation.timePair',
			bays: 'validation.number',
			stepMinutes: 'validation.choose',
		})
		const yesterday = new Date(Date.now() - 2 * 24 * 3600_000).toISOString().slice(0, 10)
		expect(CalendarSettingsSchema.safeParse(form({ dayOff: yesterday })).error?.issues[0]).toMatchObject({ path: ['dayOff'], message: 'booking:calendar.errors.pastDay' })
		expect(CalendarSettingsSchema.safeParse(form({ mon1Opens: '25:00' })).error?.issues[0]).toMatchObject({ path: ['mon1Opens'], message: 'validation.time' })
		// A tampered removal list: days that are no days are dropped, never sent to the database.
		expect(parsed(form({ removeDaysOff: ['2026-02-30', 'x', '2030-01-02'] })).removeDaysOff).toEqual(['2030-01-02'])
	})

	test('a bay holding a booked job is not removed: a field error at the bays, nothing changed', async () => {
		const workshop = await calendarWorkshop()
		const { startsAt } = nextWeekdayTen()
		// Two jobs at the same time: the second takes bay 2.
		await booked(workshop, startsAt)
		await booked(workshop, startsAt)
		const error = await saveCalendarSettings(workshop.workshopId, parsed(form({ bays: '1', mon1Opens: '07:00' }))).catch((caught: unknown) => caught)
		expect(error).toBeInstanceOf(FieldError)
		expect(error).toMatchObject({ field: 'bays', key: 'booking:calendar.errors.bayBooked', params: { position: 2 } })
		expect(await db.select().from(workshopBays).where(eq(workshopBays.workshopId, workshop.workshopId))).toHaveLength(2)
		const monday = await db.select().from(workshopHours).where(eq(workshopHours.workshopId, workshop.workshopId))
		expect(monday.some((row) => row.opens.startsWith('07:00'))).toBe(false)
		// More bays are always fine.
		await saveCalendarSettings(workshop.workshopId, parsed(form({ bays: '4' })))
		expect((await calendarSettings(workshop.workshopId)).bays).toBe(4)
	})
})

describe('the agenda', () => {
	test('shows the workshop’s own bookings with car, services, customer and phone, and not another workshop’s', async () => {
		const workshop = await calendarWorkshop()
		const other = await calendarWorkshop()
		const { day, startsAt } = nextWeekdayTen()
		const mine = await booked(workshop, startsAt)
		await booked(other, startsAt)
		const [today] = await agenda(workshop.workshopId, { from: day, days: 1 }, 'en')
		expect(today!.day).toBe(day)
		expect(today!.bookings).toHaveLength(1)
		const [booking] = today!.bookings
		expect(booking).toMatchObject({ id: mine.bookingId, status: 'booked', bayPosition: 1, vehicle: 'Toyota Corolla', offerSlug: encodeId(mine.offerId) })
		expect(booking!.startsAt.getTime()).toBe(startsAt.getTime())
		expect(booking!.services).toEqual(['Brake repair'])
		expect(booking!.customer.length).toBeGreaterThan(2)
		expect(booking!.plate).toMatch(/^T/)

		const week = await agenda(workshop.workshopId, { from: '2027-02-22', days: 7 }, 'en')
		expect(week).toHaveLength(7)
		expect(week.find((each) => each.day === '2027-02-24')!.holiday).toBe('independenceDay')
		expect(week.filter((each) => each.holiday)).toHaveLength(1)
	})
})

describe('the private feed', () => {
	test('a token gives the .ics of the workshop’s bookings; a new token ends the old one; revoked is not found', async () => {
		const workshop = await calendarWorkshop()
		const { startsAt } = nextWeekdayTen()
		const { bookingId } = await booked(workshop, startsAt)
		const first = await startFeed(workshop.workshopId)
		expect(first).toMatch(/^[A-Za-z0-9_-]{32}$/)
		const ics = await workshopFeed(first)
		expect(ics).toContain('BEGIN:VCALENDAR')
		expect(ics.replace(/\r\n /g, '')).toContain(`UID:booking-${bookingId}@${new URL(getEnv().APP_URL).host}`)
		expect(ics).toContain('SEQUENCE:0')
		expect(ics).toContain('Brake repair')

		const second = await startFeed(workshop.workshopId)
		expect(second).not.toBe(first)
		await expect(workshopFeed(first)).rejects.toMatchObject({ status: 404 })
		expect(await workshopFeed(second)).toContain('BEGIN:VEVENT')

		await revokeFeed(workshop.workshopId)
		const revoked = await workshopFeed(second).catch((caught: unknown) => caught)
		expect(revoked).toBeInstanceOf(DomainError)
		expect((revoked as DomainError).status).toBe(404)
		await expect(workshopFeed('not a token')).rejects.toMatchObject({ status: 404 })
	})
})
