import * as z from 'zod/mini'
import { FieldError } from '~/utils/errors'
import { type Language } from '~/i18n/config'
import { formatMoneyInput } from '~/utils/money'
import { dateToTallinnInput, tallinnDay } from '~/utils/time'
import { checkbox, localDate, localDateTime, moneyAmount, optionalText, preprocess, wholeNumber } from '~/utils/validation'
import { MAX_BOOKING_MINUTES, MAX_PROPOSED_STARTS, MIN_BOOKING_MINUTES, bayFields, bookingMinutesOf } from '~/domain/booking/offer-times'
import { lineFormValues, type OfferLineKind, type PartQuality, type VatMode, vatModes } from './offer-kinds'
import { MAX_OFFER_LINES, MAX_OFFER_TOTAL_CENTS, OfferLineSchema, offerTotals, withoutBlankLines } from './offer-lines'
import { type OfferFields } from './requests'
import { offerStatuses } from './status'

/** How far ahead an offer may promise to hold its price. */
export const MAX_OFFER_VALID_DAYS = 90

/** A warranty's km and months, as the workshop profile bounds them. */
export const MAX_WARRANTY_KM = 1_000_000
export const MAX_WARRANTY_MONTHS = 240

/** A warranty field: a whole number, or null when left empty (the offer promises none of it). */
const warrantyAmount = (max: number) =>
	z.pipe(
		preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), z.optional(wholeNumber(0, max))),
		z.transform((value: number | undefined) => value ?? null),
	)

/** A number field that may be left empty (undefined): the form's blank, or the API's leaving it out. */
const optionalWhole = (min: number, max: number) =>
	preprocess((value) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value), z.optional(wholeNumber(min, max)))

const today = () => tallinnDay()
const daysFromToday = (days: number) => tallinnDay(new Date(Date.now() + days * 86_400_000))

/**
 * A workshop's offer (bid): one price, or lines (labour, parts, fees) whose total the server
 * computes (issue 19); when the work can start, how long it takes, until when the offer holds;
 * notes and description. An optional PDF is checked apart.
 */
export const OfferSchema = z
	.object({
		/** The one price, when the offer has no lines (ignored when it has). */
		price: z.optional(moneyAmount()),
		lines: z._default(preprocess(withoutBlankLines, z.array(OfferLineSchema).check(z.maxLength(MAX_OFFER_LINES, 'workshop:offer.tooManyLines'))), []),
		vat: z._default(z.enum(vatModes, { error: 'validation.unknownChoice' }), 'included'),
		earliestStart: z.optional(localDate()),
		durationDays: z.optional(wholeNumber(1, 365)),
		validUntil: z.optional(localDate()),
		/** The offer's own warranty (issue 32): the profile's is the form's default; empty promises none. */
		warrantyWorkKm: warrantyAmount(MAX_WARRANTY_KM),
		warrantyPartsMonths: warrantyAmount(MAX_WARRANTY_MONTHS),
		notes: optionalText(1000),
		description: optionalText(4000),
		/**
		 * Booking (issue 33), all optional: the time in the bay as hours and minutes (left empty: the
		 * labour lines' hours), up to three proposed starts (Tallinn time; a blank keeps its place, so
		 * a refusal stands next to its own field), or any free time until `validUntil`, which then wins.
		 */
		bayHours: optionalWhole(0, 24),
		bayMinutes: optionalWhole(0, 59),
		proposedStarts: z._default(
			z.array(preprocess((value) => (value === '' || value === null ? undefined : value), z.optional(localDateTime()))).check(z.maxLength(MAX_PROPOSED_STARTS, 'booking:offerTimes.tooMany')),
			[],
		),
		anyFreeTime: checkbox(),
	})
	// The price is needed without lines, whatever else is wrong in the form: checked even when other fields failed.
	.check(
		z.superRefine(
			(offer, context) => {
				const hasLines = Array.isArray(offer.lines) && offer.lines.length > 0
				const priceRefused = context.issues.some((issue) => issue.path?.[0] === 'price')
				if (!hasLines && offer.price === undefined && !priceRefused) context.addIssue({ code: 'custom', path: ['price'], message: 'validation.required' })
			},
			{ when: () => true },
		),
		// Each part says its quality (issue 32), so offers compare like for like: told with the line's other errors.
		z.superRefine(
			(offer, context) => {
				if (!Array.isArray(offer.lines)) return
				offer.lines.forEach((line, index) => {
					if (line?.kind === 'part' && !line.quality) context.addIssue({ code: 'custom', path: ['lines', index, 'quality'], message: 'workshop:offer.qualityRequired' })
				})
			},
			{ when: () => true },
		),
		z.superRefine((offer, context) => {
			if (offer.lines.length && offerTotals(offer.lines, offer.vat).totalCents > MAX_OFFER_TOTAL_CENTS)
				context.addIssue({ code: 'custom', path: ['lines'], message: 'workshop:offer.totalTooLarge' })
			// A day already refused (one that does not exist) is not also said to be too early.
			const refused = (name: string) => context.issues.some((issue) => issue.path?.[0] === name)
			if (offer.earliestStart && !refused('earliestStart') && offer.earliestStart < today()) context.addIssue({ code: 'custom', path: ['earliestStart'], message: 'validation.pastDate' })
			if (offer.validUntil && !refused('validUntil') && (offer.validUntil < today() || offer.validUntil > daysFromToday(MAX_OFFER_VALID_DAYS)))
				context.addIssue({ code: 'custom', path: ['validUntil'], message: 'workshop:offer.validUntilRange' })
			// The offer's time (issue 33): a length that fits a day, one to ask for when there are times, a validity for any free time.
			const minutes = bookingMinutesOf(offer)
			const starts = offer.anyFreeTime ? [] : offer.proposedStarts
			if (!refused('bayHours') && !refused('bayMinutes')) {
				if (minutes !== null && (minutes < MIN_BOOKING_MINUTES || minutes > MAX_BOOKING_MINUTES))
					context.addIssue({ code: 'custom', path: ['bayHours'], message: 'booking:offerTimes.durationRange' })
				else if (minutes === null && (offer.anyFreeTime || starts.some(Boolean)))
					context.addIssue({ code: 'custom', path: ['bayHours'], message: 'booking:offerTimes.durationNeeded' })
			}
			if (offer.anyFreeTime && !offer.validUntil && !refused('validUntil')) context.addIssue({ code: 'custom', path: ['validUntil'], message: 'booking:offerTimes.validUntilNeeded' })
			starts.forEach((start, index) => {
				if (start && starts.slice(0, index).some((other) => other?.getTime() === start.getTime()))
					context.addIssue({ code: 'custom', path: ['proposedStarts', index], message: 'booking:offerTimes.sameTwice' })
			})
		}),
	)
