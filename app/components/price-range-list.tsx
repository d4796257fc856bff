import { useTranslation } from '~/i18n/translation'
import { type ShownRange } from '~/domain/pricing/price-pages'

/**
 * The usual price of a service per vehicle class (issue 35): "Family car — usually €140 – €210,
 * median €175, from 8 jobs at 4 workshops, November 2024 – November 2026". Texts formatted by the loader.
 */
export function PriceRangeList({ ranges, label }: { ranges: ShownRange[]; label: string }) {
	const { t } = useTranslation('public')
	return (
		<ul className="price-ranges" aria-label={label}>
			{ranges.map((range) => (
				<li key={range.vehicleClass} className="price-range">
					<span className="price-range__class">{t(`common:vehicleClass.${range.vehicleClass}`)}</span>
					<strong className="price-range__usual">{t('pricePages.usually', { range: range.usual })}</strong>
					<span className="price-range__median">{t('pricePages.median', { amount: range.median })}</span>
					<span className="price-range__basis">{t('pricePages.basis', { jobs: range.jobs, workshops: range.workshops, period: range.period })}</span>
				</li>
			))}
		</ul>
	)
}
