/**
 * A workshop's booking calendar as pure rules (issue 33): when a job of a given length may start,
 * by its weekly hours and breaks, its days off and Estonia's public holidays, the minimum notice,
 * the booking window, its bays and the buffer kept after each job. Browser-safe: the booking form,
 * the agenda and the server's check of a chosen time share it, so what is offered is what is taken.
 *
 * Instants are Dates (UTC); the workshop's clock is Tallinn's. Each opening interval becomes two
 * instants and its starts are stepped in elapsed time from its opening, so on the nights the clocks
 * change an interval is its true length, no start falls in the hour spring skips and autumn's
 * repeated hour is offered once each time round.
 */
import { tallinnDay, tallinnToDate } from '~/utils/time'
import { isEstonianPublicHoliday } from './holidays'

/** ISO weekday 1 = Monday … 7 = Sunday; several intervals on one day: the gaps between are breaks. */
export type OpeningInterval = { weekday: number; opens: string /* 'HH:MM' */; closes: string /* 'HH:MM' ('24:00' = midnight), after opens */ }
export type CalendarRules = {
	/** The bays or lifts: how many cars at once (at least one). */
	bayIds: string[]
	hours: OpeningInterval[]
	/** The workshop's own days off, 'YYYY-MM-DD'. */
	closedDays: string[]
	openOnPublicHolidays: boolean
	/** The earliest start is now + this. */
	minNoticeMinutes: number
	/** How far ahead people may book: the last start is before the end of the Tallinn day now + this. */
	horizonDays: number
	/** Kept free after each job in its bay. */
	bufferMinutes: number
	/** Starts are offered on this grid, counted from each interval's opening. */
	stepMinutes: number
}
/** A booked job: its bay is taken from startsAt until blocksUntil (its end plus the buffer). */
export type Busy = { bayId: string; startsAt: Date; blocksUntil: Date }
export type FreeStart = { startsAt: Date; bayId: string }
export const refusalReasons = ['outsideHours', 'break', 'holiday', 'closedDay', 'minNotice', 'beyondWindow', 'taken', 'tooLong', 'offGrid'] as const
export type Refusal = (typeof refusalReasons)[number]
export type StartCheck = { ok: true; bayId: string } | { ok: false; reason: Refusal }

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** A plain date `n` days on ('2026-11-24' + 3 → '2026-11-27'): the date alone, no zone. */
export function addDays(day: string, n: number): string {
	return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10)
}

/** The ISO weekday of a plain date, 1 = Monday … 7 = Sunday. */
export function isoWeekday(day: string): number {
	return new Date(`${day}T00:00:00Z`).getUTCDay() || 7
}

/** Monday to Sunday of the ISO week `day` is in, for the agenda's week. */
export function weekDays(day: string): string[] {
	const monday = addDays(day, 1 - isoWeekday(day))
	return Array.from({ length: 7 }, (_, i) => addDays(monday, i))
}

/**
 * The day whose week the agenda opens on when none is asked: today's, except on a Sunday, when
 * the week ending that evening is over for most workshops and the coming Monday's cars are what
 * they plan (the week from tomorrow).
 */
export const agendaWeekDay = (today: string) => (isoWeekday(today) === 7 ? addDays(today, 1) : today)

/** A reading of the Tallinn clock as an instant, right on the nights the clocks change too (tallinnToDate). */
const tallinnInstant = (local: string) => tallinnToDate(local).getTime()

/** 'HH:MM' (or 'HH:MM:SS') on a Tallinn day as an instant; '24:00' is the next midnight. */
function clockOn(day: string, time: string): number {
	const hhmm = time.slice(0, 5)
	return hhmm === '24:00' ? tallinnInstant(`${addDays(day, 1)}T00:00`) : tallinnInstant(`${day}T${hhmm}`)
}

type Span = { opens: number; closes: number }
/** The day's opening intervals as instants, in order of opening. */
function spansOn(rules: CalendarRules, day: string): Span[] {
	const weekday = isoWeekday(day)
	return rules.hours
		.filter((interval) => interval.weekday === weekday)
		.map((interval) => ({ opens: clockOn(day, interval.opens), closes: clockOn(day, interval.closes) }))
		.filter((span) => span.closes > span.opens)
		.sort((a, b) => a.opens - b.opens)
}

/** Why the whole day is shut, or null when its hours apply. */
function dayShut(rules: CalendarRules, day: string): 'holiday' | 'closedDay' | null {
	if (!rules.openOnPublicHolidays && isEstonianPublicHoliday(day)) return 'holiday'
	return rules.closedDays.includes(day) ? 'closedDay' : null
}

/** The first instant past the booking window: midnight after the Tallinn day horizonDays from now's. */
const windowEnd = (rules: CalendarRules, now: Date) => clockOn(addDays(tallinnDay(now), rules.horizonDays), '24:00')
/** Starts before this are past or too soon. */
const earliestStart = (rules: CalendarRules, now: Date) => Math.max(now.getTime(), now.getTime() + rules.minNoticeMinutes * MINUTE)

/**
 * A bay's busy times sorted by start, each with the latest end so far: [from, to) is free when none
 * of those starting before `to` ends after `from`, one binary search, whatever overlaps whatever.
 */
type BayBook = { bayId: string; starts: number[]; latestEnd: number[] }
function bayBooks(rules: CalendarRules, busy: Busy[]): BayBook[] {
	const byBay = new Map<string, [number, number][]>(rules.bayIds.map((bayId) => [bayId, []]))
	for (const each of busy) {
		// An empty busy time takes nothing (half-open); one of an unknown bay is not ours.
		if (each.blocksUntil > each.startsAt) byBay.get(each.bayId)?.push([each.startsAt.getTime(), each.blocksUntil.getTime()])
	}
	return rules.bayIds.map((bayId) => {
		const own = byBay.get(bayId)!.sort((a, b) => a[0] - b[0])
		let latest = -Infinity
		return { bayId, starts: own.map(([start]) => start), latestEnd: own.map(([, end]) => (latest = Math.max(latest, end))) }
	})
}

