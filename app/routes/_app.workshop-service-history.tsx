import { type LoaderFunctionArgs } from 'react-router'
import { Link, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { PageHeader } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { Stars } from '~/components/stars'
import { workshopServiceHistory } from '~/domain/service-flow/offers.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireWorkshop } from '~/utils/auth.server'
import { formatDate, formatMoney, formatMonth } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { encodeId } from '~/utils/public-id'

export async function loader({ request }: LoaderFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const language = await getLanguage(request)
	const t = getFixedT(language, 'workshop')
	const history = await workshopServiceHistory(actor.workshopId, language)
	return {
		meta: { title: t('history.title') },
		months: history.months.map((m) => ({ ...m, label: formatMonth(m.month, language) })),
		jobs: history.jobs.map((job) => ({ ...job, slug: encodeId(job.offerId) })),
	}
}

export const meta = routeMeta<typeof loader>()

export default function WorkshopServiceHistoryPage() {
	const { t } = useTranslation('workshop')
	const language = useLanguage()
	const { months, jobs } = useLoaderData<typeof loader>()
	return (
		<>
			<PageHeader title={t('history.title')} subtitle={t('history.subtitle')} />
			{jobs.length ? (
				<div className="stack">
					<Panel id="history-months" title={t('history.byMonth')}>
						<table className="table">
							<thead>
								<tr>
									<th scope="col">{t('history.month')}</th>
									<th scope="col" className="table__number">
										{t('history.jobs')}
									</th>
									<th scope="col" className="table__number">
										{t('history.total')}
									</th>
								</tr>
							</thead>
							<tbody>
								{months.map((month) => (
									<tr key={month.month}>
										<th scope="row">{month.label}</th>
										<td className="table__number">{month.jobs}</td>
										<td className="table__number">{formatMoney(month.totalCents, language)}</td>
									</tr>
								))}
							</tbody>
						</table>
					</Panel>
					<Panel id="history-jobs" title={t('history.jobsTitle')}>
						<ul className="item-list">
							{jobs.map((job) => (
								<li key={job.offerId} className="item">
									<div className="item__main">
										<p className="item__title">
											<Link to={`/workshop-bid-details/${job.slug}`}>{job.services.join(', ')}</Link>
										</p>
										<p className="item__meta">
											{job.customer} · {job.vehicle} · {job.registrationNumber} · {formatDate(job.completedAt, language)}
										</p>
									</div>
									<div className="item__side">
										{job.rating ? <Stars rating={job.rating} size="small" /> : null}
										<p className="item__highlight">{formatMoney(job.finalPriceCents, language)}</p>
									</div>
								</li>
							))}
						</ul>
					</Panel>
				</div>
			) : (
				<p className="empty">{t('common:empty.noData')}</p>
			)}
		</>
	)
}
