import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { offerLineKinds } from '~/domain/service-flow/offer-kinds'
import { VAT_PERCENT } from '~/domain/service-flow/offer-kinds'
import { lineTotalCents, offerTotals, withoutBlankLines } from '~/domain/service-flow/offer-lines'
import { offerPriceCents } from '~/domain/service-flow/offers'
import { FieldError } from '~/utils/errors'

const line = fc.record({
	kind: fc.constantFrom(...offerLineKinds),
	quantity: fc.integer({ min: 1, max: 99_999 }),
	unitPrice: fc.integer({ min: 1, max: 10_000_000 }),
})
const lines = fc.array(line, { minLength: 1, maxLength: 30 })

describe("an itemised offer's totals (issue 19)", () => {
	test('the three kinds add up to the lines, and net plus VAT is the total, in either VAT mode', () => {
		fc.assert(
			fc.property(lines, fc.constantFrom('included' as const, 'added' as const), (offer, vat) => {
				const totals = offerTotals(offer, vat)
				const linesCents = offer.reduce((sum, each) => sum + lineTotalCents(each), 0)
				expect(totals.labourCents + totals.partsCents + totals.feesCents).toBe(linesCents)
				expect(totals.netCents + totals.vatCents).toBe(totals.totalCents)
				// Included: the customer pays what the lines say. Added: the lines are the net.
				expect(vat === 'included' ? totals.totalCents : totals.netCents).toBe(linesCents)
				// The VAT is the rate of the net, to within a cent of rounding.
				expect(Math.abs(totals.vatCents - (totals.netCents * VAT_PERCENT) / 100)).toBeLessThanOrEqual(0.5 + VAT_PERCENT / 100)
			}),
		)
	})

	test('a line is quantity × unit price, to the cent', () => {
		expect(lineTotalCents({ quantity: 150, unitPrice: 6000 })).toBe(9000)
		expect(lineTotalCents({ quantity: 33, unitPrice: 1001 })).toBe(330)
		expect(offerTotals([{ kind: 'labour', quantity: 100, unitPrice: 12400 }], 'included')).toEqual({
			labourCents: 12400,
			partsCents: 0,
			feesCents: 0,
			netCents: 10000,
			vatCents: 2400,
			totalCents: 12400,
		})
	})

	test('a row left empty is dropped; a row with anything in it is kept for its errors', () => {
		expect(withoutBlankLines([{ kind: 'labour' }, { kind: 'part', description: ' ' }, { kind: 'fee', quantity: '1' }])).toEqual([{ kind: 'fee', quantity: '1' }])
		expect(withoutBlankLines(undefined)).toBeUndefined()
	})

	test('an offer with neither a price nor lines is a field error at the price, not a 500', () => {
		expect(() => offerPriceCents({})).toThrow(FieldError)
		expect(() => offerPriceCents({})).toThrow('validation.required')
		expect(offerPriceCents({ price: 1250 })).toBe(1250)
	})
})
