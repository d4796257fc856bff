import { describe, expect, test } from 'vitest'
import { bestInRows, type Comparable, notItemised } from '~/domain/service-flow/offer-comparison'

const labour = { kind: 'labour' as const, description: 'Work', reference: '', quantity: 100, unitPriceCents: 100, totalCents: 100, quality: null, used: false }
const part = { ...labour, kind: 'part' as const, description: 'Part', quality: 'original' as const }

const offer = (id: string, fields: Partial<Comparable>): Comparable => ({
	id,
	priceCents: 10000,
	labourCents: null,
	partsCents: null,
	lines: [],
	earliestStart: null,
	durationDays: null,
	warrantyWorkKm: null,
	warrantyPartsMonths: null,
	ratingAverage: 0,
	reviewCount: 0,
	responseMinutes: null,
	...fields,
})

describe('the best value in each row of the comparison (issue 19, part 2)', () => {
	test('lowest price, labour, parts, start, duration and response time; highest warranty and rating', () => {
		const best = bestInRows([
			offer('a', { priceCents: 18500, labourCents: 10500, partsCents: 8000, lines: [labour, part], earliestStart: '2099-01-03', durationDays: 1, warrantyWorkKm: 10000, warrantyPartsMonths: 12, ratingAverage: 4.6, reviewCount: 5, responseMinutes: 300 }),
			offer('b', { priceCents: 21000, labourCents: 10000, partsCents: 10500, lines: [labour, part], earliestStart: '2099-01-02', durationDays: 2, warrantyWorkKm: 20000, warrantyPartsMonths: 24, ratingAverage: 4.2, reviewCount: 5, responseMinutes: 60 }),
			offer('c', { priceCents: 24500, warrantyWorkKm: 20000, warrantyPartsMonths: 6, ratingAverage: 5, reviewCount: 0 }),
		])
		expect(best).toEqual({
			total: ['a'],
			labour: ['b'],
			parts: ['a'],
			partQuality: [],
			earliestStart: ['b'],
			duration: ['a'],
			// Same km: the parts' months decide.
			warranty: ['b'],
			// Five stars from no reviews is no rating.
			rating: ['a'],
			responseTime: ['b'],
			city: [],
		})
	})

	test('a tie marks every offer in it; a row only one offer fills marks none', () => {
		const best = bestInRows([offer('a', { priceCents: 5000, durationDays: 3 }), offer('b', { priceCents: 5000 })])
		expect(best.total).toEqual(['a', 'b'])
		expect(best.duration).toEqual([])
		expect(bestInRows([offer('a', {})]).total).toEqual([])
	})

	test('a lump sum is "not itemised" and never best on the rows it leaves out (issue 32)', () => {
		const lumpSum = offer('lump', { priceCents: 9000 })
		const itemised = offer('lines', { priceCents: 12000, labourCents: 6000, partsCents: 6000, lines: [labour, part] })
		// An itemised offer with no parts leaves the parts out too: €0 of parts is no price of parts.
		const labourOnly = offer('labour', { priceCents: 11000, labourCents: 11000, partsCents: 0, lines: [labour] })
		const best = bestInRows([lumpSum, itemised, labourOnly])
		expect(best.total).toEqual(['lump'])
		expect(best.labour).toEqual(['lines'])
		expect(best.parts).toEqual([])
		expect(notItemised('labour', lumpSum)).toBe(true)
		expect(notItemised('partQuality', lumpSum)).toBe(true)
		expect(notItemised('total', lumpSum)).toBe(false)
		expect(notItemised('labour', itemised)).toBe(false)
	})
})
