import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { PageHeader } from '~/components/page-header'
import { StatusBadge } from '~/components/status-badge'
import { listBids } from '~/domain/bids.server'
import { bidFilters, type BidFilter } from '~/domain/offers'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { type RootLoaderData } from '~/root'
import { formatDate, formatMoney } from '~/utils/format'
import { pageMeta } from '~/utils/meta'
import { encodeId } from '~/utils/public-id'
import { requireWorkshop } from '~/utils/route-helpers.server'

export async function loader({ request }: LoaderFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const language = await getLanguage(request)
	const asked = new URL(request.url).searchParams.get('status')
	const filter: BidFilter = (bidFilters as readonly string[]).includes(asked ?? '') ? (asked as BidFilter) : 'all'
	const t = getFixedT(language, 'workshop')
	const bids = await listBids(actor.workshopId, language, filter)
	return { meta: { title: t('bids.title') }, filter, bids: bids.map((bid) => ({ ...bid, slug: encodeId(bid.id) })) }
}

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) =>
	pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname)

export default function BidHistoryPage() {
	const { t } = useTranslation('workshop')
	const language = useLanguage()
	const { bids, filter } = useLoaderData<typeof loader>()
	return (
		<>
			<PageHeader title={t('bids.title')} subtitle={t('bids.subtitle')} />
			<nav className="filter-tabs" aria-label={t('bids.filterLabel')}>
				<ul>
					{bidFilters.map((option) => (
						<li key={option}>
							<Link to={`?status=${option}`} className={option === filter ? 'active' : undefined} aria-current={option === filter ? 'page' : undefined}>
								{option === 'all' ? t('bids.all') : t(`common:status.offer.${option}`)}
							</Link>
						</li>
					))}
				</ul>
			</nav>
			{bids.length ? (
				<ul className="item-list panel">
					{bids.map((bid) => (
						<li key={bid.id} className="item">
							<div className="item__main">
								<p className="item__title">
									<Link to={`/workshop-bid-details/${bid.slug}`}>{bid.services.join(', ')}</Link>
								</p>
								<p className="item__meta">
									{bid.vehicle} · {bid.customerFirstName} · {t('bids.madeOn', { date: formatDate(bid.createdAt, language) })}
								</p>
							</div>
							<div className="item__side">
								{/* The offer's own label, and the request's while it is still deciding (Offer / Pending). */}
								<StatusBadge kind="offer" status={bid.status} />
								{bid.status === 'pending' ? <StatusBadge kind="request" status={bid.requestStatus} /> : null}
								<p className="item__highlight">{formatMoney(bid.finalPriceCents ?? bid.priceCents, language)}</p>
							</div>
						</li>
					))}
				</ul>
			) : (
				<p className="empty">{t('common:empty.noData')}</p>
			)}
		</>
	)
}
