import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { percentileCont, rangeShown, rangeVerdict, RANGE_MIN_JOBS, RANGE_MIN_WORKSHOPS } from '~/domain/pricing/price-ranges'
import { rangePeriod } from '~/domain/pricing/price-ranges.server'
import { bandFits, engineBandOf } from '~/domain/pricing/price-kinds'
import { defaultVehicleClass } from '~/domain/service-flow/vehicle-kinds'

describe('the usual price range (issue 35)', () => {
	test('a range shows only on enough jobs from enough workshops', () => {
		fc.assert(
			fc.property(fc.nat(50), fc.nat(50), (jobs, workshops) => {
				expect(rangeShown(jobs, workshops)).toBe(jobs >= RANGE_MIN_JOBS && workshops >= RANGE_MIN_WORKSHOPS)
			}),
		)
		expect(rangeShown(5, 3)).toBe(true)
		expect(rangeShown(4, 3)).toBe(false)
		expect(rangeShown(5, 2)).toBe(false)
	})

	test('the verdict: within p25–p75 inclusive, below, above, and none without a range', () => {
		const range = { p25Cents: 14_000, p75Cents: 21_000 }
		expect(rangeVerdict(14_000, range)).toBe('within')
		expect(rangeVerdict(21_000, range)).toBe('within')
		expect(rangeVerdict(13_999, range)).toBe('below')
		expect(rangeVerdict(21_001, range)).toBe('above')
		expect(rangeVerdict(21_001, null)).toBeNull()
		expect(rangeVerdict(Number.NaN, range)).toBeNull()
	})

	test('percentiles are ordered and within the prices', () => {
		fc.assert(
			fc.property(fc.array(fc.integer({ min: 1, max: 10_000_000 }), { minLength: 1, maxLength: 60 }), (prices) => {
				const sorted = [...prices].sort((a, b) => a - b)
				const [p25, p50, p75] = [0.25, 0.5, 0.75].map((p) => percentileCont(sorted, p)) as [number, number, number]
				expect(sorted[0]!).toBeLessThanOrEqual(p25)
				expect(p25).toBeLessThanOrEqual(p50)
				expect(p50).toBeLessThanOrEqual(p75)
				expect(p75).toBeLessThanOrEqual(sorted.at(-1)!)
			}),
		)
		expect(percentileCont([100, 200, 300, 400, 500], 0.25)).toBe(200)
		expect(percentileCont([100, 200], 0.5)).toBe(150)
	})

	test('the period is two years up to Tallinn’s today', () => {
		expect(rangePeriod(new Date('2026-11-28T23:30:00Z'))).toEqual({ periodFrom: '2024-11-29', periodTo: '2026-11-29' })
		expect(rangePeriod(new Date('2028-02-29T12:00:00Z'))).toEqual({ periodFrom: '2026-02-28', periodTo: '2028-02-29' })
	})

	test('engine bands and the class a form proposes', () => {
		expect(engineBandOf(1598)).toBe('up_to_1600')
		expect(engineBandOf(1600)).toBe('up_to_1600')
		expect(engineBandOf(1601)).toBe('1600_2500')
		expect(engineBandOf(3000)).toBe('over_2500')
		expect(engineBandOf(null)).toBeNull()
		expect(bandFits('any', null)).toBe(true)
		expect(bandFits('up_to_1600', null)).toBe(false)
		expect(bandFits('up_to_1600', 1400)).toBe(true)
		expect(defaultVehicleClass('electric')).toBe('electric')
		expect(defaultVehicleClass('diesel')).toBe('family')
	})
})
