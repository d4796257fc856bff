import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { PageHeader } from '~/components/page-header'
import { listOpenRequests, offerAllowance } from '~/domain/bids.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { type RootLoaderData } from '~/root'
import { formatDateTime } from '~/utils/format'
import { pageMeta } from '~/utils/meta'
import { encodeId } from '~/utils/public-id'
import { requireWorkshop } from '~/utils/route-helpers.server'

export async function loader({ request }: LoaderFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const language = await getLanguage(request)
	const url = new URL(request.url)
	const page = Math.min(1000, Math.max(1, Number(url.searchParams.get('page')) || 1))
	const includeBidOn = url.searchParams.get('show') === 'all'
	const [{ items, hasMore }, allowance] = await Promise.all([
		listOpenRequests(actor.workshopId, language, { page, includeBidOn }),
		offerAllowance(actor.workshopId),
	])
	const t = getFixedT(language, 'workshop')
	return { meta: { title: t('requests.title') }, page, hasMore, includeBidOn, allowance, requests: items.map((r) => ({ ...r, slug: encodeId(r.id) })) }
}

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) =>
	pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname)

export default function CustomerRequestsPage() {
	const { t } = useTranslation('workshop')
	const language = useLanguage()
	const { requests, page, hasMore, includeBidOn, allowance } = useLoaderData<typeof loader>()
	const query = (next: number) => `?${new URLSearchParams({ ...(includeBidOn ? { show: 'all' } : {}), page: String(next) })}`
	return (
		<>
			<PageHeader title={t('requests.title')} subtitle={t('requests.subtitle')} />
			{allowance.limit !== null ? (
				<p className="notice">
					{t('offer.allowance', { used: allowance.used, limit: allowance.limit })} <Link to="/subscription">{t('offer.upgrade')}</Link>
				</p>
			) : null}
			<nav className="filter-tabs" aria-label={t('requests.filterLabel')}>
				<ul>
					<li>
						<Link to="?" className={includeBidOn ? undefined : 'active'} aria-current={includeBidOn ? undefined : 'page'}>
							{t('requests.notYetBid')}
						</Link>
					</li>
					<li>
						<Link to="?show=all" className={includeBidOn ? 'active' : undefined} aria-current={includeBidOn ? 'page' : undefined}>
							{t('requests.allOpen')}
						</Link>
					</li>
				</ul>
			</nav>
			{requests.length ? (
				<ul className="item-list panel">
					{requests.map((request) => (
						<li key={request.id} className="item">
							<div className="item__main">
								<p className="item__title">
									<Link to={`/customer-request-details/${request.slug}`}>{request.services.join(', ')}</Link>
								</p>
								<p className="item__meta">{[request.vehicle, request.year, request.city ?? request.location].filter(Boolean).join(' · ')}</p>
								<p className="item__meta">
									{t('requests.wanted', { date: formatDateTime(request.preferredAt, language) })}
									{request.imageCount ? ` · ${t('requests.photos', { count: request.imageCount })}` : null}
								</p>
							</div>
							<div className="item__side">
								<p className="item__meta">{t('requestPage.offersSoFar', { count: request.offerCount })}</p>
								<Link to={`/customer-request-details/${request.slug}`} className={`button button--small ${request.myOfferId ? 'button--ghost' : 'button--primary'}`}>
									{request.myOfferId ? t('requests.seeMyOffer') : t('requests.makeOffer')}
								</Link>
							</div>
						</li>
					))}
				</ul>
			) : (
				<p className="empty">{t('common:empty.noData')}</p>
			)}
			{page > 1 || hasMore ? (
				<nav className="pager" aria-label={t('requests.pages')}>
					{page > 1 ? (
						<Link to={query(page - 1)} className="button button--ghost">
							{t('requests.previous')}
						</Link>
					) : null}
					{hasMore ? (
						<Link to={query(page + 1)} className="button button--ghost">
							{t('requests.next')}
						</Link>
					) : null}
				</nav>
			) : null}
		</>
	)
}
