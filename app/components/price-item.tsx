import { useTranslation } from '~/i18n/translation'
import { useLanguage } from '~/i18n/use-language'
import { type PriceItem } from '~/domain/pricing/price-items'
import { formatDate, formatMoney } from '~/utils/format'

/** What pages say of a price list's item (issue 35): its name, its price, its time, its days. No zod here: public pages show it. */

type Translate = (key: string, params?: Record<string, unknown>) => string

/**
 * An item's time: "45 min", "1 h 15 min", or from a day on "2 days 3 h" (the offers' words for
 * their time, booking:offerTimes; not OfferTerms' own helper, which would bring the offer's
 * terms into the public page's JavaScript).
 */
export function itemDuration(t: Translate, minutes: number): string {
	const days = Math.floor(minutes / (24 * 60))
	const hours = Math.floor((minutes % (24 * 60)) / 60)
	const rest = minutes % 60
	const time = !hours
		? rest
			? t('booking:offerTimes.minutes', { minutes: rest })
			: ''
		: rest
			? t('booking:offerTimes.hoursMinutes', { hours, minutes: rest })
			: t('booking:offerTimes.hours', { hours })
	return [days ? t('common:offerTerms.days', { count: days }) : '', time].filter(Boolean).join(' ')
}

/** "1.10.2026 – 31.12.2026", "From 1.10.2026", or "Until 31.12.2026" for one valid now. */
export function itemValidity(t: Translate, item: Pick<PriceItem, 'validFrom' | 'validUntil'>, language: Parameters<typeof formatDate>[1], today: string): string | null {
	if (item.validFrom <= today) return item.validUntil ? t('workshop:priceList.validUntil', { date: formatDate(item.validUntil, language) }) : null
	return item.validUntil
		? t('workshop:priceList.validBetween', { from: formatDate(item.validFrom, language), until: formatDate(item.validUntil, language) })
		: t('workshop:priceList.validFrom', { date: formatDate(item.validFrom, language) })
}

/** The item's total with VAT, and its net on a line of its own. */
export function ItemPrice({ item }: { item: Pick<PriceItem, 'priceCents' | 'vatCents'> }) {
	const { t } = useTranslation('workshop')
	const language = useLanguage()
	return (
		<span className="price-item__price">
			<span className="price-item__total">{formatMoney(item.priceCents, language)}</span>
			<span className="price-item__net">{t('priceList.net', { price: formatMoney(item.priceCents - item.vatCents, language) })}</span>
		</span>
	)
}
