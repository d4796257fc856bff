/**
 * Estonia's public holidays (rahvuspühad ja riigipühad, days off by law): the fixed ones and the
 * three that move with Easter. Browser-safe; the booking calendar closes on them unless the
 * workshop says it works on holidays. `key` is stable, for the pages to translate.
 */

export type PublicHoliday = { day: string; key: string }

/** Fixed holidays as 'MM-DD'. */
const fixed = [
	{ on: '01-01', key: 'newYear' },
	{ on: '02-24', key: 'independenceDay' },
	{ on: '05-01', key: 'springDay' },
	{ on: '06-23', key: 'victoryDay' },
	{ on: '06-24', key: 'midsummer' },
	{ on: '08-20', key: 'restoration' },
	{ on: '12-24', key: 'christmasEve' },
	{ on: '12-25', key: 'christmasDay' },
	{ on: '12-26', key: 'boxingDay' },
]
/** The moving ones, in days from Easter Sunday. */
const moving = [
	{ fromEaster: -2, key: 'goodFriday' },
	{ fromEaster: 0, key: 'easterSunday' },
	{ fromEaster: 49, key: 'pentecost' },
]

/** Easter Sunday of a Gregorian year, 'YYYY-MM-DD' (the anonymous Gregorian computus). */
export function easterSunday(year: number): string {
	const a = year % 19
	const b = Math.floor(year / 100)
	const c = year % 100
	const d = Math.floor(b / 4)
	const e = b % 4
	const f = Math.floor((b + 8) / 25)
	const g = Math.floor((b - f + 1) / 3)
	const h = (19 * a + b - d - g + 15) % 30
	const i = Math.floor(c / 4)
	const k = c % 4
	const l = (32 + 2 * e + 2 * i - h - k) % 7
	const m = Math.floor((a + 11 * h + 22 * l) / 451)
	const month = Math.floor((h + l - 7 * m + 114) / 31)
	const day = ((h + l - 7 * m + 114) % 31) + 1
	return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

const shift = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

// A calendar asks about the same few years again and again: each is worked out once.
const byYear = new Map<number, PublicHoliday[]>()

/** The year's public holidays in date order. */
export function estonianPublicHolidays(year: number): PublicHoliday[] {
	let holidays = byYear.get(year)
	if (!holidays) {
		const easter = easterSunday(year)
		holidays = [
			...fixed.map(({ on, key }) => ({ day: `${year}-${on}`, key })),
			...moving.map(({ fromEaster, key }) => ({ day: shift(easter, fromEaster), key })),
		].sort((a, b) => a.day.localeCompare(b.day))
		byYear.set(year, holidays)
	}
	return holidays.map((holiday) => ({ ...holiday }))
}

/** Whether 'YYYY-MM-DD' is a public holiday in Estonia. */
export function isEstonianPublicHoliday(day: string): boolean {
	return publicHolidayKey(day) !== null
}

/** The holiday's key on that day, or null on an ordinary day. */
export function publicHolidayKey(day: string): string | null {
	const year = Number(day.slice(0, 4))
	if (!byYear.has(year)) estonianPublicHolidays(year)
	return byYear.get(year)!.find((holiday) => holiday.day === day)?.key ?? null
}
