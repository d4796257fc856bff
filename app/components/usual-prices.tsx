import { useTranslation } from '~/i18n/translation'
import { type OfferRange, type ShownRange, type UsualPrices } from '~/domain/pricing/usual-prices'

/**
 * The usual price of each service chosen on the request form (issue 35, decision 0149), for the
 * vehicle's class in the city's county: "usually €140 – €210 (median €170; …)", or that there are
 * not enough jobs yet. Never a figure the server did not send. `children`: the way to ask for them
 * without JavaScript (a button of the form).
 */
export function UsualPricesBox({ prices, busy, children }: { prices: UsualPrices | null; busy?: boolean; children?: React.ReactNode }) {
	const { t } = useTranslation('customer')
	return (
		<section className="usual-prices" aria-labelledby="usual-prices-title" aria-busy={busy || undefined}>
			<h2 id="usual-prices-title" className="usual-prices__title">
				{t('usualPrices.title')}
			</h2>
			{/* Polite: said once the choices settle, not on every tick. */}
			<div aria-live="polite">
				{!prices ? (
					<p className="usual-prices__note">{t('usualPrices.chooseFirst')}</p>
				) : !prices.cityChosen ? (
					<p className="usual-prices__note">{t('usualPrices.chooseCity')}</p>
				) : !prices.county ? (
					<p className="usual-prices__note">{t('usualPrices.noCounty')}</p>
				) : (
					<>
						<p className="usual-prices__for">
							{t('usualPrices.for', { vehicleClass: t(`common:vehicleClass.${prices.vehicleClass}`), county: t(`common:county.${prices.county}`) })}
						</p>
						<ul className="usual-prices__list">
							{prices.services.map((service) => (
								<li key={service.id}>
									<strong>{service.name}:</strong> {service.range ? <RangeText range={service.range} /> : <span className="usual-prices__none">{t('usualPrices.none')}</span>}
								</li>
							))}
						</ul>
						<p className="field__help">{t('usualPrices.help')}</p>
					</>
				)}
			</div>
			{children}
		</section>
	)
}

function RangeText({ range }: { range: ShownRange }) {
	const { t } = useTranslation('customer')
	return (
		<>
			<Unbroken text={t('usualPrices.usually', { range: range.range })} part={range.range} className="usual-prices__range" />{' '}
			<span className="usual-prices__basis">
				{t('usualPrices.basis', {
					median: range.median,
					jobs: t('usualPrices.jobs', { count: range.jobs }),
					workshops: t('usualPrices.workshops', { count: range.workshops }),
					period: range.period,
				})}
			</span>
		</>
	)
}

/** Beside an offer's total: within, below or above the usual range there (only where there is one). */
export function UsualRangeVerdict({ usual }: { usual: OfferRange }) {
	const { t } = useTranslation('customer')
	return (
		<p className={`range-verdict range-verdict--${usual.verdict}`}>
			<Unbroken text={t(`usualPrices.verdict.${usual.verdict}`, { range: usual.range })} part={usual.range} className="range-verdict__range" />
		</p>
	)
}

/** A translated text with the range it names kept on one line (a line may end after Intl's dash otherwise). */
function Unbroken({ text, part, className }: { text: string; part: string; className: string }) {
	const at = text.indexOf(part)
	if (at < 0) return <>{text}</>
	return (
		<>
			{text.slice(0, at)}
			<span className={className}>{part}</span>
			{text.slice(at + part.length)}
		</>
	)
}
