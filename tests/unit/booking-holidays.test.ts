import { describe, expect, test } from 'vitest'
import { easterSunday, estonianPublicHolidays, isEstonianPublicHoliday, publicHolidayKey } from '~/domain/booking/holidays'

const weekday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay()
const dayOf = (year: number, key: string) => estonianPublicHolidays(year).find((holiday) => holiday.key === key)?.day

describe("Estonia's public holidays (issue 33)", () => {
	test('Easter by the Gregorian computus, and the holidays that move with it', () => {
		expect(easterSunday(2025)).toBe('2025-04-20')
		expect(easterSunday(2026)).toBe('2026-04-05')
		expect(easterSunday(2027)).toBe('2027-03-28')
		// The computus's extremes: as early as 22 March, as late as 25 April.
		expect(easterSunday(2285)).toBe('2285-03-22')
		expect(easterSunday(2038)).toBe('2038-04-25')
		expect(dayOf(2026, 'goodFriday')).toBe('2026-04-03')
		expect(dayOf(2026, 'easterSunday')).toBe('2026-04-05')
		expect(dayOf(2026, 'pentecost')).toBe('2026-05-24')
		expect(dayOf(2027, 'goodFriday')).toBe('2027-03-26')
		expect(dayOf(2025, 'pentecost')).toBe('2025-06-08')
	})

	test('the fixed days, in date order, each with its key', () => {
		expect(estonianPublicHolidays(2026)).toEqual([
			{ day: '2026-01-01', key: 'newYear' },
			{ day: '2026-02-24', key: 'independenceDay' },
			{ day: '2026-04-03', key: 'goodFriday' },
			{ day: '2026-04-05', key: 'easterSunday' },
			{ day: '2026-05-01', key: 'springDay' },
			{ day: '2026-05-24', key: 'pentecost' },
			{ day: '2026-06-23', key: 'victoryDay' },
			{ day: '2026-06-24', key: 'midsummer' },
			{ day: '2026-08-20', key: 'restoration' },
			{ day: '2026-12-24', key: 'christmasEve' },
			{ day: '2026-12-25', key: 'christmasDay' },
			{ day: '2026-12-26', key: 'boxingDay' },
		])
		expect(isEstonianPublicHoliday('2026-02-24')).toBe(true)
		expect(isEstonianPublicHoliday('2026-04-03')).toBe(true)
		expect(publicHolidayKey('2027-03-28')).toBe('easterSunday')
		// Easter Monday, New Year's Eve and the day after Midsummer are ordinary working days.
		for (const day of ['2026-04-06', '2026-12-31', '2026-06-25', '2026-02-23']) expect(isEstonianPublicHoliday(day), day).toBe(false)
	})

	test('every year 2020–2035 has twelve, the moving ones on their weekdays', () => {
		for (let year = 2020; year <= 2035; year++) {
			const holidays = estonianPublicHolidays(year)
			expect(holidays).toHaveLength(12)
			expect(new Set(holidays.map((holiday) => holiday.day)).size).toBe(12)
			expect(holidays.every((holiday) => holiday.day.startsWith(`${year}-`))).toBe(true)
			expect(holidays.map((holiday) => holiday.day)).toEqual(holidays.map((holiday) => holiday.day).sort())
			expect(weekday(dayOf(year, 'goodFriday')!), `${year}`).toBe(5)
			expect(weekday(dayOf(year, 'easterSunday')!), `${year}`).toBe(0)
			expect(weekday(dayOf(year, 'pentecost')!), `${year}`).toBe(0)
			expect(dayOf(year, 'easterSunday')! >= `${year}-03-22` && dayOf(year, 'easterSunday')! <= `${year}-04-25`).toBe(true)
		}
	})

	test('a caller changing the list it got does not change the next answer', () => {
		estonianPublicHolidays(2030)[0]!.day = 'changed'
		expect(dayOf(2030, 'newYear')).toBe('2030-01-01')
	})
})
