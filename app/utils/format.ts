import { intlLocales, type Language } from '~/i18n/config'
import { TIME_ZONE } from './time'

/**
 * Dates and numbers in the reader's language. Dates are formatted on the server (loaders) and
 * sent as text, so the page hydrates without depending on the browser's time zone or ICU data.
 * Money is formatted by app/utils/money.ts (re-exported here, where the pages have always found it).
 */
export { formatMoney } from './money'

export function formatDate(value: string | Date, language: Language) {
	return new Intl.DateTimeFormat(intlLocales[language], { dateStyle: 'long', timeZone: TIME_ZONE }).format(new Date(value))
}

export function formatDateTime(value: string | Date, language: Language) {
	return new Intl.DateTimeFormat(intlLocales[language], {
		weekday: 'short',
		day: 'numeric',
		month: 'short',
		hour: '2-digit',
		minute: '2-digit',
		timeZone: TIME_ZONE,
	}).format(new Date(value))
}

/** An average rating with one decimal: 4.5, or 4,5 in Estonian and Russian. */
export function formatRating(value: number, language: Language) {
	return new Intl.NumberFormat(intlLocales[language], { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value)
}

export function formatNumber(value: number, language: Language) {
	return new Intl.NumberFormat(intlLocales[language]).format(value)
}
