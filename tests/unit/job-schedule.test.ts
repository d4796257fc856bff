import { describe, expect, test } from 'vitest'
import { cronFor, dailyCron, nextDailyRun } from '~/jobs/queue.server'

describe('the cron schedule of a job (decision 0084)', () => {
	test('is the one nearest to its interval, never more often than a minute', () => {
		expect(cronFor(2_000)).toBe('* * * * *')
		expect(cronFor(60_000)).toBe('* * * * *')
		expect(cronFor(5 * 60_000)).toBe('*/5 * * * *')
		expect(cronFor(10 * 60_000)).toBe('*/10 * * * *')
		expect(cronFor(15 * 60_000)).toBe('*/15 * * * *')
		expect(cronFor(7 * 60_000)).toBe('*/6 * * * *')
		expect(cronFor(45 * 60_000)).toBe('0 * * * *')
		expect(cronFor(60 * 60_000)).toBe('0 * * * *')
		expect(cronFor(6 * 60 * 60_000)).toBe('0 */6 * * *')
		expect(cronFor(3 * 24 * 60 * 60_000)).toBe('0 0 * * *')
	})

	test('a daily job at a time on Tallinn’s clock: its cron (in Tallinn’s zone), and its next run today or tomorrow, through the clock changes', () => {
		expect(dailyCron('03:15')).toBe('15 3 * * *')
		expect(dailyCron('00:00')).toBe('0 0 * * *')
		expect(() => dailyCron('3:15')).toThrow()
		expect(() => dailyCron('24:00')).toThrow()
		// 01:00 UTC in November is 03:00 in Tallinn (UTC+2): today's 03:15 is a quarter of an hour away.
		expect(nextDailyRun('03:15', new Date('2026-11-20T01:00:00Z')).toISOString()).toBe('2026-11-20T01:15:00.000Z')
		expect(nextDailyRun('03:15', new Date('2026-11-20T01:15:00Z')).toISOString()).toBe('2026-11-21T01:15:00.000Z')
		// In summer (UTC+3); the night the clocks go back (25 October 2026) 03:15 comes twice: the first;
		// the night they go forward (29 March 2026) it never comes: the hour after.
		expect(nextDailyRun('03:15', new Date('2026-07-01T12:00:00Z')).toISOString()).toBe('2026-07-02T00:15:00.000Z')
		expect(nextDailyRun('03:15', new Date('2026-10-24T12:00:00Z')).toISOString()).toBe('2026-10-25T00:15:00.000Z')
		expect(nextDailyRun('03:15', new Date('2026-03-28T12:00:00Z')).toISOString()).toBe('2026-03-29T01:15:00.000Z')
	})
})
