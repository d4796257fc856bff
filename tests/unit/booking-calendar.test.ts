import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
	addDays,
	type Busy,
	type CalendarRules,
	checkStart,
	freeStarts,
	nextFreeStarts,
	type OpeningInterval,
	profileHoursToIntervals,
	refusalReasons,
	weekDays,
	agendaWeekDay,
} from '~/domain/booking/calendar'
import { isEstonianPublicHoliday } from '~/domain/booking/holidays'
import { dateToTallinnInput, tallinnDay, tallinnToDate } from '~/utils/time'

const HOUR = 3_600_000
const MINUTE = 60_000

// Away from the nights the clocks change, tallinnToDate reads a local time right.
const at = (local: string) => tallinnToDate(local)
const readings = (starts: { startsAt: Date }[]) => starts.map((start) => dateToTallinnInput(start.startsAt).slice(11))
const busyAt = (bayId: string, from: string, until: string): Busy => ({ bayId, startsAt: at(from), blocksUntil: at(until) })

const weekdaysWithLunch: OpeningInterval[] = [1, 2, 3, 4, 5].flatMap((weekday) => [
	{ weekday, opens: '08:00', closes: '12:00' },
	{ weekday, opens: '12:30', closes: '17:00' },
])
const rules = (changes: Partial<CalendarRules> = {}): CalendarRules => ({
	bayIds: ['A'],
	hours: weekdaysWithLunch,
	closedDays: [],
	openOnPublicHolidays: false,
	minNoticeMinutes: 0,
	horizonDays: 30,
	bufferMinutes: 0,
	stepMinutes: 30,
	...changes,
})
/** The starts offered on one Tallinn day, as the clock reads them. */
const dayStarts = (calendar: CalendarRules, busy: Busy[], day: string, durationMinutes: number, now = at(`${addDays(day, -1)}T12:00`)) =>
	readings(freeStarts(calendar, busy, { now, durationMinutes, from: at(`${day}T00:00`), until: at(`${addDays(day, 1)}T00:00`) }))

