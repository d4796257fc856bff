import { type LoaderFunctionArgs } from 'react-router'
import { Link, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { PageHeader } from '~/components/page-header'
import { getFigures } from '~/domain/admin/stats.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireUser } from '~/utils/auth.server'
import { formatDate, formatMoney, formatMonth, formatNumber } from '~/utils/format'
import { routeMeta } from '~/utils/meta'

export async function loader({ request }: LoaderFunctionArgs) {
	await requireUser(request, { role: 'admin' })
	const t = getFixedT(await getLanguage(request), 'admin')
	return { meta: { title: t('overview.title') }, figures: await getFigures() }
}

export const meta = routeMeta<typeof loader>()

export default function AdminOverviewPage() {
	const { t } = useTranslation('admin')
	const language = useLanguage()
	const { figures } = useLoaderData<typeof loader>()
	const { totals } = figures
	const cards = [
		{ key: 'customers', value: formatNumber(totals.customers, language) },
		{ key: 'workshops', value: formatNumber(totals.workshops, language) },
		{ key: 'requests', value: formatNumber(totals.requests, language) },
		{ key: 'offers', value: formatNumber(totals.offers, language) },
		{ key: 'revenue', value: formatMoney(totals.revenueCents, language) },
	] as const
	return (
		<>
			<PageHeader title={t('overview.title')} subtitle={t('overview.subtitle')} />
			<ul className="admin-stats">
				{cards.map((card) => (
					<li key={card.key}>
						<span className="admin-stats__value">{card.value}</span>
						{t(`overview.totals.${card.key}`)}
					</li>
				))}
				<li>
					<span className="admin-stats__value">{formatNumber(totals.openMessages, language)}</span>
					<Link to="/admin/messages">{t('overview.totals.openMessages')}</Link>
				</li>
			</ul>
			<div className="admin-grid admin-grid--wide">
				<FiguresTable
					id="months-title"
					title={t('overview.monthsTitle')}
					columns={[t('overview.month'), t('overview.newUsers'), t('overview.totals.requests'), t('overview.totals.offers'), t('overview.totals.revenue')]}
				>
					{figures.months.map((row) => (
						<tr key={row.month}>
							<th scope="row">{formatMonth(row.month, language)}</th>
							<td className="table__number">{formatNumber(row.users, language)}</td>
							<td className="table__number">{formatNumber(row.requests, language)}</td>
							<td className="table__number">{formatNumber(row.offers, language)}</td>
							<td className="table__number">{formatMoney(row.revenueCents, language)}</td>
						</tr>
					))}
				</FiguresTable>
				<FiguresTable id="visits-title" title={t('overview.visitsTitle')} columns={[t('overview.day'), t('overview.visitors')]}>
					{figures.visits.map((row) => (
						<tr key={row.day}>
							<th scope="row">{formatDate(`${row.day}T12:00:00Z`, language)}</th>
							<td className="table__number">{formatNumber(row.visitors, language)}</td>
						</tr>
					))}
				</FiguresTable>
			</div>
		</>
	)
}

/** A card with a table of figures: the first column names the row, the others are numbers. */
function FiguresTable({ id, title, columns: [first, ...figures], children }: { id: string; title: string; columns: string[]; children: React.ReactNode }) {
	return (
		<section className="card" aria-labelledby={id}>
			<h2 id={id}>{title}</h2>
			{/* Scrolls sideways on a phone: focusable, so a keyboard can scroll it too (axe: scrollable-region-focusable). */}
			{/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
			<div className="admin-table-wrap" tabIndex={0} role="region" aria-labelledby={id}>
				<table className="table">
					<thead>
						<tr>
							<th scope="col">{first}</th>
							{figures.map((label) => (
								<th key={label} scope="col" className="table__number">
									{label}
								</th>
							))}
						</tr>
					</thead>
					<tbody>{children}</tbody>
				</table>
			</div>
		</section>
	)
}
