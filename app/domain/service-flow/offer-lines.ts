import * as z from 'zod/mini'
import { parseMoney } from '~/utils/money'
import { checkbox, moneyAmount, optionalText, preprocess, requiredText } from '~/utils/validation'
import { offerLineKinds, partQualities, VAT_PERCENT, type VatMode } from './offer-kinds'

/**
 * An itemised offer (issue 19): labour, parts and other fees, each a line, and the total computed
 * here from them, never taken from the form. Shared by the form, the server and the pages.
 */

/** More lines than a real quote has; a form that sends more is refused. */
export const MAX_OFFER_LINES = 30
/** An offer's total may not pass €1,000,000. */
export const MAX_OFFER_TOTAL_CENTS = 100_000_000
/** A line's unit price may not pass €100,000. */
export const MAX_LINE_PRICE_CENTS = 10_000_000


/** A quantity (hours of labour, number of parts) from a form: up to two decimals, 0.01–999.99, kept in hundredths. */
const quantity = () =>
	z.pipe(
		z.pipe(
			z.string({ error: 'validation.required' }).check(z.trim(), z.minLength(1, 'validation.required')),
			z.transform((value: string, context) => {
				const hundredths = parseMoney(value)
				if (hundredths === null) context.issues.push({ code: 'custom', message: 'validation.quantity', input: value })
				return hundredths ?? z.NEVER
			}),
		),
		z.number().check(z.int('validation.quantity'), z.minimum(1, 'validation.quantity'), z.maximum(99_999, 'validation.quantity')),
	)

export const OfferLineSchema = z
	.object({
		kind: z.enum(offerLineKinds, { error: 'validation.unknownChoice' }),
		description: requiredText(200),
		/** A part's brand or OE number; labour and fees leave it empty. */
		reference: optionalText(60),
		/** Hours for labour, pieces for parts, 1 for a fee; in hundredths. */
		quantity: quantity(),
		/** The price of one hour or one piece, in cents. */
		unitPrice: moneyAmount({ max: MAX_LINE_PRICE_CENTS }),
		/** A part's quality and whether it is used (issue 32); an offer's part line must say it (OfferSchema), extra work's may. */
		quality: preprocess((value) => (value === '' ? undefined : value), z.optional(z.enum(partQualities, { error: 'validation.unknownChoice' }))),
		used: z.optional(checkbox()),
	})
	// 0.01 h at €0.01 rounds to nothing: a line must come to at least a cent (the database refuses a zero price).
	.check(
		z.superRefine((line, context) => {
			// Only for a quantity and a price each accepted (a zero is already refused at its field).
			if (line.quantity >= 1 && line.unitPrice >= 1 && lineTotalCents(line) < 1) context.addIssue({ code: 'custom', path: ['unitPrice'], message: 'workshop:offer.lineBelowCent' })
		}),
	)
export type OfferLineInput = z.output<typeof OfferLineSchema>

/**
 * A line the form left entirely empty (a row added and not filled in) is no line: it is dropped
 * before validation instead of being refused field by field.
 */
export function withoutBlankLines(lines: unknown): unknown {
	if (!Array.isArray(lines)) return lines
	return lines.filter((line) => {
		if (!line || typeof line !== 'object') return true
		// The quality and "used" alone (a select's first choice, a box) are no line either.
		const { description, reference, quantity, unitPrice } = line as Record<string, unknown>
		return [description, reference, quantity, unitPrice].some((value) => typeof value === 'string' && value.trim() !== '')
	})
}

/** A line's amount: quantity × unit price, rounded to the cent. */
export const lineTotalCents = (line: Pick<OfferLineInput, 'quantity' | 'unitPrice'>) => Math.round((line.quantity * line.unitPrice) / 100)

export type OfferTotals = {
	labourCents: number
	partsCents: number
	feesCents: number
	/** Without VAT. */
	netCents: number
	vatCents: number
	/** What the customer pays: with VAT. */
	totalCents: number
}

/**
 * The totals of an offer's lines. With VAT included, the lines add up to the total and the VAT is
 * the part of it the rate makes; with VAT added, the lines add up to the net and VAT comes on
 * top. The three kinds' sums are as the lines are priced (with or without VAT, as they were typed).
 */
export function offerTotals(lines: Array<Pick<OfferLineInput, 'kind' | 'quantity' | 'unitPrice'>>, vat: VatMode): OfferTotals {
	const sums = { labour: 0, part: 0, fee: 0 }
	for (const line of lines) sums[line.kind] += lineTotalCents(line)
	const linesCents = sums.labour + sums.part + sums.fee
	const vatCents = vat === 'included' ? Math.round((linesCents * VAT_PERCENT) / (100 + VAT_PERCENT)) : Math.round((linesCents * VAT_PERCENT) / 100)
	const netCents = vat === 'included' ? linesCents - vatCents : linesCents
	return { labourCents: sums.labour, partsCents: sums.part, feesCents: sums.fee, netCents, vatCents, totalCents: netCents + vatCents }
}

/** An offer's line's columns: a priced line's and, for a part, its quality (none is "not stated") and whether it is used. */
export function offerLineColumns(line: OfferLineInput, position: number) {
	const part = line.kind === 'part'
	return { ...lineColumns(line, position), quality: part ? (line.quality ?? null) : null, used: part && line.used === true }
}

/** A priced line's columns, as offer_lines and extra_work_lines both store them. */
export function lineColumns(line: OfferLineInput, position: number) {
	return {
		position,
		kind: line.kind,
		description: line.description,
		reference: line.reference ?? '',
		quantityHundredths: line.quantity,
		unitPriceCents: line.unitPrice,
		totalCents: lineTotalCents(line),
	}
}
