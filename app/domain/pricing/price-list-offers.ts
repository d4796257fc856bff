import { type Language } from '~/i18n/config'
import { addDays } from '~/domain/booking/calendar'
import { bayFields, MAX_BOOKING_MINUTES } from '~/domain/booking/offer-times'
import { type VatMode } from '~/domain/service-flow/offer-kinds'
import { MAX_OFFER_LINES, type OfferLineInput } from '~/domain/service-flow/offer-lines'
import { MAX_OFFER_VALID_DAYS, type OfferFormDefaults, type OfferTerms } from '~/domain/service-flow/offers'
import { lineFormValues } from '~/domain/service-flow/offer-kinds'
import { type PriceItem } from './price-items'

/**
 * An offer made from price list items (issue 35, docs/decisions/0147): the items of a request's
 * services, one each, together. Browser-safe: the same draft fills the bid form (a drafted offer)
 * and becomes an instant offer's terms, so both say the same.
 */

export type ItemForOffer = Pick<PriceItem, 'id' | 'service' | 'vehicleClass' | 'engineBand' | 'vatMode' | 'durationMinutes' | 'included' | 'validUntil' | 'lines'>

export type OfferDraft = {
	/** The items, in the order of the request's services; the first is the one the offer names. */
	itemIds: string[]
	/** What each item is for, to name them ("Oil change · Family car · Engine up to 1.6 l"). */
	items: Array<Pick<PriceItem, 'service' | 'vehicleClass' | 'engineBand'>>
	lines: OfferLineInput[]
	vat: VatMode
	/** The items' minutes together. */
	minutes: number
	description: string
	/** The earliest last day of the items, at most the longest an offer may hold (null: none said). */
	validUntil: string | null
}

/** Offers' descriptions are at most this long (OfferSchema). */
const MAX_DESCRIPTION = 4000

/**
 * The items as one offer, or null when they cannot be one: their VAT modes differ (a line is
 * priced with or without VAT, never both in one offer), or their lines are more than an offer takes.
 */
export function combineItems(items: ItemForOffer[], today: string): OfferDraft | null {
	const vat = items[0]?.vatMode
	if (!vat || items.some((item) => item.vatMode !== vat)) return null
	const lines = items.flatMap((item) =>
		item.lines.map((line): OfferLineInput => ({
			kind: line.kind,
			description: line.description,
			reference: line.reference || undefined,
			quantity: line.quantity,
			unitPrice: line.unitPriceCents,
			quality: line.quality ?? undefined,
			used: line.used,
		})),
	)
	if (lines.length > MAX_OFFER_LINES) return null
	const ends = items.map((item) => item.validUntil).filter((day): day is string => day !== null)
	const latest = addDays(today, MAX_OFFER_VALID_DAYS)
	const validUntil = ends.length ? [...ends, latest].sort()[0]! : null
	return {
		itemIds: items.map((item) => item.id),
		items: items.map(({ service, vehicleClass, engineBand }) => ({ service, vehicleClass, engineBand })),
		lines,
		vat,
		minutes: items.reduce((sum, item) => sum + item.durationMinutes, 0),
		description: items
			.map((item) => item.included.trim())
			.filter(Boolean)
			.join('\n\n')
			.slice(0, MAX_DESCRIPTION),
		validUntil,
	}
}

/** The draft's time: minutes in the bay when it fits a day, else working days. */
function draftTime(draft: OfferDraft) {
	return draft.minutes <= MAX_BOOKING_MINUTES ? { bookingMinutes: draft.minutes, durationDays: undefined } : { bookingMinutes: null, durationDays: Math.ceil(draft.minutes / MAX_BOOKING_MINUTES) }
}

/** The draft as an offer's terms, with the calendar's free starts for its time (none when it takes days). */
export function draftTerms(draft: OfferDraft, starts: Date[]): OfferTerms {
	const { bookingMinutes, durationDays } = draftTime(draft)
	return {
		lines: draft.lines,
		vat: draft.vat,
		description: draft.description || undefined,
		validUntil: draft.validUntil ?? undefined,
		durationDays,
		...(bookingMinutes !== null ? { bayHours: Math.floor(bookingMinutes / 60), bayMinutes: bookingMinutes % 60 } : {}),
		proposedStarts: bookingMinutes !== null ? starts : [],
		anyFreeTime: false,
		priceListItemId: draft.itemIds[0],
	}
}

/** The minutes the draft books in the bay, or null when it takes days. */
export const draftBookingMinutes = (draft: OfferDraft) => draftTime(draft).bookingMinutes

/** The bid form's fields the draft fills (the rest stay a new offer's). */
export function draftFormValues(draft: OfferDraft, language: Language): Pick<OfferFormDefaults, 'vat' | 'lines' | 'description' | 'validUntil' | 'durationDays' | 'bayHours' | 'bayMinutes'> {
	const { bookingMinutes, durationDays } = draftTime(draft)
	return {
		vat: draft.vat,
		lines: draft.lines.map((line) =>
			lineFormValues(
				{ ...line, reference: line.reference ?? '', unitPriceCents: line.unitPrice, totalCents: 0, quality: line.quality ?? null, used: line.used === true },
				language,
			),
		),
		description: draft.description,
		validUntil: draft.validUntil ?? undefined,
		durationDays: durationDays?.toString(),
		...bayFields(bookingMinutes),
	}
}
