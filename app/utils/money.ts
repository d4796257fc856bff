import { type Language } from '~/i18n/config'
import { numberFormat } from './intl'

/**
 * Money, the one module that reads and writes it (docs/contributing.md "Money in integer cents"):
 * amounts travel and are stored as integer cents; people type euros ("185", "185.5", "185,50");
 * every amount shown is formatted here, in the reader's language ("€185.00", "185,00 €").
 * Browser-safe: the forms' schemas and the pages use it as the server does.
 */

export const CURRENCY = 'EUR'

/** Euros as people type them: whole euros, and at most two decimals after a point or a comma. */
const TYPED_AMOUNT = /^(\d{1,9})(?:[.,](\d{1,2}))?$/

/** "185" → 18500, "185.5" → 18550, "185,50" → 18550; anything else (signs, spaces, "1 000", three decimals) → null. */
export function parseMoney(text: string): number | null {
	const match = TYPED_AMOUNT.exec(text.trim())
	if (!match) return null
	return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
}

/** An amount for reading: €185.00 in English, 185,00 € in Estonian and Russian. */
export function formatMoney(cents: number, language: Language, currency = CURRENCY) {
	return numberFormat(language, { style: 'currency', currency }).format(cents / 100)
}

/** Whole euros, for an amount that is a figure of many (a usual price): no cents. */
const WHOLE_EUROS = { style: 'currency', currency: CURRENCY, minimumFractionDigits: 0, maximumFractionDigits: 0 } as const

/** An approximate amount in whole euros: €170 in English, 170 € in Estonian and Russian (issue 35's usual prices). */
export function formatWholeMoney(cents: number, language: Language) {
	return numberFormat(language, WHOLE_EUROS).format(Math.round(cents / 100))
}

/** A range of approximate amounts in whole euros, as Intl writes one: "€140 – €210", "140–210 €"; one amount when both ends round alike. */
export function formatMoneyRange(lowCents: number, highCents: number, language: Language) {
	const [low, high] = [Math.round(lowCents / 100), Math.round(highCents / 100)]
	return low === high ? formatWholeMoney(lowCents, language) : numberFormat(language, WHOLE_EUROS).formatRange(low, high)
}

/** An amount for a form field, as `parseMoney` reads it back: "185.50", or "185,50" in Estonian and Russian. */
export function formatMoneyInput(cents: number, language: Language) {
	return numberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false }).format(cents / 100)
}
