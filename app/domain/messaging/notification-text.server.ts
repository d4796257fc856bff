import { getFixedT } from '~/i18n/i18n.server'
import { type Language } from '~/i18n/config'
import { formatMoney, parseMoney } from '~/utils/money'

/**
 * A notification's text in the reader's language, made when it is read (the recipient's language
 * may change meanwhile). Amounts are stored in cents, `priceCents`, and formatted for the reader;
 * notifications stored before that carry `price` in euros ("185.00", or 185 in old demo data)
 * and read the same.
 */
export function notificationMessage(language: Language, key: string, params: Record<string, string | number>): string {
	const { priceCents, price, ...rest } = params
	const cents =
		typeof priceCents === 'number' ? priceCents : typeof price === 'number' ? Math.round(price * 100) : typeof price === 'string' ? parseMoney(price) : null
	return getFixedT(language, 'common')(key, cents === null ? params : { ...rest, price: formatMoney(cents, language) })
}