describe('the booking calendar by example (issue 33)', () => {
	// Monday 23 November 2026.
	const monday = '2026-11-23'

	test('a day with a lunch break: a job fits inside one interval, on the grid from its opening', () => {
		expect(dayStarts(rules(), [], monday, 60)).toEqual(
			['08:00', '08:30', '09:00', '09:30', '10:00', '10:30', '11:00', '12:30', '13:00', '13:30', '14:00', '14:30', '15:00', '15:30', '16:00'],
		)
		expect(dayStarts(rules(), [], monday, 300)).toEqual([])
		const now = at('2026-11-22T12:00')
		const check = (local: string, minutes = 60) => checkStart(rules(), [], at(local), minutes, now)
		expect(check('2026-11-23T08:00')).toEqual({ ok: true, bayId: 'A' })
		expect(check('2026-11-23T07:30')).toEqual({ ok: false, reason: 'outsideHours' })
		// The break is half-open: 12:00 is already in it.
		expect(check('2026-11-23T12:00')).toEqual({ ok: false, reason: 'outsideHours' })
		expect(check('2026-11-23T12:10')).toEqual({ ok: false, reason: 'outsideHours' })
		expect(check('2026-11-23T11:30')).toEqual({ ok: false, reason: 'break' })
		expect(check('2026-11-23T16:30')).toEqual({ ok: false, reason: 'tooLong' })
		expect(check('2026-11-23T08:00', 600)).toEqual({ ok: false, reason: 'break' })
		expect(check('2026-11-23T08:15')).toEqual({ ok: false, reason: 'offGrid' })
		expect(check('2026-11-23T17:00')).toEqual({ ok: false, reason: 'outsideHours' })
		// Saturday has no hours.
		expect(check('2026-11-28T10:00')).toEqual({ ok: false, reason: 'outsideHours' })
	})

	test('the minimum notice: nothing sooner, nothing past', () => {
		const now = at('2026-11-23T09:10')
		const calendar = rules({ minNoticeMinutes: 120 })
		expect(readings(nextFreeStarts(calendar, [], now, 30, 2))).toEqual(['11:30', '12:30'])
		expect(readings(nextFreeStarts(calendar, [], now, 60, 1))).toEqual(['12:30'])
		expect(checkStart(calendar, [], at('2026-11-23T11:00'), 30, now)).toEqual({ ok: false, reason: 'minNotice' })
		expect(checkStart(rules(), [], at('2026-11-23T09:00'), 30, now)).toEqual({ ok: false, reason: 'minNotice' })
		expect(checkStart(rules(), [], at('2026-11-23T09:30'), 30, now)).toEqual({ ok: true, bayId: 'A' })
	})

	test('the booking window ends with the Tallinn day horizonDays ahead', () => {
		const now = at('2026-11-23T10:00')
		const calendar = rules({ horizonDays: 1 })
		const starts = freeStarts(calendar, [], { now, durationMinutes: 60 })
		expect(dateToTallinnInput(starts.at(-1)!.startsAt)).toBe('2026-11-24T16:00')
		expect(checkStart(calendar, [], at('2026-11-24T16:00'), 60, now)).toEqual({ ok: true, bayId: 'A' })
		expect(checkStart(calendar, [], at('2026-11-25T08:00'), 60, now)).toEqual({ ok: false, reason: 'beyondWindow' })
		expect(readings(freeStarts(rules({ horizonDays: 0 }), [], { now: at('2026-11-23T16:30'), durationMinutes: 30 }))).toEqual(['16:30'])
		expect(freeStarts(rules({ horizonDays: 0 }), [], { now: at('2026-11-23T16:31'), durationMinutes: 30 })).toEqual([])
	})

	test('a public holiday (24 February) and the workshop’s own day off are shut', () => {
		const now = at('2026-02-23T18:00')
		expect(dateToTallinnInput(nextFreeStarts(rules(), [], now, 60, 1)[0]!.startsAt)).toBe('2026-02-25T08:00')
		expect(checkStart(rules(), [], at('2026-02-24T10:00'), 60, now)).toEqual({ ok: false, reason: 'holiday' })
		expect(checkStart(rules({ openOnPublicHolidays: true }), [], at('2026-02-24T10:00'), 60, now)).toEqual({ ok: true, bayId: 'A' })
		const closed = rules({ closedDays: ['2026-02-24', '2026-02-25'] })
		expect(dateToTallinnInput(nextFreeStarts(closed, [], now, 60, 1)[0]!.startsAt)).toBe('2026-02-26T08:00')
		expect(checkStart(closed, [], at('2026-02-25T10:00'), 60, now)).toEqual({ ok: false, reason: 'closedDay' })
		// Both: the holiday is the reason given.
		expect(checkStart(closed, [], at('2026-02-24T10:00'), 60, now)).toEqual({ ok: false, reason: 'holiday' })
	})

	test('two bays: the first free one, in their order, and taken when both are', () => {
		const twoBays = rules({ bayIds: ['A', 'B'] })
		const now = at('2026-11-22T12:00')
		const oneBusy = [busyAt('A', '2026-11-23T08:00', '2026-11-23T10:00')]
		const starts = freeStarts(twoBays, oneBusy, { now, durationMinutes: 60, limit: 6 })
		expect(starts.map((start) => `${dateToTallinnInput(start.startsAt).slice(11)} ${start.bayId}`)).toEqual(
			['08:00 B', '08:30 B', '09:00 B', '09:30 B', '10:00 A', '10:30 A'],
		)
		const bothBusy = [...oneBusy, busyAt('B', '2026-11-23T07:00', '2026-11-23T09:30')]
		expect(readings(nextFreeStarts(twoBays, bothBusy, now, 60, 1))).toEqual(['09:30'])
		expect(checkStart(twoBays, bothBusy, at('2026-11-23T09:00'), 60, now)).toEqual({ ok: false, reason: 'taken' })
		expect(checkStart(twoBays, bothBusy, at('2026-11-23T09:30'), 60, now)).toEqual({ ok: true, bayId: 'B' })
		// A busy time of a bay the workshop no longer has takes nothing.
		expect(checkStart(rules(), [busyAt('gone', '2026-11-23T08:00', '2026-11-23T17:00')], at('2026-11-23T09:00'), 60, now).ok).toBe(true)
	})

	test('the buffer after the new job may not run into the next busy one', () => {
		const calendar = rules({ bufferMinutes: 15 })
		// A job 10:00–11:00 with its buffer blocks until 11:15.
		const busy = [busyAt('A', '2026-11-23T10:00', '2026-11-23T11:15')]
		expect(dayStarts(calendar, busy, monday, 60)).toEqual(['08:00', '08:30', '12:30', '13:00', '13:30', '14:00', '14:30', '15:00', '15:30', '16:00'])
		// Without a buffer 09:00 would end exactly when the busy one starts.
		expect(dayStarts(rules(), busy, monday, 60).slice(0, 3)).toEqual(['08:00', '08:30', '09:00'])
		expect(checkStart(calendar, busy, at('2026-11-23T09:00'), 60, at('2026-11-22T12:00'))).toEqual({ ok: false, reason: 'taken' })
		expect(checkStart(calendar, busy, at('2026-11-23T11:00'), 30, at('2026-11-22T12:00'))).toEqual({ ok: false, reason: 'taken' })
		expect(checkStart(calendar, busy, at('2026-11-23T11:30'), 30, at('2026-11-22T12:00'))).toEqual({ ok: true, bayId: 'A' })
	})

	test('spring’s skipped hour is never offered and an interval is its true length', () => {
		const sunday = '2026-03-29'
		const night = rules({ hours: [{ weekday: 7, opens: '02:00', closes: '06:00' }] })
		// 02:00 winter time to 06:00 summer time is three hours.
		expect(dayStarts(night, [], sunday, 30)).toEqual(['02:00', '02:30', '04:00', '04:30', '05:00', '05:30'])
		expect(dayStarts(night, [], sunday, 180)).toEqual(['02:00'])
		expect(dayStarts(night, [], sunday, 210)).toEqual([])
		// An opening inside the skipped hour is read an hour on, as Temporal's 'compatible' reads it.
		const skipped = rules({ hours: [{ weekday: 7, opens: '03:30', closes: '06:00' }] })
		expect(dayStarts(skipped, [], sunday, 30)).toEqual(['04:30', '05:00', '05:30'])
	})

	test('autumn’s repeated hour is offered twice, once each time, and the long night is its true length', () => {
		const sunday = '2026-10-25'
		const night = rules({ hours: [{ weekday: 7, opens: '02:00', closes: '06:00' }] })
		const starts = freeStarts(night, [], { now: at('2026-10-24T12:00'), durationMinutes: 30, until: at('2026-10-26T00:00') })
		expect(readings(starts)).toEqual(['02:00', '02:30', '03:00', '03:30', '03:00', '03:30', '04:00', '04:30', '05:00', '05:30'])
		// Thirty minutes apart in elapsed time, each instant once.
		starts.slice(1).forEach((start, i) => expect(start.startsAt.getTime() - starts[i]!.startsAt.getTime()).toBe(30 * MINUTE))
		// Both 03:00s are bookable, and a five-hour job fills 02:00–06:00 that night.
		expect(checkStart(night, [], starts[2]!.startsAt, 30, at('2026-10-24T12:00')).ok).toBe(true)
		expect(checkStart(night, [], starts[4]!.startsAt, 30, at('2026-10-24T12:00')).ok).toBe(true)
		expect(dayStarts(night, [], sunday, 300)).toEqual(['02:00'])
		expect(dayStarts(night, [], '2026-11-01', 300)).toEqual([])
	})

	test('plain dates for the agenda’s week', () => {
		expect(weekDays('2026-11-25')).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29'])
		expect(weekDays('2026-11-29')[0]).toBe('2026-11-23')
		// Opened on a Sunday with no day asked, the agenda shows the coming week; any other day, its own.
		expect(weekDays(agendaWeekDay('2026-11-29'))[0]).toBe('2026-11-30')
		expect(weekDays(agendaWeekDay('2026-11-28'))[0]).toBe('2026-11-23')
		expect(weekDays(agendaWeekDay('2026-11-30'))[0]).toBe('2026-11-30')
		expect(weekDays('2027-01-01')).toEqual(['2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02', '2027-01-03'])
		expect(addDays('2028-02-28', 1)).toBe('2028-02-29')
		expect(addDays('2026-03-29', 1)).toBe('2026-03-30')
		expect(addDays('2026-01-01', -1)).toBe('2025-12-31')
	})

	test('the profile’s opening hours as the default week', () => {
		expect(
			profileHoursToIntervals({
				weekdayOpens: '08:00:00',
				weekdayCloses: '17:30:00',
				saturdayOpens: '10:00',
				saturdayCloses: '14:00',
				sundayOpens: null,
				sundayCloses: null,
			}),
		).toEqual([
			...[1, 2, 3, 4, 5].map((weekday) => ({ weekday, opens: '08:00', closes: '17:30' })),
			{ weekday: 6, opens: '10:00', closes: '14:00' },
		])
		const none = { weekdayOpens: null, weekdayCloses: null, saturdayOpens: null, saturdayCloses: null, sundayOpens: null, sundayCloses: null }
		expect(profileHoursToIntervals(none)).toEqual([])
		expect(profileHoursToIntervals({ ...none, sundayOpens: '10:00', sundayCloses: '09:00' })).toEqual([])
	})

	// How fast is the bench's to say (`npm run bench -- --suite free-times`), never a timed test.
	test('four bays, two weeks, two hundred busy times: every start offered leaves its bay free for the job and the buffer', () => {
		const bays = ['A', 'B', 'C', 'D']
		const calendar = rules({ bayIds: bays, horizonDays: 14, bufferMinutes: 15, hours: [1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, opens: '08:00', closes: '18:00' })) })
		const now = at('2026-11-23T07:00')
		const busy = Array.from({ length: 200 }, (_, i) => {
			const startsAt = new Date(now.getTime() + ((i * 7919) % (14 * 24 * 60)) * MINUTE)
			return { bayId: bays[i % 4]!, startsAt, blocksUntil: new Date(startsAt.getTime() + (60 + (i % 5) * 30) * MINUTE) }
		})
		const starts = freeStarts(calendar, busy, { now, durationMinutes: 90 })
		expect(starts.length).toBeGreaterThan(100)
		for (const start of starts) {
			const ends = start.startsAt.getTime() + (90 + 15) * MINUTE
			const clash = busy.find((b) => b.bayId === start.bayId && b.startsAt.getTime() < ends && b.blocksUntil.getTime() > start.startsAt.getTime())
			expect(clash, start.startsAt.toISOString()).toBeUndefined()
		}
	})
})

