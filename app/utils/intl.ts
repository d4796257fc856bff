import { intlLocales, type Language } from '~/i18n/config'

/**
 * Intl formatters, one per language and options: making one costs far more than using it, and a
 * page (or the bell's poll) formats dozens of dates and amounts. Browser-safe.
 */
const numberFormats = new Map<string, Intl.NumberFormat>()
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>()

export function numberFormat(language: Language, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
	const key = `${language} ${JSON.stringify(options)}`
	let format = numberFormats.get(key)
	if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(intlLocales[language], options)))
	return format
}

export function dateTimeFormat(language: Language, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
	const key = `${language} ${JSON.stringify(options)}`
	let format = dateTimeFormats.get(key)
	if (!format) dateTimeFormats.set(key, (format = new Intl.DateTimeFormat(intlLocales[language], options)))
	return format
}
