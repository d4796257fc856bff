import { type Insights, type PartnerFigures } from '~/domain/insights/insights'
import { type Language } from '~/i18n/config'
import { useTranslation } from '~/i18n/translation'
import { useLanguage } from '~/i18n/use-language'
import { formatMonth, formatNumber, formatRating } from '~/utils/format'
import { dateTimeFormat, numberFormat } from '~/utils/intl'
import { formatMoney } from '~/utils/money'

/**
 * The growth page's parts (issue 37, decision 0155): figures as cards, the comparison with the
 * package's cost, the rating month by month (a table; its bars are drawn beside the numbers and
 * hidden from screen readers, which read the numbers), the partner sites.
 */

const DAY_IN_RANGE = { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' } as const

/** Two calendar days ('YYYY-MM-DD') as Intl writes a range: "31 Oct – 29 Nov 2026", "31. okt – 29. nov 2026" (the period's days). */
export function formatDayRange(fromDay: string, toDay: string, language: Language) {
	const [from, to] = [fromDay, toDay].map((day) => new Date(`${day}T12:00:00Z`)) as [Date, Date]
	return dateTimeFormat(language, DAY_IN_RANGE).formatRange(from, to)
}

/** Minutes as a reader would say them: "45 minutes", "3.5 hours", "2 days" (Intl's units, plurals included). */
export function formatDuration(minutes: number, language: Language) {
	const [value, unit] = minutes < 60 ? [Math.round(minutes), 'minute'] : minutes < 48 * 60 ? [minutes / 60, 'hour'] : [minutes / (24 * 60), 'day']
	return numberFormat(language, { style: 'unit', unit, unitDisplay: 'long', maximumFractionDigits: 1 }).format(value)
}

const formatPercent = (share: number, language: Language) => numberFormat(language, { style: 'percent', maximumFractionDigits: 0 }).format(share)

function Card({ label, value, detail }: { label: string; value: string; detail?: string | null }) {
	return (
		<li className="stat">
			<span className="stat__value">{value}</span>
			<span className="stat__label">{label}</span>
			{detail ? <span className="stat__detail">{detail}</span> : null}
		</li>
	)
}

/** The cards of one panel: who saw the workshop, or what reached it and what it won. */
export function FigureCards({ insights: f, part }: { insights: Insights; part: 'seen' | 'work' }) {
	const { t } = useTranslation('workshop')
	const language = useLanguage()
	const n = (value: number) => formatNumber(value, language)
	if (part === 'seen') {
		return (
			<ul className="stats insights__cards">
				<Card
					label={t('insights.seen.views')}
					value={n(f.profileViews.total)}
					detail={t('insights.seen.viewsSplit', { portal: n(f.profileViews.portal), widgets: n(f.profileViews.widgets) })}
				/>
				<Card label={t('insights.seen.appearances')} value={n(f.searchAppearances)} detail={t('insights.seen.appearancesHelp')} />
			</ul>
		)
	}
	return (
		<ul className="stats insights__cards">
			<Card label={t('insights.work.matched')} value={n(f.requestsMatched)} detail={t('insights.work.matchedHelp')} />
			<Card label={t('insights.work.made')} value={n(f.offersMade)} detail={f.offersWaiting ? t('insights.work.waiting', { count: n(f.offersWaiting) }) : null} />
			<Card
				label={t('insights.work.won')}
				value={n(f.offersWon)}
				detail={f.winRate === null ? t('insights.work.noChoicesYet') : t('insights.work.winRate', { rate: formatPercent(f.winRate, language) })}
			/>
			<Card
				label={t('insights.work.response')}
				value={f.responseMinutes === null ? '–' : formatDuration(f.responseMinutes, language)}
				detail={t('insights.work.responseHelp')}
			/>
			<Card label={t('insights.work.revenue')} value={formatMoney(f.revenueCents, language)} detail={t('insights.work.jobs', { count: n(f.jobsCompleted) })} />
		</ul>
	)
}

/** "The Pro package cost €29.00; jobs won through Autohub paid €1,754.00." and what each euro brought. */
export function CostComparison({ insights: f }: { insights: Insights }) {
	const { t } = useTranslation('workshop')
	const language = useLanguage()
	const { cost } = f
	const revenue = formatMoney(f.revenueCents, language)
	const sentence =
		cost.costCents === 0
			? cost.current?.free
				? t('insights.compare.free', { revenue, package: cost.current.name })
				: t('insights.compare.nothingPaid', { revenue })
			: cost.packages.length === 1
				? t('insights.compare.paid', { package: cost.packages[0], cost: formatMoney(cost.costCents, language), revenue })
				: t('insights.compare.paidSeveral', { cost: formatMoney(cost.costCents, language), revenue })
	return (
		<>
			<p className="insights__verdict">{sentence}</p>
			{cost.costCents > 0 && f.revenueCents > 0 ? (
				<p className="insights__ratio">{t('insights.compare.perEuro', { amount: formatMoney(Math.round((f.revenueCents / cost.costCents) * 100), language) })}</p>
			) : null}
			<p className="insights__note">{t('insights.compare.note')}</p>
		</>
	)
}

/** The rating month by month: a table, each average with a bar out of five stars beside it. */
export function RatingChart({ rating }: { rating: Insights['rating'] }) {
	const { t } = useTranslation('workshop')
	const language = useLanguage()
	return (
		<>
			<p className="insights__lead">
				{rating.average === null
					? t('insights.rating.none')
					: t('insights.rating.summary', { rating: formatRating(rating.average, language), count: formatNumber(rating.reviews, language) })}
			</p>
			<div className="insights__table-wrap">
				<table className="table insights__rating">
					<caption className="visually-hidden">{t('insights.rating.caption')}</caption>
					<thead>
						<tr>
							<th scope="col">{t('insights.rating.month')}</th>
							<th scope="col">{t('insights.rating.average')}</th>
							<th scope="col" className="table__number">
								{t('insights.rating.reviews')}
							</th>
						</tr>
					</thead>
					<tbody>
						{rating.months.map((month) => (
							<tr key={month.month}>
								<th scope="row">{formatMonth(month.month, language)}</th>
								<td>
									<span className="insights__bar-cell">
										<svg className="insights__bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false">
											<rect className="insights__bar-track" width="100" height="10" rx="2" />
											{month.average === null ? null : <rect className="insights__bar-fill" width={(month.average / 5) * 100} height="10" rx="2" />}
										</svg>
										<span>{month.average === null ? '–' : formatRating(month.average, language)}</span>
									</span>
								</td>
								<td className="table__number">{formatNumber(month.reviews, language)}</td>
							</tr>
						))}
					</tbody>
				</table>
			</div>
		</>
	)
}

/** Which partner sites sent people: views, appearances and requests through each. */
export function PartnerTable({ partners }: { partners: PartnerFigures[] }) {
	const { t } = useTranslation('workshop')
	const language = useLanguage()
	if (!partners.length) return <p className="empty">{t('insights.partners.none')}</p>
	const n = (value: number) => formatNumber(value, language)
	return (
		<div className="insights__table-wrap">
			<table className="table insights__partners">
				<caption className="visually-hidden">{t('insights.partners.caption')}</caption>
				<thead>
					<tr>
						<th scope="col">{t('insights.partners.partner')}</th>
						<th scope="col" className="table__number">
							{t('insights.partners.views')}
						</th>
						<th scope="col" className="table__number">
							{t('insights.partners.appearances')}
						</th>
						<th scope="col" className="table__number">
							{t('insights.partners.requests')}
						</th>
					</tr>
				</thead>
				<tbody>
					{partners.map((partner) => (
						<tr key={partner.partnerId}>
							<th scope="row">{partner.name}</th>
							<td className="table__number" data-label={t('insights.partners.views')}>
								{n(partner.profileViews)}
							</td>
							<td className="table__number" data-label={t('insights.partners.appearances')}>
								{n(partner.searchAppearances)}
							</td>
							<td className="table__number" data-label={t('insights.partners.requests')}>
								{n(partner.requests)}
							</td>
						</tr>
					))}
				</tbody>
			</table>
		</div>
	)
}