// The properties, over generated calendars. The oracle for a local time is written apart from the
// engine: Estonia is two or three hours ahead; of two readings the first, a skipped time with the
// offset before the skip.
const oracle = new Map<string, number>()
function instantOf(day: string, hhmm: string): number {
	const local = hhmm === '24:00' ? `${addDays(day, 1)}T00:00` : `${day}T${hhmm}`
	if (!oracle.has(local)) {
		const asUtc = Date.parse(`${local}:00Z`)
		oracle.set(local, [asUtc - 3 * HOUR, asUtc - 2 * HOUR].find((instant) => dateToTallinnInput(new Date(instant)) === local) ?? asUtc - 2 * HOUR)
	}
	return oracle.get(local)!
}
const lastSunday = (year: number, month: number) => {
	const last = new Date(Date.UTC(year, month, 0))
	return addDays(last.toISOString().slice(0, 10), -last.getUTCDay())
}
const clock = (quarter: number) => `${String(Math.floor(quarter / 4)).padStart(2, '0')}:${String((quarter % 4) * 15).padStart(2, '0')}`
const weekday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay() || 7

// A day's hours: cut points in quarter hours paired up, so the gaps between are breaks; or around
// the clock, or the small hours when the clocks change.
const dayHours = fc.oneof(
	fc.uniqueArray(fc.integer({ min: 0, max: 96 }), { maxLength: 6 }).map((cuts) => cuts.sort((a, b) => a - b)),
	fc.constant([0, 96]),
	fc.constant([4, 14, 16, 28]),
)
const calendarCase = fc.record({
	bays: fc.integer({ min: 1, max: 4 }),
	week: fc.array(dayHours, { minLength: 7, maxLength: 7 }),
	closedOffsets: fc.uniqueArray(fc.integer({ min: -1, max: 10 }), { maxLength: 4 }),
	openOnPublicHolidays: fc.boolean(),
	minNoticeMinutes: fc.constantFrom(0, 0, 30, 90, 240, 1440),
	horizonDays: fc.integer({ min: 0, max: 6 }),
	bufferMinutes: fc.constantFrom(0, 10, 15, 30, 60),
	stepMinutes: fc.constantFrom(15, 30, 60),
	durationMinutes: fc.integer({ min: 15, max: 480 }),
	// Around spring's or autumn's change of 2026–2028, or any time in those years.
	when: fc.oneof(
		fc.record({ year: fc.integer({ min: 2026, max: 2028 }), month: fc.constantFrom(3, 10), minutes: fc.integer({ min: -3 * 288, max: 288 }) }),
		fc.record({ year: fc.integer({ min: 2026, max: 2028 }), month: fc.constant(0), minutes: fc.integer({ min: 0, max: 365 * 288 }) }),
	),
	busy: fc.array(fc.record({ bay: fc.integer({ min: 0, max: 3 }), fromNow: fc.integer({ min: -24 * 4, max: 8 * 24 * 4 }), quarters: fc.integer({ min: 1, max: 40 }) }), { maxLength: 30 }),
	candidates: fc.array(fc.record({ day: fc.integer({ min: -1, max: 7 }), quarter: fc.integer({ min: 0, max: 95 }), minute: fc.constantFrom(0, 0, 0, 5, 7) }), { maxLength: 25 }),
})

