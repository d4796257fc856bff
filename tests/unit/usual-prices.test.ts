import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { rangeVerdict } from '~/domain/pricing/price-ranges'
import { UsualPricesQuerySchema, usualPricesQueryOf } from '~/domain/pricing/usual-prices'
import { formatMonthRange } from '~/utils/format'
import { formatMoneyRange, formatWholeMoney } from '~/utils/money'

/** Issue 35's usual prices as the pages show them (decision 0149). */
describe('the usual price shown', () => {
	test('the verdict follows the price: below p25, within p25–p75 inclusive, above p75, and rises with it', () => {
		const range = fc.tuple(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 1_000_000 })).map(([p25, width]) => ({ p25Cents: p25, p75Cents: p25 + width }))
		const order = { below: 0, within: 1, above: 2 } as const
		fc.assert(
			fc.property(range, fc.integer({ min: 0, max: 3_000_000 }), fc.integer({ min: 0, max: 3_000_000 }), (r, a, b) => {
				const verdict = rangeVerdict(a, r)!
				expect(verdict).toBe(a < r.p25Cents ? 'below' : a > r.p75Cents ? 'above' : 'within')
				// A dearer offer never gets a kinder verdict.
				if (a <= b) expect(order[verdict]).toBeLessThanOrEqual(order[rangeVerdict(b, r)!])
			}),
		)
		// The ends themselves are within; a cent beyond is not.
		fc.assert(
			fc.property(range, (r) => {
				expect(rangeVerdict(r.p25Cents, r)).toBe('within')
				expect(rangeVerdict(r.p75Cents, r)).toBe('within')
				expect(rangeVerdict(r.p25Cents - 1, r)).toBe('below')
				expect(rangeVerdict(r.p75Cents + 1, r)).toBe('above')
				expect(rangeVerdict(r.p75Cents + 1, null)).toBeNull()
			}),
		)
	})

	test('amounts in whole euros and a range as Intl writes one, in each language', () => {
		expect(formatWholeMoney(17_049, 'en')).toBe('€170')
		expect(formatWholeMoney(17_050, 'en')).toBe('€171')
		expect(formatMoneyRange(14_000, 21_000, 'en')).toBe('€140 – €210')
		expect(formatMoneyRange(14_000, 21_000, 'ru')).toBe('140–210\u00a0€')
		expect(formatMoneyRange(14_000, 21_000, 'et')).toMatch(/^140.210\u00a0€$/)
		// Ends that round alike are one amount, never "~€140".
		expect(formatMoneyRange(14_010, 13_990, 'en')).toBe('€140')
	})

	test('the period by its months', () => {
		// Intl puts thin spaces around the dash: compared as plain ones.
		const months = (from: string, to: string, language: 'et' | 'en' | 'ru') => formatMonthRange(from, to, language).replace(/\s/g, ' ')
		expect(months('2024-11-29', '2026-11-29', 'en')).toBe('Nov 2024 – Nov 2026')
		expect(months('2024-12-01', '2026-11-30', 'et')).toBe('dets 2024 – nov 2026')
		expect(months('2026-11-01', '2026-11-29', 'en')).toBe('Nov 2026')
	})

	test('the live look-up’s query: the form’s ids, a city or none, one to fifty services', () => {
		const id = '0b3d9100-0000-4000-8000-000000000001'
		const parse = (search: string) => UsualPricesQuerySchema.safeParse(usualPricesQueryOf(new URLSearchParams(search))).success
		expect(parse(`vehicle=${id}&service=${id}`)).toBe(true)
		expect(parse(`vehicle=${id}&city=&service=${id}`)).toBe(true)
		expect(parse(`vehicle=${id}&city=${id}&service=${id}&service=${id}`)).toBe(true)
		expect(parse(`vehicle=${id}`)).toBe(false)
		expect(parse(`service=${id}`)).toBe(false)
		expect(parse(`vehicle=${id}&city=x&service=${id}`)).toBe(false)
		expect(parse(`vehicle=${id}&${Array.from({ length: 51 }, () => `service=${id}`).join('&')}`)).toBe(false)
	})
})
