import { and, asc, eq, gt, inArray, lt, sql } from 'drizzle-orm'
import { type DbOrTx, afterCommit, db, errorCauses, pgErrorCode } from '~/db/db.server'
import { bookings, siteSettings, workshopBays, workshopCalendars, workshopDaysOff, workshopHours, workshops } from '~/db/schema'
import { DomainError } from '~/utils/errors'
import { tallinnDay } from '~/utils/time'
import { type Busy, type CalendarRules, type FreeStart, type Refusal, type StartCheck, checkStart, freeStarts, profileHoursToIntervals } from './calendar'
import { holdingStatuses } from './status'

/**
 * A workshop's calendar read from the database (issue 33): its rules (workshop_calendars, its bays,
 * its weekly hours or its profile's, its days off) and its busy times (the bookings that hold a
 * bay), and booking a time, which the exclusion constraint of migration 0036 guards. The free
 * times themselves are computed by the pure engine (calendar.ts).
 */

/** A workshop that has not set its bays has one; its row is made when it is first booked. */
export const DEFAULT_BAY = 'default'

/** What a workshop that never opened its calendar books with (the columns' defaults). */
const DEFAULTS = { minNoticeMinutes: 120, horizonDays: 42, bufferMinutes: 0, stepMinutes: 30, openOnPublicHolidays: false, ownHours: false }

/** The calendar's rules of one workshop. */
export async function calendarRules(database: DbOrTx, workshopId: string): Promise<CalendarRules> {
	const [[calendar], bays, hours, daysOff, [profile]] = await Promise.all([
		database.select().from(workshopCalendars).where(eq(workshopCalendars.workshopId, workshopId)),
		database.select({ id: workshopBays.id }).from(workshopBays).where(eq(workshopBays.workshopId, workshopId)).orderBy(asc(workshopBays.position)),
		database
			.select({ weekday: workshopHours.weekday, opens: workshopHours.opens, closes: workshopHours.closes })
			.from(workshopHours)
			.where(eq(workshopHours.workshopId, workshopId))
			.orderBy(asc(workshopHours.weekday), asc(workshopHours.opens)),
		database
			.select({ day: workshopDaysOff.day })
			.from(workshopDaysOff)
			.where(and(eq(workshopDaysOff.workshopId, workshopId), sql`${workshopDaysOff.day} >= ${tallinnDay()}::date - 1`)),
		database
			.select({
				weekdayOpens: workshops.weekdayOpens,
				weekdayCloses: workshops.weekdayCloses,
				saturdayOpens: workshops.saturdayOpens,
				saturdayCloses: workshops.saturdayCloses,
				sundayOpens: workshops.sundayOpens,
				sundayCloses: workshops.sundayCloses,
			})
			.from(workshops)
			.where(eq(workshops.id, workshopId)),
	])
	const settings = calendar ?? DEFAULTS
	return {
		bayIds: bays.length ? bays.map((bay) => bay.id) : [DEFAULT_BAY],
		hours: settings.ownHours
			? hours.map((row) => ({ weekday: row.weekday, opens: row.opens.slice(0, 5), closes: row.closes.slice(0, 5) }))
			: profile
				? profileHoursToIntervals(profile)
				: [],
		closedDays: daysOff.map((row) => row.day),
		openOnPublicHolidays: settings.openOnPublicHolidays,
		minNoticeMinutes: settings.minNoticeMinutes,
		horizonDays: settings.horizonDays,
		bufferMinutes: settings.bufferMinutes,
		stepMinutes: settings.stepMinutes,
	}
}

/** The bookings that hold a bay of the workshop and overlap [from, until). */
export async function busyTimes(database: DbOrTx, workshopId: string, from: Date, until: Date): Promise<Busy[]> {
	return database
		.select({ bayId: bookings.bayId, startsAt: bookings.startsAt, blocksUntil: bookings.blocksUntil })
		.from(bookings)
		.where(
			and(
				eq(bookings.workshopId, workshopId),
				inArray(bookings.status, holdingStatuses),
				lt(bookings.startsAt, until),
				// A job and its buffer block at most 32 hours: the index on (workshop, start) need not read older history.
				gt(bookings.startsAt, new Date(from.getTime() - 2 * 24 * 3600_000)),
				gt(bookings.blocksUntil, from),
			),
		)
}

/** The horizon's end for a calendar read now: no rule lets a booking start later than this. */
function horizonEnd(rules: CalendarRules, now: Date) {
	return new Date(now.getTime() + (rules.horizonDays + 2) * 24 * 3600_000)
}

/** A workshop's free start times for a job of `durationMinutes`, soonest first. */
export async function freeTimes(
	workshopId: string,
	options: { durationMinutes: number; now?: Date; limit?: number; until?: Date },
	database: DbOrTx = db,
): Promise<FreeStart[]> {
	const now = options.now ?? new Date()
	const rules = await calendarRules(database, workshopId)
	const until = options.until ?? horizonEnd(rules, now)
	const busy = await busyTimes(database, workshopId, now, new Date(until.getTime() + 24 * 3600_000))
	return freeStarts(rules, busy, { now, durationMinutes: options.durationMinutes, until, limit: options.limit })
}

/**
 * Whether `startsAt` is free for a job of `minutes` by the workshop's calendar now (an offer's
 * proposed start when the offer is saved, a choice shown to a customer): ok with its bay, or the
 * reason it is refused. No lock: the booking itself checks again under the workshop's lock.
 */