export type OfferInput = z.output<typeof OfferSchema>
/**
 * An offer's terms as the domain takes them: lines and VAT may be left out (one price, VAT
 * included), and so may the warranty (the workshop profile's, when the offer is made).
 */
type OptionalTerms = 'lines' | 'vat' | 'warrantyWorkKm' | 'warrantyPartsMonths' | 'bayHours' | 'bayMinutes' | 'proposedStarts' | 'anyFreeTime'
export type OfferTerms = Omit<OfferInput, OptionalTerms> &
	Partial<Pick<OfferInput, OptionalTerms>> & {
		/** The workshop's price list item the offer was drafted from (issue 35); another workshop's is not kept. */
		priceListItemId?: string
	}

/** The offer's price: its lines' total when it has lines, else the one price typed. */
export function offerPriceCents(offer: Pick<OfferTerms, 'price' | 'lines' | 'vat'>): number {
	if (offer.lines?.length) return offerTotals(offer.lines, offer.vat ?? 'included').totalCents
	// OfferSchema asks for one or the other; a caller that skipped it gets the form's answer, not a 500.
	if (offer.price === undefined) throw new FieldError('price', 'validation.required')
	return offer.price
}

/** An offer's form filled in with its terms, as the workshop typed them (amounts in its language's way). */
export type OfferFormDefaults = {
	price?: string
	vat: VatMode
	lines: Array<{ kind: OfferLineKind; description: string; reference: string; quantity: string; unitPrice: string; quality: PartQuality | ''; used: 'on' | '' }>
	earliestStart?: string
	durationDays?: string
	validUntil?: string
	warrantyWorkKm: string
	warrantyPartsMonths: string
	description: string
	notes: string
	bayHours: string
	bayMinutes: string
	/** datetime-local values in Tallinn, three places (blank: none). */
	proposedStarts: string[]
	anyFreeTime: 'on' | ''
}

/** A new offer's form: its warranty is the workshop profile's until the workshop changes it. */
/** A new offer's form: its warranty is the workshop profile's until the workshop changes it; its times the calendar's next free ones (`suggested`). */
export function newOfferDefaults(
	profile: { warrantyWorkKm: number | null; warrantyPartsMonths: number | null },
	suggested: { minutes: number; starts: string[] } = { minutes: 0, starts: [] },
): Pick<OfferFormDefaults, 'vat' | 'lines' | 'warrantyWorkKm' | 'warrantyPartsMonths' | 'description' | 'notes' | 'bayHours' | 'bayMinutes' | 'proposedStarts' | 'anyFreeTime'> {
	return {
		vat: 'included',
		lines: [],
		warrantyWorkKm: profile.warrantyWorkKm?.toString() ?? '',
		warrantyPartsMonths: profile.warrantyPartsMonths?.toString() ?? '',
		description: '',
		notes: '',
		...(suggested.starts.length ? bayFields(suggested.minutes) : bayFields(null)),
		proposedStarts: startPlaces(suggested.starts),
		anyFreeTime: '',
	}
}

/** The three start fields' values (blank where none). */
const startPlaces = (starts: string[]) => Array.from({ length: MAX_PROPOSED_STARTS }, (_, index) => starts[index] ?? '')

export function offerFormDefaults(offer: OfferFields, language: Language): OfferFormDefaults {
	return {
		price: offer.lines.length ? undefined : formatMoneyInput(offer.priceCents, language),
		vat: offer.vatMode,
		lines: offer.lines.map((line) => lineFormValues(line, language)),
		earliestStart: offer.earliestStart ?? undefined,
		durationDays: offer.durationDays?.toString(),
		validUntil: offer.validUntil ?? undefined,
		warrantyWorkKm: offer.warrantyWorkKm?.toString() ?? '',
		warrantyPartsMonths: offer.warrantyPartsMonths?.toString() ?? '',
		description: offer.description,
		notes: offer.notes,
		...bayFields(offer.bookingMinutes),
		proposedStarts: startPlaces(offer.proposedStarts.map((start) => dateToTallinnInput(start))),
		anyFreeTime: offer.anyFreeTime ? 'on' : '',
	}
}

export const offerSorts = ['price', 'rating', 'newest'] as const

/** The bid history's filters: all, or one offer status. */
export const bidFilters = ['all', ...offerStatuses] as const
export type BidFilter = (typeof bidFilters)[number]
