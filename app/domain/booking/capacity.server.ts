import { and, asc, eq, gte, inArray } from 'drizzle-orm'
import { db, transaction } from '~/db/db.server'
import { bookings, workshopBays, workshopCalendars, workshopDaysOff, workshopHours, workshops } from '~/db/schema'
import { FieldError, notFound } from '~/utils/errors'
import { tallinnDay } from '~/utils/time'
import { calendarRules, refreshNextFree } from './calendar.server'
import { type CalendarSettingsInput } from './capacity'
import { holdingStatuses } from './status'

/**
 * The workshop's calendar settings (/workshop-calendar, issue 33): what its form shows and saving
 * it. A workshop that never saved them books with the defaults and its profile's opening hours
 * (calendarRules); the first save makes its workshop_calendars row and its own weekly hours.
 */

export type CalendarSettings = Awaited<ReturnType<typeof calendarSettings>>

export async function calendarSettings(workshopId: string) {
	const [[workshop], [calendar], bays, daysOff, rules] = await Promise.all([
		db.select({ id: workshops.id }).from(workshops).where(eq(workshops.id, workshopId)),
		db.select().from(workshopCalendars).where(eq(workshopCalendars.workshopId, workshopId)),
		db.select({ id: workshopBays.id }).from(workshopBays).where(eq(workshopBays.workshopId, workshopId)),
		db
			.select({ day: workshopDaysOff.day, note: workshopDaysOff.note })
			.from(workshopDaysOff)
			// Days gone by are of no use to change: today on.
			.where(and(eq(workshopDaysOff.workshopId, workshopId), gte(workshopDaysOff.day, tallinnDay())))
			.orderBy(asc(workshopDaysOff.day)),
		calendarRules(db, workshopId),
	])
	if (!workshop) throw notFound()
	return {
		// No bay rows yet: the one default bay a first booking makes.
		bays: Math.max(1, bays.length),
		hours: rules.hours,
		ownHours: calendar?.ownHours ?? false,
		daysOff,
		// Kept in minutes, set in whole hours.
		minNoticeHours: Math.ceil(rules.minNoticeMinutes / 60),
		horizonDays: rules.horizonDays,
		bufferMinutes: rules.bufferMinutes,
		stepMinutes: rules.stepMinutes,
		openOnPublicHolidays: rules.openOnPublicHolidays,
		feedToken: calendar?.feedToken ?? null,
	}
}

/**
 * Saves the settings in one transaction under the workshop's row lock (the lock a booking takes,
 * so no booking lands on a bay being removed): the settings row, the weekly hours (own from now
 * on), the bays (new ones at the end; the highest positions removed, refused next to the bays field
 * when one holds a booking), the day off added and those removed. The next free time is worked out
 * again after the commit.
 */
export async function saveCalendarSettings(workshopId: string, input: CalendarSettingsInput, now = new Date()) {
	await transaction(async (tx) => {
		const [workshop] = await tx.select({ id: workshops.id }).from(workshops).where(eq(workshops.id, workshopId)).for('update')
		if (!workshop) throw notFound()
		const settings = {
			minNoticeMinutes: input.minNoticeHours * 60,
			horizonDays: input.horizonDays,
			bufferMinutes: input.bufferMinutes,
			stepMinutes: input.stepMinutes,
			openOnPublicHolidays: input.openOnPublicHolidays,
			ownHours: true,
		}
		await tx
			.insert(workshopCalendars)
			.values({ workshopId, ...settings })
			.onConflictDoUpdate({ target: workshopCalendars.workshopId, set: { ...settings, updatedAt: now } })

		await tx.delete(workshopHours).where(eq(workshopHours.workshopId, workshopId))
		if (input.hours.length) await tx.insert(workshopHours).values(input.hours.map((interval) => ({ workshopId, ...interval })))

		const bays = await tx
			.select({ id: workshopBays.id, position: workshopBays.position })
			.from(workshopBays)
			.where(eq(workshopBays.workshopId, workshopId))
			.orderBy(asc(workshopBays.position))
		if (input.bays > bays.length) {
			const last = bays.at(-1)?.position ?? 0
			await tx.insert(workshopBays).values(Array.from({ length: input.bays - bays.length }, (_, index) => ({ workshopId, position: last + index + 1 })))
		} else if (input.bays < bays.length) {
			const kept = bays.slice(0, input.bays)
			const removed = bays.slice(input.bays)
			const removedIds = removed.map((bay) => bay.id)
			// A job still holding one of them (booked ahead, or its car still in): refused, nothing changed.
			const [held] = await tx
				.select({ bayId: bookings.bayId })
				.from(bookings)
				.where(and(inArray(bookings.bayId, removedIds), inArray(bookings.status, holdingStatuses)))
				.limit(1)
			if (held) {
				const position = removed.find((bay) => bay.id === held.bayId)!.position
				throw new FieldError('bays', 'booking:calendar.errors.bayBooked', 409, { position })
			}
			// Ended bookings keep their history on the first bay (the constraint does not cover them).
			await tx.update(bookings).set({ bayId: kept[0]!.id }).where(inArray(bookings.bayId, removedIds))
			await tx.delete(workshopBays).where(inArray(workshopBays.id, removedIds))
		}

		if (input.removeDaysOff.length) {
			await tx.delete(workshopDaysOff).where(and(eq(workshopDaysOff.workshopId, workshopId), inArray(workshopDaysOff.day, input.removeDaysOff)))
		}
		if (input.addDayOff) {
			await tx
				.insert(workshopDaysOff)
				.values({ workshopId, day: input.addDayOff.day, note: input.addDayOff.note })
				.onConflictDoUpdate({ target: [workshopDaysOff.workshopId, workshopDaysOff.day], set: { note: input.addDayOff.note } })
		}
	})
	await refreshNextFree(workshopId, now)
}

