import { getFixedT } from '~/i18n/i18n.server'
import { type Language } from '~/i18n/config'
import { formatDate, formatDateTime } from '~/utils/format'
import { formatMoney, parseMoney } from '~/utils/money'

/** A parameter given in every language (`services_et`, `services_en`, …): the reader's is used. */
const IN_LANGUAGE = /^(\w+)_(et|en|ru)$/

/**
 * A notification's text in the reader's language, made when it is read (the recipient's language
 * may change meanwhile). Amounts are stored in cents, `priceCents` (or any `…Cents`), and
 * formatted for the reader as `price` (`…`); notifications stored before that carry `price` in
 * euros ("185.00", or 185 in old demo data) and read the same. A day, `untilDay` (any `…Day`,
 * "2026-12-01"), is written as the reader writes dates, as `until`; a moment, `startsAt` (any `…At`), as a date and time, `starts`. A notice about a request
 * names its car (`car`) and its services (`services_et`, … in each language): they follow the
 * text ("… sent an offer: €224.80 — Toyota Corolla (123ABC), Oil change"); older notices without
 * them read as they did.
 */
export function notificationMessage(language: Language, key: string, params: Record<string, string | number>): string {
	const values = notificationValues(language, params)
	const t = getFixedT(language, 'common')
	const message = t(key, values)
	const about = [values.car, values.services].filter((part) => part !== undefined && part !== '').join(', ')
	return about ? t('notifications.about', { message, about }) : message
}

/** A notification's stored parameters as its reader's texts use them: money, days, the reader's language. */
export function notificationValues(language: Language, params: Record<string, string | number>): Record<string, string | number> {
	const values: Record<string, string | number> = {}
	for (const [name, value] of Object.entries(params)) {
		const localized = IN_LANGUAGE.exec(name)
		if (localized) {
			if (localized[2] === language) values[localized[1]!] = value
		} else if (name.endsWith('Cents') && typeof value === 'number') values[name.slice(0, -'Cents'.length)] = formatMoney(value, language)
		else if (name.endsWith('Day') && typeof value === 'string') values[name.slice(0, -'Day'.length)] = formatDate(value, language)
		// A moment, `startsAt` (any `…At`, an ISO instant), as the reader writes a date and time in Tallinn: `starts`.
		else if (name.endsWith('At') && typeof value === 'string') values[name.slice(0, -'At'.length)] = formatDateTime(value, language)
		else if (name === 'price' && !('priceCents' in params)) {
			const cents = typeof value === 'number' ? Math.round(value * 100) : parseMoney(value)
			values.price = cents === null ? value : formatMoney(cents, language)
		} else values[name] = value
	}
	return values
}