function build(generated: typeof calendarCase extends fc.Arbitrary<infer T> ? T : never) {
	const { when } = generated
	const base = when.month ? instantOf(lastSunday(when.year, when.month), '00:00') : instantOf(`${when.year}-01-01`, '00:00')
	// `now` on five minutes, so grids and candidates meet it.
	const now = new Date(base + when.minutes * 5 * MINUTE)
	const today = tallinnDay(now)
	const bayIds = ['A', 'B', 'C', 'D'].slice(0, generated.bays)
	const hours = generated.week.flatMap((cuts, index) =>
		cuts.flatMap((cut, i) => (i % 2 === 0 && i + 1 < cuts.length ? [{ weekday: index + 1, opens: clock(cut), closes: clock(cuts[i + 1]!) }] : [])),
	)
	const calendar: CalendarRules = {
		bayIds,
		hours,
		closedDays: generated.closedOffsets.map((offset) => addDays(today, offset)),
		openOnPublicHolidays: generated.openOnPublicHolidays,
		minNoticeMinutes: generated.minNoticeMinutes,
		horizonDays: generated.horizonDays,
		bufferMinutes: generated.bufferMinutes,
		stepMinutes: generated.stepMinutes,
	}
	const busy: Busy[] = generated.busy.map(({ bay, fromNow, quarters }) => {
		const startsAt = new Date(now.getTime() + fromNow * 15 * MINUTE)
		return { bayId: bayIds[bay % bayIds.length]!, startsAt, blocksUntil: new Date(startsAt.getTime() + quarters * 15 * MINUTE) }
	})
	return { now, today, calendar, busy, duration: generated.durationMinutes }
}

