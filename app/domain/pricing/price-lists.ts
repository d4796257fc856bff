import * as z from 'zod/mini'
import { checkbox, choice, localDate, optionalText, preprocess, wholeNumber } from '~/utils/validation'
import { vatModes } from '~/domain/service-flow/offer-kinds'
import { MAX_OFFER_LINES, OfferLineSchema, offerTotals, withoutBlankLines } from '~/domain/service-flow/offer-lines'
import { vehicleClasses } from '~/domain/service-flow/vehicle-kinds'
import { MIN_BOOKING_MINUTES } from '~/domain/booking/offer-times'
import { engineBands } from './price-kinds'

/**
 * A workshop's price list (issue 35, docs/decisions/0147): fixed prices per service, vehicle class
 * and engine band, each item itemised like an offer (the offer's line schema and `offerTotals`, its
 * VAT modes), with the time it takes, what it includes and the days it is valid. Browser-safe: the
 * form's schema, shared by the page and the server, and what pages show of an item.
 */

/** An item's total with VAT may not pass €100,000 (the database's check says the same). */
export const MAX_ITEM_PRICE_CENTS = 10_000_000
/** An item takes at least as long as the shortest booking, and at most 30 days. */
export const MIN_ITEM_MINUTES = MIN_BOOKING_MINUTES
export const MAX_ITEM_MINUTES = 30 * 24 * 60
/** What an item includes, in the workshop's words. */
export const MAX_INCLUDED_LENGTH = 1000

/** A number field that may be left empty (undefined). */
const optionalWhole = (min: number, max: number) =>
	preprocess((value) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value), z.optional(wholeNumber(min, max)))

/** An optional day: empty is none. */
const optionalDay = () => preprocess((value) => (value === '' || value === null ? undefined : value), z.optional(localDate()))

/** The item's minutes from its two fields (hours and minutes); null when both are empty. */
export function itemMinutesOf(input: { durationHours?: number; durationMinutes?: number }): number | null {
	if (input.durationHours === undefined && input.durationMinutes === undefined) return null
	return (input.durationHours ?? 0) * 60 + (input.durationMinutes ?? 0)
}

export const PriceItemSchema = z
	.object({
		/** One of the workshop's own services (its profile's list); the server checks it is. */
		serviceId: choice(),
		vehicleClass: z.enum(vehicleClasses, { error: 'validation.unknownChoice' }),
		/** `any` unless the price depends on the engine's size (an oil change); an electric car's is always `any`. */
		engineBand: z._default(z.enum(engineBands, { error: 'validation.unknownChoice' }), 'any'),
		lines: z._default(preprocess(withoutBlankLines, z.array(OfferLineSchema).check(z.maxLength(MAX_OFFER_LINES, 'workshop:offer.tooManyLines'))), []),
		vat: z._default(z.enum(vatModes, { error: 'validation.unknownChoice' }), 'included'),
		/** How long the car is in the bay: hours (up to 30 days of them) and minutes. */
		durationHours: optionalWhole(0, 99_999),
		durationMinutes: optionalWhole(0, 59),
		included: optionalText(MAX_INCLUDED_LENGTH),
		validFrom: localDate(),
		validUntil: optionalDay(),
		/** A matching new request gets an offer made from this item at once. */
		sendsInstant: checkbox(),
	})
	.check(
		// Told with the other fields' errors, whatever else is wrong.
		z.superRefine(
			(item, context) => {
				if (!Array.isArray(item.lines)) return
				const linesRefused = context.issues.some((issue) => issue.path?.[0] === 'lines')
				if (!item.lines.length && !linesRefused) context.addIssue({ code: 'custom', path: ['lines'], message: 'workshop:priceList.linesNeeded' })
				item.lines.forEach((line, index) => {
					if (line?.kind === 'part' && !line.quality) context.addIssue({ code: 'custom', path: ['lines', index, 'quality'], message: 'workshop:offer.qualityRequired' })
				})
			},
			{ when: () => true },
		),
		z.superRefine((item, context) => {
			const refused = (name: string) => context.issues.some((issue) => issue.path?.[0] === name)
			if (item.lines.length && offerTotals(item.lines, item.vat).totalCents > MAX_ITEM_PRICE_CENTS)
				context.addIssue({ code: 'custom', path: ['lines'], message: 'workshop:priceList.totalTooLarge' })
			if (item.vehicleClass === 'electric' && item.engineBand !== 'any') context.addIssue({ code: 'custom', path: ['engineBand'], message: 'workshop:priceList.electricAnyEngine' })
			const minutes = itemMinutesOf(item)
			if (!refused('durationHours') && !refused('durationMinutes')) {
				if (minutes === null) context.addIssue({ code: 'custom', path: ['durationHours'], message: 'validation.required' })
				else if (minutes > MAX_ITEM_MINUTES) context.addIssue({ code: 'custom', path: ['durationHours'], message: 'workshop:priceList.durationTooLong' })
				else if (minutes < MIN_ITEM_MINUTES) context.addIssue({ code: 'custom', path: ['durationHours'], message: 'workshop:priceList.durationTooShort' })
			}
			if (item.validUntil && !refused('validFrom') && !refused('validUntil') && item.validUntil < item.validFrom)
				context.addIssue({ code: 'custom', path: ['validUntil'], message: 'workshop:priceList.untilBeforeFrom' })
		}),
	)
export type PriceItemInput = z.output<typeof PriceItemSchema>
