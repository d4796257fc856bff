import { type LoaderFunctionArgs } from 'react-router'
import { Link, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { FilterTabs, Item, ListOrEmpty } from '~/components/item-list'
import { PageHeader } from '~/components/page-header'
import { OfferAllowanceNotice } from '~/components/offer-allowance'
import { allowanceReached } from '~/domain/billing/allowance'
import { listOpenRequests } from '~/domain/service-flow/offers.server'
import { offerAllowanceNotice } from '~/domain/billing/subscription-page.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireWorkshop } from '~/utils/auth.server'
import { formatDateTime } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { encodeId } from '~/utils/public-id'

export async function loader({ request }: LoaderFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const language = await getLanguage(request)
	const url = new URL(request.url)
	const page = Math.min(1000, Math.max(1, Number(url.searchParams.get('page')) || 1))
	const includeBidOn = url.searchParams.get('show') === 'all'
	const [{ items, hasMore }, allowance] = await Promise.all([
		listOpenRequests(actor.workshopId, language, { page, includeBidOn }),
		offerAllowanceNotice(actor.workshopId, language),
	])
	const t = getFixedT(language, 'workshop')
	return { meta: { title: t('requests.title') }, page, hasMore, includeBidOn, allowance, requests: items.map((r) => ({ ...r, slug: encodeId(r.id) })) }
}

export const meta = routeMeta<typeof loader>()

export default function CustomerRequestsPage() {
	const { t } = useTranslation('workshop')
	const language = useLanguage()
	const { requests, page, hasMore, includeBidOn, allowance } = useLoaderData<typeof loader>()
	const limitReached = allowanceReached(allowance)
	const query = (next: number) => `?${new URLSearchParams({ ...(includeBidOn ? { show: 'all' } : {}), page: String(next) })}`
	return (
		<>
			<PageHeader title={t('requests.title')} subtitle={t('requests.subtitle')} />
			<OfferAllowanceNotice allowance={allowance} />
			<FilterTabs
				label={t('requests.filterLabel')}
				tabs={[
					{ to: '?', label: t('requests.notYetBid'), current: !includeBidOn },
					{ to: '?show=all', label: t('requests.allOpen'), current: includeBidOn },
				]}
			/>
			<ListOrEmpty items={requests} empty={t('common:empty.noData')} className="item-list panel">
				{(request) => (
					<Item
						key={request.id}
						title={<Link to={`/customer-request-details/${request.slug}`}>{request.services.join(', ')}</Link>}
						side={
							<>
								<p className="item__meta">{t('requestPage.offersSoFar', { count: request.offerCount })}</p>
								{/* At the month's limit a request without the workshop's offer leads to the upgrade (issue 32). */}
								{!request.myOfferId && limitReached ? (
									<Link to="/subscription" className="button button--small button--ghost">
										{t('offer.upgradeToAnswer')}
									</Link>
								) : (
									<Link to={`/customer-request-details/${request.slug}`} className={`button button--small ${request.myOfferId ? 'button--ghost' : 'button--primary'}`}>
										{request.myOfferId ? t('requests.seeMyOffer') : t('requests.makeOffer')}
									</Link>
								)}
							</>
						}
					>
						<p className="item__meta">{[request.vehicle, request.year, request.city ?? request.location].filter(Boolean).join(' · ')}</p>
						<p className="item__meta">
							{t('requests.wanted', { date: formatDateTime(request.preferredAt, language) })}
							{request.imageCount ? ` · ${t('requests.photos', { count: request.imageCount })}` : null}
						</p>
					</Item>
				)}
			</ListOrEmpty>
			{page > 1 || hasMore ? (
				<nav className="pager" aria-label={t('requests.pages')}>
					{page > 1 ? (
						<ButtonLink to={query(page - 1)} kind="ghost">{t('requests.previous')}</ButtonLink>
					) : null}
					{hasMore ? (
						<ButtonLink to={query(page + 1)} kind="ghost">{t('requests.next')}</ButtonLink>
					) : null}
				</nav>
			) : null}
		</>
	)
}
