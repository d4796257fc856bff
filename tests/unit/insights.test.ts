import { describe, expect, test } from 'vitest'
import { formatDuration } from '~/components/insights'
import { shareOf } from '~/domain/billing/period-cost.server'
import { addDays, monthsOf, parsePeriod, periodDays, winRate } from '~/domain/insights/insights'

/** The growth page's periods and sums (issue 37, decision 0155). */
describe('the growth page', () => {
	test('offers 30 and 365 days; anything else asked is the 30', () => {
		expect(parsePeriod('365')).toBe(365)
		expect(parsePeriod('30')).toBe(30)
		for (const asked of [null, undefined, '', '7', '365.0x', '-30', 'abc', '1e3']) expect(parsePeriod(asked)).toBe(30)
	})

	test('a period is today and the days before it, across months, years and a leap day', () => {
		expect(periodDays('2026-11-29', 30)).toEqual({ firstDay: '2026-10-31', lastDay: '2026-11-29' })
		expect(periodDays('2026-11-29', 365)).toEqual({ firstDay: '2025-11-30', lastDay: '2026-11-29' })
		expect(periodDays('2028-03-01', 30)).toEqual({ firstDay: '2028-02-01', lastDay: '2028-03-01' })
		expect(periodDays('2027-03-01', 30)).toEqual({ firstDay: '2027-01-31', lastDay: '2027-03-01' })
		expect(addDays('2028-02-28', 1)).toBe('2028-02-29')
		// The clocks' change is no day more or less: days are calendar days, not 24 hours of a zone.
		expect(addDays('2026-10-25', 1)).toBe('2026-10-26')
	})

	test('lists the months a period touches', () => {
		expect(monthsOf('2026-10-31', '2026-11-29')).toEqual(['2026-10', '2026-11'])
		expect(monthsOf('2025-11-30', '2026-11-29')).toHaveLength(13)
		expect(monthsOf('2026-11-01', '2026-11-29')).toEqual(['2026-11'])
	})

	test('a win rate is of the decided offers, none while none is decided', () => {
		expect(winRate(1, 4)).toBe(0.25)
		expect(winRate(0, 0)).toBeNull()
	})

	test('an invoice counts for the part of its period within the days', () => {
		const day = (d: string) => new Date(`${d}T00:00:00Z`)
		const paid = { totalCents: 3000, periodStart: day('2026-11-01'), periodEnd: day('2026-12-01') }
		expect(shareOf(paid, day('2026-10-01'), day('2027-01-01'))).toBe(3000)
		expect(shareOf(paid, day('2026-11-21'), day('2026-12-21'))).toBeCloseTo(1000, 10)
		expect(shareOf(paid, day('2026-12-01'), day('2026-12-21'))).toBe(0)
		expect(shareOf(paid, day('2026-09-01'), day('2026-11-01'))).toBe(0)
		// A period without length counts whole on its day.
		expect(shareOf({ ...paid, periodEnd: paid.periodStart }, day('2026-10-01'), day('2027-01-01'))).toBe(3000)
	})

	test('says a response time in minutes, hours or days, in each language', () => {
		expect(formatDuration(45, 'en')).toBe('45 minutes')
		expect(formatDuration(210, 'en')).toBe('3.5 hours')
		expect(formatDuration(60, 'et')).toBe('1 tund')
		expect(formatDuration(3 * 24 * 60, 'ru')).toBe('3 дня')
		expect(formatDuration(5 * 24 * 60, 'ru')).toBe('5 дней')
	})
})
