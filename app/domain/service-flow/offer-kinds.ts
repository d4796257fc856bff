import { type Language } from '~/i18n/config'
import { formatMoneyInput } from '~/utils/money'
/** The kinds of an itemised offer's lines and its VAT (issue 19), as the database's enums have them. */
export const offerLineKinds = ['labour', 'part', 'fee'] as const
export type OfferLineKind = (typeof offerLineKinds)[number]

/** A line of an offer or of extra work as pages show it: quantities in hundredths, amounts in cents. */
export type ShownLine = {
	kind: OfferLineKind
	description: string
	reference: string
	quantity: number
	unitPriceCents: number
	totalCents: number
}

/**
 * A part line's quality (issue 32): original (OEM, the carmaker's brand), equivalent (OE quality,
 * the maker that supplies the carmaker) or aftermarket; whether it is used is said apart. Lines
 * made before it was asked have none: "not stated".
 */
export const partQualities = ['original', 'equivalent', 'aftermarket'] as const
export type PartQuality = (typeof partQualities)[number]

/** Whether an offer's line prices include VAT, or VAT is added on top of them. */
export const vatModes = ['included', 'added'] as const
export type VatMode = (typeof vatModes)[number]

/** Estonia's standard VAT rate since 1 July 2025 (market notes). */
export const VAT_PERCENT = 24

/** A priced line's fields as the offer's and the price list's line editor shows them, to change it. */
export function lineFormValues(line: Omit<ShownLine, 'totalCents'> & { totalCents?: number; quality: PartQuality | null; used: boolean }, language: Language) {
	return {
		kind: line.kind,
		description: line.description,
		reference: line.reference,
		quantity: formatMoneyInput(line.quantity, language).replace(/[.,]00$/, ''),
		unitPrice: formatMoneyInput(line.unitPriceCents, language),
		quality: line.quality ?? ('' as const),
		used: line.used ? ('on' as const) : ('' as const),
	}
}