export async function checkFreeStart(workshopId: string, startsAt: Date, minutes: number, options: { now?: Date } = {}, database: DbOrTx = db): Promise<StartCheck> {
	const now = options.now ?? new Date()
	const rules = await calendarRules(database, workshopId)
	const busy = await busyTimes(database, workshopId, new Date(startsAt.getTime() - 24 * 3600_000), new Date(startsAt.getTime() + (minutes + rules.bufferMinutes + 1) * 60_000))
	return checkStart(rules, busy, startsAt, minutes, now)
}

/** The site's booking settings (the free change notice, the reminders, a typical job). */
export async function bookingSettings(database: DbOrTx = db) {
	const [row] = await database
		.select({
			freeChangeHours: siteSettings.bookingFreeChangeHours,
			firstReminderHours: siteSettings.bookingFirstReminderHours,
			secondReminderHours: siteSettings.bookingSecondReminderHours,
			typicalMinutes: siteSettings.bookingTypicalMinutes,
		})
		.from(siteSettings)
	return row ?? { freeChangeHours: 24, firstReminderHours: 24, secondReminderHours: 2, typicalMinutes: 60 }
}

/**
 * A start refused by the calendar's rules (`reason`), or taken meanwhile: a 409 the pages show with
 * the next free times (`freeTimes`, read after the transaction).
 */
export class TimeRefused extends DomainError {
	constructor(public readonly reason: Refusal) {
		super(`booking:refusals.${reason}`, 409)
	}
}

/** True when a booking insert or move met the exclusion constraint: another booking took the bay meanwhile. */
export function isTimeTaken(error: unknown): boolean {
	if (pgErrorCode(error) !== '23P01') return false
	for (const { constraint } of errorCauses(error)) if (typeof constraint === 'string') return constraint === 'bookings_bay_time_excl'
	return true
}

/** The bay's row: a workshop's first booking makes its one default bay. */
async function bayRow(tx: DbOrTx, workshopId: string, bayId: string): Promise<string> {
	if (bayId !== DEFAULT_BAY) return bayId
	await tx.insert(workshopBays).values({ workshopId, position: 1 }).onConflictDoNothing()
	const [bay] = await tx
		.select({ id: workshopBays.id })
		.from(workshopBays)
		.where(eq(workshopBays.workshopId, workshopId))
		.orderBy(asc(workshopBays.position))
		.limit(1)
	return bay!.id
}

/**
 * Checks `startsAt` against the workshop's calendar under the workshop's row lock (step 4 of the
 * lock order, decision 0070: bookings of one workshop take turns, so each sees the others' bays)
 * and returns the bay and the times to hold; refused with its reason. The exclusion constraint
 * stays the guarantee: a write that still overlaps fails as `isTimeTaken`.
 */
export async function chooseBay(tx: DbOrTx, workshopId: string, startsAt: Date, durationMinutes: number, now: Date, options: { ignoreBookingId?: string } = {}) {
	await tx.select({ id: workshops.id }).from(workshops).where(eq(workshops.id, workshopId)).for('update')
	const rules = await calendarRules(tx, workshopId)
	const busyRows = await tx
		.select({ id: bookings.id, bayId: bookings.bayId, startsAt: bookings.startsAt, blocksUntil: bookings.blocksUntil })
		.from(bookings)
		.where(
			and(
				eq(bookings.workshopId, workshopId),
				inArray(bookings.status, holdingStatuses),
				lt(bookings.startsAt, new Date(startsAt.getTime() + (durationMinutes + rules.bufferMinutes + 1) * 60_000)),
				gt(bookings.blocksUntil, new Date(startsAt.getTime() - 24 * 3600_000)),
			),
		)
	const busy = busyRows.filter((row) => row.id !== options.ignoreBookingId)
	const checked = checkStart(rules, busy, startsAt, durationMinutes, now)
	if (!checked.ok) throw new TimeRefused(checked.reason)
	const endsAt = new Date(startsAt.getTime() + durationMinutes * 60_000)
	return {
		bayId: await bayRow(tx, workshopId, checked.bayId),
		startsAt,
		endsAt,
		blocksUntil: new Date(endsAt.getTime() + rules.bufferMinutes * 60_000),
	}
}

/**
 * Books `startsAt` for a chosen offer, inside the caller's transaction (selectOffer's, after the
 * request and its offers are locked). Refused with its reason; taken meanwhile: `TimeRefused('taken')`.
 */
export async function bookTime(
	tx: DbOrTx,
	input: { workshopId: string; offerId: string; requestId: string; customerId: string; startsAt: Date; durationMinutes: number; now?: Date },
): Promise<string> {
	const now = input.now ?? new Date()
	const held = await chooseBay(tx, input.workshopId, input.startsAt, input.durationMinutes, now)
	try {
		const [row] = await tx
			.insert(bookings)
			.values({ workshopId: input.workshopId, offerId: input.offerId, requestId: input.requestId, customerId: input.customerId, ...held })
			.returning({ id: bookings.id })
		await afterCommit(tx, () => refreshNextFree(input.workshopId))
		return row!.id
	} catch (error) {
		if (isTimeTaken(error)) throw new TimeRefused('taken')
		throw error
	}
}

/**
 * Keeps `workshops.next_free_at` (the directory's "free this week") true for one workshop: its next
 * free start for a typical job, or null when none is free in its booking window. Called after a
 * booking, a change or a cancellation commits, and by the job that moves every past one forward.
 */
export async function refreshNextFree(workshopId: string, now = new Date(), database: DbOrTx = db) {
	const { typicalMinutes } = await bookingSettings(database)
	const [next] = await freeTimes(workshopId, { durationMinutes: typicalMinutes, now, limit: 1 }, database)
	await database.update(workshops).set({ nextFreeAt: next?.startsAt ?? null, nextFreeCheckedAt: now }).where(eq(workshops.id, workshopId))
}
