import { useTranslation } from '~/i18n/translation'
import { VAT_PERCENT } from '~/domain/service-flow/offer-kinds'
import { type OfferFields } from '~/domain/service-flow/requests'
import { useLanguage } from '~/i18n/use-language'
import { formatDate, formatDateTime, formatMoney, formatNumber } from '~/utils/format'
import { distanceText, type OdometerUnit } from '~/domain/service-flow/vehicle-kinds'

type Line = Omit<OfferFields['lines'][number], 'quality' | 'used'> & Partial<Pick<OfferFields['lines'][number], 'quality' | 'used'>>
type Terms = Pick<OfferFields, 'vatMode' | 'labourCents' | 'partsCents' | 'feesCents' | 'vatCents' | 'priceCents'> & { lines: Line[] } &
	Partial<Pick<OfferFields, 'earliestStart' | 'durationDays' | 'validUntil' | 'warrantyWorkKm' | 'warrantyPartsMonths' | 'bookingMinutes' | 'proposedStarts' | 'anyFreeTime'>>

/**
 * What an offer's price is made of (issue 19): its lines and the sums the server computed, and
 * when the work can start, how long it takes, until when the price holds, and the offer's own
 * warranty (issue 32; an offer has one, extra work has none). A part line says its quality. Nothing
 * for an offer of one price with no such terms. `compared`: the comparison beside it already says
 * when the work starts, how long it takes and the warranty. `unit`: the vehicle's odometer unit the
 * work warranty is shown in (the workshop writes km).
 */
export function OfferTerms({ offer, compared = false, unit = 'km' }: { offer: Terms; compared?: boolean; unit?: OdometerUnit }) {
	const { t } = useTranslation(['common', 'booking'])
	const language = useLanguage()
	const money = (cents: number) => formatMoney(cents, language)
	const when = [
		offer.earliestStart && !compared ? { label: t('offerTerms.earliestStart'), value: formatDate(offer.earliestStart, language) } : null,
		offer.durationDays && !compared ? { label: t('offerTerms.duration'), value: t('offerTerms.days', { count: offer.durationDays }) } : null,
		offer.validUntil ? { label: t('offerTerms.validUntil'), value: formatDate(offer.validUntil, language) } : null,
		// The offer's time (issue 33), in Tallinn time.
		offer.bookingMinutes ? { label: t('booking:offerTimes.duration'), value: bayTime(t, offer.bookingMinutes) } : null,
		offer.anyFreeTime ? { label: t('booking:offerTimes.proposed'), value: t('booking:offerTimes.anyTime') } : null,
		!offer.anyFreeTime && offer.proposedStarts?.length
			? { label: t('booking:offerTimes.proposed'), value: offer.proposedStarts.map((start) => formatDateTime(start, language)).join('; ') }
			: null,
		// Shown where the offer is, said or not: "none" is a promise too.
		'warrantyWorkKm' in offer && !compared
			? { label: t('offerTerms.workWarranty'), value: offer.warrantyWorkKm ? distanceText(t, offer.warrantyWorkKm, unit) : t('offerTerms.noWarranty') }
			: null,
		'warrantyPartsMonths' in offer && !compared
			? { label: t('offerTerms.partsWarranty'), value: offer.warrantyPartsMonths ? t('offerTerms.months', { count: offer.warrantyPartsMonths }) : t('offerTerms.noWarranty') }
			: null,
	].filter((row) => row !== null)
	return (
		<>
			{offer.lines.length ? (
				<div className="offer-terms">
					<table className="offer-terms__lines">
						<caption>{t('offerTerms.linesTitle')}</caption>
						<thead>
							<tr>
								<th scope="col">{t('offerTerms.item')}</th>
								<th scope="col" className="numeric">{t('offerTerms.quantity')}</th>
								<th scope="col" className="numeric">{t('offerTerms.unitPrice')}</th>
								<th scope="col" className="numeric">{t('offerTerms.amount')}</th>
							</tr>
						</thead>
						<tbody>
							{offer.lines.map((line, index) => (
								<tr key={index}>
									<th scope="row">
										<span className="offer-terms__kind">{t(`offerTerms.${line.kind}`)}</span> {line.description}
										{line.reference ? <span className="offer-terms__reference"> · {line.reference}</span> : null}
										{line.kind === 'part' && 'quality' in line ? (
											<span className="offer-terms__quality">
												{' · '}
												{t(`partQuality.${line.quality ?? 'notStated'}`)}
												{line.used ? `, ${t('partQuality.used')}` : null}
											</span>
										) : null}
									</th>
									{/* data-label names the number where a phone stacks the row (app.css). */}
									<td className="numeric" data-label={t('offerTerms.quantity')}>{formatNumber(line.quantity / 100, language)}</td>
									<td className="numeric" data-label={t('offerTerms.unitPrice')}>{money(line.unitPriceCents)}</td>
									<td className="numeric" data-label={t('offerTerms.amount')}>{money(line.totalCents)}</td>
								</tr>
							))}
						</tbody>
					</table>
					<dl className="offer-terms__sums">
						{[
							{ label: t('offerTerms.labour'), cents: offer.labourCents },
							{ label: t('offerTerms.part'), cents: offer.partsCents },
							{ label: t('offerTerms.fee'), cents: offer.feesCents },
						]
							.filter((sum) => sum.cents)
							.map((sum) => (
								<div key={sum.label}>
									<dt>{sum.label}</dt>
									<dd>{money(sum.cents!)}</dd>
								</div>
							))}
						<div>
							<dt>{t('offerTerms.net')}</dt>
							<dd>{money(offer.priceCents - (offer.vatCents ?? 0))}</dd>
						</div>
						<div>
							<dt>{t('offerTerms.vat', { rate: VAT_PERCENT })}</dt>
							<dd>{money(offer.vatCents ?? 0)}</dd>
						</div>
						<div className="offer-terms__total">
							<dt>{t('offerTerms.total')}</dt>
							<dd>{money(offer.priceCents)}</dd>
						</div>
					</dl>
					<p className="item__meta">{t(offer.vatMode === 'included' ? 'offerTerms.vatIncluded' : 'offerTerms.vatAdded')}</p>
				</div>
			) : null}
			{when.length ? (
				<dl className="offer-terms__when">
					{when.map((row) => (
						<div key={row.label}>
							<dt>{row.label}</dt>
							<dd>{row.value}</dd>
						</div>
					))}
				</dl>
			) : null}
		</>
	)
}

/** Minutes in the bay as hours and minutes ("1 h 30 min"). */
export function bayTime(t: (key: string, params?: Record<string, unknown>) => string, minutes: number): string {
	const hours = Math.floor(minutes / 60)
	const rest = minutes % 60
	if (!hours) return t('booking:offerTimes.minutes', { minutes: rest })
	return rest ? t('booking:offerTimes.hoursMinutes', { hours, minutes: rest }) : t('booking:offerTimes.hours', { hours })
}
