import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { PageHeader } from '~/components/page-header'
import { RequestSummary } from '~/components/request-summary'
import { Stars } from '~/components/stars'
import { StatusBadge } from '~/components/status-badge'
import { Timeline } from '~/components/timeline'
import { getCustomerRequest } from '~/domain/requests.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { type RootLoaderData } from '~/root'
import { requireUser } from '~/utils/auth.server'
import { formatDate, formatMoney } from '~/utils/format'
import { pageMeta } from '~/utils/meta'
import { encodeId } from '~/utils/public-id'
import { idParam, or404 } from '~/utils/route-helpers.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const language = await getLanguage(request)
	const detail = await or404(getCustomerRequest(user.id, idParam(params.slug), language))
	const t = getFixedT(language, 'customer')
	return {
		meta: { title: t('serviceDetails.title', { services: detail.services.join(', ') }) },
		slug: encodeId(detail.id),
		workshopSlug: detail.selectedOffer ? encodeId(detail.selectedOffer.workshopId) : null,
		request: detail,
	}
}

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) =>
	pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname)

export default function ServiceDetailsPage() {
	const { t } = useTranslation('customer')
	const language = useLanguage()
	const { request, slug, workshopSlug } = useLoaderData<typeof loader>()
	const offer = request.selectedOffer
	return (
		<>
			<PageHeader title={request.services.join(', ')} subtitle={<StatusBadge kind="request" status={request.status} />} />
			<div className="detail-grid">
				<div className="stack">
					<section className="panel" aria-labelledby="service-work">
						<h2 id="service-work">{t('serviceDetails.work')}</h2>
						{offer && workshopSlug ? (
							<dl className="facts">
								<div className="facts__row">
									<dt>{t('progress.workshop')}</dt>
									<dd>
										<Link to={`/workshop-details/${workshopSlug}`}>{offer.workshopName}</Link>
									</dd>
								</div>
								<div className="facts__row">
									<dt>{t('progress.offerPrice')}</dt>
									<dd>{formatMoney(offer.priceCents, language)}</dd>
								</div>
								<div className="facts__row">
									<dt>{t('serviceDetails.billAmount')}</dt>
									<dd>{offer.finalPriceCents !== null ? <strong>{formatMoney(offer.finalPriceCents, language)}</strong> : '–'}</dd>
								</div>
								{offer.completedAt ? (
									<div className="facts__row">
										<dt>{t('serviceDetails.completedOn')}</dt>
										<dd>{formatDate(offer.completedAt, language)}</dd>
									</div>
								) : null}
							</dl>
						) : (
							<p>{t('serviceDetails.noWorkshop')}</p>
						)}
					</section>
					<section className="panel" aria-labelledby="service-review">
						<h2 id="service-review">{t('serviceDetails.review')}</h2>
						{request.review ? (
							<article className="review">
								<Stars rating={request.review.rating} />
								{request.review.title ? <p className="item__title">{request.review.title}</p> : null}
								<p className="prose-text">{request.review.body}</p>
								{request.review.reply ? (
									<div className="review__reply">
										<p className="item__meta">{t('serviceDetails.reply', { workshop: offer?.workshopName ?? '' })}</p>
										<p className="prose-text">{request.review.reply}</p>
									</div>
								) : null}
							</article>
						) : request.status === 'completed' ? (
							<Link to={`/leave-feedback/${slug}`} className="button button--primary">
								{t('requestDetails.leaveFeedback')}
							</Link>
						) : (
							<p className="item__meta">{t('serviceDetails.noReview')}</p>
						)}
					</section>
					<section className="panel" aria-labelledby="service-request">
						<h2 id="service-request">{t('requestDetails.what')}</h2>
						<RequestSummary request={request} />
					</section>
				</div>
				<aside className="panel" aria-labelledby="service-timeline">
					<h2 id="service-timeline">{t('requestDetails.timeline')}</h2>
					<Timeline events={request.events} />
				</aside>
			</div>
		</>
	)
}
