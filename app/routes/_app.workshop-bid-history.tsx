import { type LoaderFunctionArgs } from 'react-router'
import { Link, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { FilterTabs, Item, ListOrEmpty } from '~/components/item-list'
import { PageHeader } from '~/components/page-header'
import { StatusBadge } from '~/components/status-badge'
import { listBids } from '~/domain/service-flow/offers.server'
import { bidFilters, type BidFilter } from '~/domain/service-flow/offers'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireWorkshop } from '~/utils/auth.server'
import { formatDate, formatMoney } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { encodeId } from '~/utils/public-id'
import { isOfferDecided } from '~/domain/service-flow/status'

export async function loader({ request }: LoaderFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const language = await getLanguage(request)
	const asked = new URL(request.url).searchParams.get('status')
	const filter: BidFilter = (bidFilters as readonly string[]).includes(asked ?? '') ? (asked as BidFilter) : 'all'
	const t = getFixedT(language, 'workshop')
	const bids = await listBids(actor.workshopId, language, filter)
	return { meta: { title: t('bids.title') }, filter, bids: bids.map((bid) => ({ ...bid, slug: encodeId(bid.id) })) }
}

export const meta = routeMeta<typeof loader>()

export default function BidHistoryPage() {
	const { t } = useTranslation('workshop')
	const language = useLanguage()
	const { bids, filter } = useLoaderData<typeof loader>()
	return (
		<>
			<PageHeader title={t('bids.title')} subtitle={t('bids.subtitle')} />
			<FilterTabs
				label={t('bids.filterLabel')}
				tabs={bidFilters.map((option) => ({
					to: `?status=${option}`,
					label: option === 'all' ? t('bids.all') : t(`common:status.offer.${option}`),
					current: option === filter,
				}))}
			/>
			<ListOrEmpty items={bids} empty={t('common:empty.noData')} className="item-list panel">
				{(bid) => (
					<Item
						key={bid.id}
						title={<Link to={`/workshop-bid-details/${bid.slug}`}>{bid.services.join(', ')}</Link>}
						side={
							<>
								{/* The offer's own label, and the request's while it is still deciding (Offer / Pending). */}
								<StatusBadge kind="offer" status={bid.status} />
								{bid.instant ? <span className="badge badge--instant">{t('common:instantOffer.badge')}</span> : null}
								{!isOfferDecided(bid.status) ? <StatusBadge kind="request" status={bid.requestStatus} /> : null}
								<p className="item__highlight">{formatMoney(bid.finalPriceCents ?? bid.priceCents, language)}</p>
							</>
						}
					>
						<p className="item__meta">
							{bid.vehicle} · {bid.customerFirstName} · {t('bids.madeOn', { date: formatDate(bid.createdAt, language) })}
						</p>
					</Item>
				)}
			</ListOrEmpty>
		</>
	)
}
