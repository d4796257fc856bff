import { describe, expect, test } from 'vitest'
import { freeWeekEnd, preferredStartParam, requestFormPath } from '~/domain/booking/free-times'

/** The links of the next free times and the request form's ?at= (issue 33, item 7). */
describe('free times on public pages', () => {
	test('a free time links to the request form addressed to the workshop, the time in Tallinn', () => {
		// 07:00 UTC is 09:00 in Tallinn in winter, 10:00 in summer.
		expect(requestFormPath('abc_-1', '2026-12-01T07:00:00.000Z')).toBe('/new-service-register?workshop=abc_-1&at=2026-12-01T09:00')
		expect(requestFormPath('abc', new Date('2026-06-01T07:00:00.000Z'))).toBe('/new-service-register?workshop=abc&at=2026-06-01T10:00')
	})

	test('?at= is a real time on the Tallinn clock still ahead; anything else is ignored', () => {
		const now = new Date('2026-11-28T19:00:00Z')
		expect(preferredStartParam('2026-12-01T09:00', now)).toBe('2026-12-01T09:00')
		for (const bad of [null, undefined, '', 'garbage', '2026-11-28T10:00', '2026-02-30T10:00', '2026-12-01T25:00', '2026-12-01T09:60', '2026-12-01T09:00:00', '2026-12-01', '1999-12-01T09:00', '9999-12-01T09:00', ' 2026-12-01T09:00']) {
			expect(preferredStartParam(bad, now), String(bad)).toBeNull()
		}
		// The hour spring skips does not exist in Tallinn.
		expect(preferredStartParam('2027-03-28T03:30', now)).toBeNull()
		// Just ahead is ahead; the same minute is not.
		expect(preferredStartParam('2026-11-28T21:01', now)).toBe('2026-11-28T21:01')
		expect(preferredStartParam('2026-11-28T21:00', now)).toBeNull()
	})

	test('"this week" ends at Sunday 24:00 in Tallinn, clock changes included', () => {
		// Saturday evening, Sunday night before midnight, and Monday just after it.
		expect(freeWeekEnd(new Date('2026-11-28T19:00:00Z')).toISOString()).toBe('2026-11-29T22:00:00.000Z')
		expect(freeWeekEnd(new Date('2026-11-29T21:59:00Z')).toISOString()).toBe('2026-11-29T22:00:00.000Z')
		expect(freeWeekEnd(new Date('2026-11-29T22:00:00Z')).toISOString()).toBe('2026-12-06T22:00:00.000Z')
		// The week the clocks go forward (Sunday 29 March 2026) ends in summer time; the autumn one in winter time.
		expect(freeWeekEnd(new Date('2026-03-25T12:00:00Z')).toISOString()).toBe('2026-03-29T21:00:00.000Z')
		expect(freeWeekEnd(new Date('2026-10-21T12:00:00Z')).toISOString()).toBe('2026-10-25T22:00:00.000Z')
	})
})
