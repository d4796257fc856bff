/**
 * A workshop's next free times on public pages (issue 33, item 7): the link each time is, to the
 * request form addressed to the workshop with the time filled in, and reading that time back.
 * Browser-safe: the workshop's page, the directory's card, the API and the widgets share it.
 */
import { dateToTallinnInput, tallinnDay, tallinnToDate } from '~/utils/time'
import { addDays, isoWeekday } from './calendar'

/** How many free times the workshop's page and the details widget show. */
export const SHOWN_FREE_TIMES = 3

/** The request form addressed to the workshop (its public id) with `startsAt` as the preferred time: `?workshop=…&at=YYYY-MM-DDTHH:MM` in Tallinn. */
export function requestFormPath(workshopPublicId: string, startsAt: Date | string): string {
	// The time is digits, '-', 'T' and ':', all fine in a query as they are.
	return `/new-service-register?workshop=${encodeURIComponent(workshopPublicId)}&at=${dateToTallinnInput(startsAt)}`
}

/**
 * The request form's `?at=`: a real 'YYYY-MM-DDTHH:MM' on the Tallinn clock still ahead of `now`,
 * given back as the form field's value; anything else (garbage, a day that does not exist, a time
 * past) is null, and the form starts empty as it would without it.
 */
export function preferredStartParam(value: string | null | undefined, now = new Date()): string | null {
	if (!value || !/^20\d{2}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}:00Z`))) return null
	const instant = tallinnToDate(value)
	// A day or hour that does not exist (30 February, 25:00, the hour spring skips) reads back as another.
	if (Number.isNaN(instant.getTime()) || dateToTallinnInput(instant) !== value || instant.getTime() <= now.getTime()) return null
	return value
}

/** The end of this Tallinn week (Sunday 24:00, the next Monday's midnight): the directory's "free this week". */
export function freeWeekEnd(now = new Date()): Date {
	const today = tallinnDay(now)
	// Midnight is never in a clock change's skipped hour in Tallinn (they happen at 03:00 and 04:00).
	return tallinnToDate(`${addDays(today, 8 - isoWeekday(today))}T00:00`)
}