describe('the booking calendar’s properties, over generated calendars', () => {
	const runs = { numRuns: 200 }

	test('every free start is inside one interval of its day, on its grid, in the window, with its bay free', () => {
		fc.assert(
			fc.property(calendarCase, (generated) => {
				const { now, today, calendar, busy, duration } = build(generated)
				const starts = freeStarts(calendar, busy, { now, durationMinutes: duration })
				const windowEnd = instantOf(addDays(today, calendar.horizonDays + 1), '00:00')
				for (const { startsAt, bayId } of starts) {
					const start = startsAt.getTime()
					const day = tallinnDay(startsAt)
					// (a) Compared as instants, so it holds on the nights the clocks change.
					const inside = calendar.hours.some(
						(interval) =>
							interval.weekday === weekday(day) &&
							instantOf(day, interval.opens) <= start &&
							start + duration * MINUTE <= instantOf(day, interval.closes) &&
							(start - instantOf(day, interval.opens)) % (calendar.stepMinutes * MINUTE) === 0,
					)
					expect(inside, dateToTallinnInput(startsAt)).toBe(true)
					expect(calendar.closedDays).not.toContain(day)
					if (!calendar.openOnPublicHolidays) expect(isEstonianPublicHoliday(day)).toBe(false)
					expect(start).toBeGreaterThanOrEqual(now.getTime() + calendar.minNoticeMinutes * MINUTE)
					expect(start).toBeLessThan(windowEnd)
					// (b) Its bay is free for the job and the buffer after it, and no earlier bay is.
					const blocks = start + (duration + calendar.bufferMinutes) * MINUTE
					const overlaps = (id: string) => busy.some((each) => each.bayId === id && each.startsAt.getTime() < blocks && each.blocksUntil.getTime() > start)
					expect(overlaps(bayId)).toBe(false)
					for (const earlier of calendar.bayIds.slice(0, calendar.bayIds.indexOf(bayId))) expect(overlaps(earlier)).toBe(true)
				}
				// (e) In time order, each once.
				starts.slice(1).forEach((start, i) => expect(start.startsAt.getTime()).toBeGreaterThan(starts[i]!.startsAt.getTime()))
			}),
			runs,
		)
	})

	test('checkStart accepts exactly the starts freeStarts offers, on the grid and off it', () => {
		fc.assert(
			fc.property(calendarCase, (generated) => {
				const { now, today, calendar, busy, duration } = build(generated)
				const starts = freeStarts(calendar, busy, { now, durationMinutes: duration })
				const offered = new Map(starts.map((start) => [start.startsAt.getTime(), start.bayId]))
				const candidates = [
					...generated.candidates.map(({ day, quarter, minute }) => instantOf(addDays(today, day), clock(quarter)) + minute * MINUTE),
					// Some offered ones, and the grid's points right after them.
					...starts.filter((_, i) => i % 7 === 0).flatMap((start) => [start.startsAt.getTime(), start.startsAt.getTime() + calendar.stepMinutes * MINUTE]),
				]
				for (const candidate of candidates) {
					const result = checkStart(calendar, busy, new Date(candidate), duration, now)
					const label = `${dateToTallinnInput(new Date(candidate))} ${JSON.stringify(result)}`
					expect(result.ok, label).toBe(offered.has(candidate))
					if (result.ok) expect(result.bayId).toBe(offered.get(candidate))
					else expect(refusalReasons).toContain(result.reason)
				}
			}),
			runs,
		)
	})

	test('(d) no start in spring’s skipped hour; autumn’s repeated hour listed once each time round', () => {
		fc.assert(
			fc.property(calendarCase, (generated) => {
				const { now, calendar, busy, duration } = build(generated)
				const starts = freeStarts(calendar, busy, { now, durationMinutes: duration })
				const year = now.getUTCFullYear()
				const spring = lastSunday(year, 3)
				const autumn = lastSunday(year, 10)
				const repeated = new Map<string, number[]>()
				for (const { startsAt } of starts) {
					const local = dateToTallinnInput(startsAt)
					expect(local.startsWith(`${spring}T03:`), local).toBe(false)
					if (local.startsWith(`${autumn}T03:`)) repeated.set(local, [...(repeated.get(local) ?? []), startsAt.getTime()])
				}
				// A reading of the repeated hour at most twice: once in summer time, then an hour later in winter time.
				for (const [local, instants] of repeated) {
					expect(instants.length, local).toBeLessThanOrEqual(2)
					if (instants.length === 2) expect(instants[1]! - instants[0]!).toBe(HOUR)
				}
			}),
			runs,
		)
	})

	test('limit and from/until cut the same list', () => {
		fc.assert(
			fc.property(calendarCase, fc.integer({ min: 0, max: 10 }), (generated, limit) => {
				const { now, calendar, busy, duration } = build(generated)
				const all = freeStarts(calendar, busy, { now, durationMinutes: duration })
				expect(nextFreeStarts(calendar, busy, now, duration, limit)).toEqual(all.slice(0, limit))
				if (all.length > 2) {
					const from = all[1]!.startsAt
					const until = all.at(-1)!.startsAt
					expect(freeStarts(calendar, busy, { now, durationMinutes: duration, from, until })).toEqual(all.slice(1, -1))
				}
			}),
			{ numRuns: 100 },
		)
	})
})
