import { useTranslation } from '~/i18n/translation'
import { type BestInRows, type Comparable, type ComparisonRow, comparisonRows, notItemised, partQualityCounts } from '~/domain/service-flow/offer-comparison'
import { useLanguage } from '~/i18n/use-language'
import { distanceText, type OdometerUnit } from '~/domain/service-flow/vehicle-kinds'
import { formatDate, formatMoney, formatRating } from '~/utils/format'

type Offer = Comparable & { workshopName: string; city: string | null }

/** One row's value for one offer, as the reader reads it; null where the offer does not say. */
/** `unit`: the vehicle's odometer unit, in which a work warranty's distance is shown (decision 0122). */
function useCellText(unit: OdometerUnit) {
	const { t } = useTranslation(['customer', 'common'])
	const language = useLanguage()
	return (row: ComparisonRow, offer: Offer): string | null => {
		// A lump sum does not say what its labour, parts and their quality are (issue 32).
		if (notItemised(row, offer)) return t('offers.compare.notItemised')
		switch (row) {
			case 'total':
				return formatMoney(offer.priceCents, language)
			case 'labour':
				return offer.labourCents === null || !offer.lines.some((line) => line.kind === 'labour') ? null : formatMoney(offer.labourCents, language)
			case 'parts':
				return offer.partsCents === null || !offer.lines.some((line) => line.kind === 'part') ? null : formatMoney(offer.partsCents, language)
			case 'partQuality': {
				const { qualities, used } = partQualityCounts(offer.lines)
				if (!qualities.length) return null
				const parts = qualities.map((entry) => t('common:partQuality.countOf', { count: entry.count, quality: t(`common:partQuality.${entry.quality}`) }))
				if (used) parts.push(t('common:partQuality.usedCount', { count: used }))
				return parts.join(' · ')
			}
			case 'earliestStart':
				return offer.earliestStart ? formatDate(offer.earliestStart, language) : null
			case 'duration':
				return offer.durationDays ? t('common:offerTerms.days', { count: offer.durationDays }) : null
			case 'warranty': {
				const parts = [
					offer.warrantyWorkKm ? distanceText(t, offer.warrantyWorkKm, unit) : null,
					offer.warrantyPartsMonths ? t('offers.months', { count: offer.warrantyPartsMonths }) : null,
				].filter(Boolean)
				return parts.length ? parts.join(' · ') : null
			}
			case 'rating':
				return offer.reviewCount > 0 ? `${formatRating(offer.ratingAverage, language)} (${offer.reviewCount})` : null
			case 'responseTime': {
				if (offer.responseMinutes === null) return null
				const hours = Math.max(1, Math.ceil(offer.responseMinutes / 60))
				return hours <= 24 ? t('offers.compare.hours', { count: hours }) : t('offers.compare.days', { count: Math.ceil(hours / 24) })
			}
			case 'city':
				return offer.city
		}
	}
}

/**
 * The offers side by side (issue 19, part 2): a table with a column per offer where the screen is
 * wide, the best value of each row marked; phones show the same rows in each offer's card
 * (`OfferComparisonFacts`). Sorted as the page's list is.
 */
export function OfferComparison({ offers, best, unit }: { offers: Offer[]; best: BestInRows; unit: OdometerUnit }) {
	const { t } = useTranslation('customer')
	const text = useCellText(unit)
	return (
		<div className="compare-table-wrap">
			<table className="compare-table">
				<caption>{t('offers.compare.caption')}</caption>
				<thead>
					<tr>
						<td />
						{offers.map((offer) => (
							<th key={offer.id} scope="col">
								{offer.workshopName}
							</th>
						))}
					</tr>
				</thead>
				<tbody>
					{comparisonRows.map((row) => (
						<tr key={row} data-row={row}>
							<th scope="row">{t(`offers.compare.${row}`)}</th>
							{offers.map((offer) => (
								<Cell key={offer.id} best={best[row].includes(offer.id)} text={text(row, offer)} />
							))}
						</tr>
					))}
				</tbody>
			</table>
		</div>
	)
}

/** The comparison's rows for one offer, for its card on a phone. */
export function OfferComparisonFacts({ offer, best, unit }: { offer: Offer; best: BestInRows; unit: OdometerUnit }) {
	const { t } = useTranslation('customer')
	const text = useCellText(unit)
	return (
		<dl className="compare-facts">
			{comparisonRows.map((row) => (
				<div key={row} data-row={row} className={best[row].includes(offer.id) ? 'compare-facts__best' : undefined}>
					<dt>{t(`offers.compare.${row}`)}</dt>
					<dd>
						{text(row, offer) ?? t('offers.compare.notGiven')}
						{best[row].includes(offer.id) ? <BestMark /> : null}
					</dd>
				</div>
			))}
		</dl>
	)
}

function Cell({ best, text }: { best: boolean; text: string | null }) {
	const { t } = useTranslation('customer')
	return (
		<td className={best ? 'compare-table__best' : undefined}>
			{text ?? t('offers.compare.notGiven')}
			{best ? <BestMark /> : null}
		</td>
	)
}

function BestMark() {
	const { t } = useTranslation('customer')
	return <span className="badge badge--best">{t('offers.compare.best')}</span>
}