function isFree(book: BayBook, from: number, to: number): boolean {
	let low = 0
	let high = book.starts.length
	while (low < high) {
		const middle = (low + high) >> 1
		if (book.starts[middle]! < to) low = middle + 1
		else high = middle
	}
	return low === 0 || book.latestEnd[low - 1]! <= from
}

/** The first bay, in the order of bayIds, free over [from, to). */
const freeBay = (books: BayBook[], from: number, to: number) => books.find((book) => isFree(book, from, to))?.bayId ?? null

/**
 * The free start times for a job of `durationMinutes`, in time order, each with the first bay free
 * then: on a day neither closed nor (unless the workshop opens on them) a public holiday, on the step
 * grid from an interval's opening, the whole job inside that one interval, no sooner than the
 * minimum notice, before the window's end and in [from, until); the bay free for the job and the
 * buffer after it.
 */
export function freeStarts(
	rules: CalendarRules,
	busy: Busy[],
	options: { now: Date; durationMinutes: number; from?: Date; until?: Date; limit?: number },
): FreeStart[] {
	const { now, limit = Infinity } = options
	const duration = options.durationMinutes * MINUTE
	const blocks = duration + rules.bufferMinutes * MINUTE
	const step = Math.max(1, rules.stepMinutes) * MINUTE
	const earliest = Math.max(options.from?.getTime() ?? -Infinity, earliestStart(rules, now))
	const end = Math.min(options.until?.getTime() ?? Infinity, windowEnd(rules, now))
	const books = bayBooks(rules, busy)
	const found: FreeStart[] = []
	if (!(earliest < end) || limit <= 0) return found
	for (let day = tallinnDay(new Date(earliest)); found.length < limit && clockOn(day, '00:00') < end; day = addDays(day, 1)) {
		if (dayShut(rules, day)) continue
		// Intervals that overlap offer a shared start once, in order.
		const starts = new Set<number>()
		for (const span of spansOn(rules, day)) {
			const first = span.opens + Math.max(0, Math.ceil((earliest - span.opens) / step)) * step
			for (let start = first; start < span.closes && start + duration <= span.closes && start < end; start += step) starts.add(start)
		}
		for (const start of [...starts].sort((a, b) => a - b)) {
			const bayId = freeBay(books, start, start + blocks)
			if (bayId) found.push({ startsAt: new Date(start), bayId })
			if (found.length >= limit) break
		}
	}
	return found
}

/** The next `count` free starts from now. */
export function nextFreeStarts(rules: CalendarRules, busy: Busy[], now: Date, durationMinutes: number, count: number): FreeStart[] {
	return freeStarts(rules, busy, { now, durationMinutes, limit: count })
}

/**
 * Whether a chosen start is bookable, by the same rules as freeStarts (it is ok exactly when
 * freeStarts offers it), else the first reason in the order a person can act on it: the window
 * (a past start is too soon), the day, the hours, the grid, then the bays.
 */
export function checkStart(rules: CalendarRules, busy: Busy[], startsAt: Date, durationMinutes: number, now: Date): StartCheck {
	const refuse = (reason: Refusal): StartCheck => ({ ok: false, reason })
	const start = startsAt.getTime()
	const duration = durationMinutes * MINUTE
	if (start < earliestStart(rules, now)) return refuse('minNotice')
	if (start >= windowEnd(rules, now)) return refuse('beyondWindow')
	const day = tallinnDay(startsAt)
	const shut = dayShut(rules, day)
	if (shut) return refuse(shut)
	const spans = spansOn(rules, day)
	const around = spans.filter((span) => span.opens <= start && start < span.closes)
	if (!around.length) return refuse('outsideHours')
	const fitting = around.filter((span) => start + duration <= span.closes)
	// Past the interval's end: into a break when the day opens again later, else past closing.
	if (!fitting.length) return refuse(spans.some((span) => span.opens > start) ? 'break' : 'tooLong')
	const step = Math.max(1, rules.stepMinutes) * MINUTE
	if (!fitting.some((span) => (start - span.opens) % step === 0)) return refuse('offGrid')
	const bayId = freeBay(bayBooks(rules, busy), start, start + duration + rules.bufferMinutes * MINUTE)
	return bayId ? { ok: true, bayId } : refuse('taken')
}

/** The opening hours of a workshop's profile (Mon–Fri, Saturday, Sunday; null = closed) as weekly intervals. */
export type ProfileHours = {
	weekdayOpens: string | null
	weekdayCloses: string | null
	saturdayOpens: string | null
	saturdayCloses: string | null
	sundayOpens: string | null
	sundayCloses: string | null
}
export function profileHoursToIntervals(hours: ProfileHours): OpeningInterval[] {
	const days: [number[], string | null, string | null][] = [
		[[1, 2, 3, 4, 5], hours.weekdayOpens, hours.weekdayCloses],
		[[6], hours.saturdayOpens, hours.saturdayCloses],
		[[7], hours.sundayOpens, hours.sundayCloses],
	]
	return days.flatMap(([weekdays, opens, closes]) => {
		// The database's time reads 'HH:MM:SS'; a half-filled or inverted pair is a closed day.
		if (!opens || !closes || closes.slice(0, 5) <= opens.slice(0, 5)) return []
		return weekdays.map((weekday) => ({ weekday, opens: opens.slice(0, 5), closes: closes.slice(0, 5) }))
	})
}
