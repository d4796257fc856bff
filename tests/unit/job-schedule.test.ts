import { describe, expect, test } from 'vitest'
import { cronFor } from '~/jobs/queue.server'

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
})
