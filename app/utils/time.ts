/**
 * The site's time: Estonian time, on the server and in the browser alike, whatever the machine's
 * own zone. This is the one place the zone is named; SQL reads it through the query vocabulary
 * (app/db/sql.ts), dates are shown through app/utils/format.ts.
 */
export const TIME_ZONE = 'Europe/Tallinn'

const wallClock = new Intl.DateTimeFormat('en-GB', {
	timeZone: TIME_ZONE,
	hourCycle: 'h23',
	year: 'numeric',
	month: '2-digit',
	day: '2-digit',
	hour: '2-digit',
	minute: '2-digit',
})

/** The instant as the clock in Tallinn reads it: "2026-11-25T10:00". */
function readInTallinn(instant: Date): string {
	const parts = wallClock.formatToParts(instant)
	const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((part) => part.type === type)?.value ?? '00'
	return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}`
}

const HOUR = 3_600_000

/** How far the clock in Tallinn is ahead of UTC at an instant (on a whole minute). */
const offsetAt = (instant: number) => Date.parse(`${readInTallinn(new Date(instant))}:00Z`) - instant

/**
 * "2026-11-25T10:00" on the clock in Tallinn → the instant. The offset found at the reading's UTC
 * instant can be an hour off in the small hours of a clock-change night, so the guess and the
 * instants an hour either side are read back: autumn's repeated hour gives the first of its two
 * instants, and a time that spring skips is read with the offset from before the skip (03:30 →
 * 04:30 summer time), as Temporal's 'compatible' disambiguation does.
 */
export function tallinnToDate(local: string): Date {
	const asUtc = Date.parse(`${local}:00Z`)
	const guess = asUtc - offsetAt(asUtc)
	const found = [guess - HOUR, guess, guess + HOUR].find((instant) => readInTallinn(new Date(instant)) === local)
	return new Date(found ?? asUtc - offsetAt(asUtc - 24 * HOUR))
}

/** The instant as "2026-11-25T10:00" on the clock in Tallinn, for a datetime-local input. */
export function dateToTallinnInput(date: Date | string): string {
	return readInTallinn(new Date(date))
}

/** The day of the instant in Tallinn, "2026-11-25", as <input type="date"> has it. */
export function tallinnDay(date: Date | string = new Date()): string {
	return readInTallinn(new Date(date)).slice(0, 10)
}

/** The calendar month of the instant in Tallinn, "2026-11". */
export function tallinnMonth(date: Date | string = new Date()): string {
	return readInTallinn(new Date(date)).slice(0, 7)
}

/** The instant the Tallinn calendar month of `date` began (what SQL's `monthStart` is, in the browser). */
export function tallinnMonthStart(date: Date | string = new Date()): Date {
	return tallinnToDate(`${tallinnMonth(date)}-01T00:00`)
}
