import { getFixedT } from '~/i18n/i18n.server'
import { type Language } from '~/i18n/config'
import { formatDate } from '~/utils/format'
import { formatMoney, parseMoney } from '~/utils/money'

/**
 * A notification's text in the reader's language, made when it is read (the recipient's language
 * may change meanwhile). Amounts are stored in cents, `priceCents` (or any `…Cents`), and
 * formatted for the reader as `price` (`…`); notifications stored before that carry `price` in
 * euros ("185.00", or 185 in old demo data) and read the same. A day, `untilDay` (any `…Day`,
 * "2026-12-01"), is written as the reader writes dates, as `until`.
 */
export function notificationMessage(language: Language, key: string, params: Record<string, string | number>): string {
	const values: Record<string, string | number> = {}
	for (const [name, value] of Object.entries(params)) {
		if (name.endsWith('Cents') && typeof value === 'number') values[name.slice(0, -'Cents'.length)] = formatMoney(value, language)
		else if (name.endsWith('Day') && typeof value === 'string') values[name.slice(0, -'Day'.length)] = formatDate(value, language)
		else if (name === 'price' && !('priceCents' in params)) {
			const cents = typeof value === 'number' ? Math.round(value * 100) : parseMoney(value)
			values.price = cents === null ? value : formatMoney(cents, language)
		} else values[name] = value
	}
	return getFixedT(language, 'common')(key, values)
}
