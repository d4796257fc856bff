import { type LoaderFunctionArgs } from 'react-router'
import { Link, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { PageHeader } from '~/components/page-header'
import { Fact, Panel } from '~/components/panel'
import { RequestSummary } from '~/components/request-summary'
import { Stars } from '~/components/stars'
import { StatusBadge } from '~/components/status-badge'
import { Timeline } from '~/components/timeline'
import { getCustomerRequest } from '~/domain/service-flow/requests.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireUser } from '~/utils/auth.server'
import { formatDate, formatMoney } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { encodeId } from '~/utils/public-id'
import { idParam, or404 } from '~/utils/route-helpers.server'
import { canRequest } from '~/domain/service-flow/status'

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

export const meta = routeMeta<typeof loader>()

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
					<Panel id="service-work" title={t('serviceDetails.work')}>
						{offer && workshopSlug ? (
							<dl className="facts">
								<Fact className="facts__row" label={t('progress.workshop')}>
									<Link to={`/workshop-details/${workshopSlug}`}>{offer.workshopName}</Link>
								</Fact>
								<Fact className="facts__row" label={t('progress.offerPrice')}>
									{formatMoney(offer.priceCents, language)}
								</Fact>
								<Fact className="facts__row" label={t('serviceDetails.billAmount')}>
									{offer.finalPriceCents !== null ? <strong>{formatMoney(offer.finalPriceCents, language)}</strong> : '–'}
								</Fact>
								{offer.completedAt ? (
									<Fact className="facts__row" label={t('serviceDetails.completedOn')}>
										{formatDate(offer.completedAt, language)}
									</Fact>
								) : null}
							</dl>
						) : (
							<p>{t('serviceDetails.noWorkshop')}</p>
						)}
					</Panel>
					<Panel id="service-review" title={t('serviceDetails.review')}>
						{request.review ? (
							<article className="review">
								<Stars rating={request.review.rating} />
								{request.review.title ? <p className="item__title">{request.review.title}</p> : null}
								<p className="prose-text">{request.review.body}</p>
								{request.review.hiddenReason !== null ? <p className="notice notice--warning">{t('service.reviewHidden', { note: request.review.hiddenReason })}</p> : null}
								{request.review.reply ? (
									<div className="review__reply">
										<p className="item__meta">{t('serviceDetails.reply', { workshop: offer?.workshopName ?? '' })}</p>
										<p className="prose-text">{request.review.reply}</p>
									</div>
								) : null}
							</article>
						) : canRequest('review', request.status) ? (
							<ButtonLink to={`/leave-feedback/${slug}`}>{t('requestDetails.leaveFeedback')}</ButtonLink>
						) : (
							<p className="item__meta">{t('serviceDetails.noReview')}</p>
						)}
					</Panel>
					<Panel id="service-request" title={t('requestDetails.what')}>
						<RequestSummary request={request} />
					</Panel>
				</div>
				<Panel as="aside" id="service-timeline" title={t('requestDetails.timeline')}>
					<Timeline events={request.events} />
				</Panel>
			</div>
		</>
	)
}
