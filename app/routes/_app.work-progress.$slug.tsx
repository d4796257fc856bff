import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ChatLink } from '~/components/chat'
import { PageHeader } from '~/components/page-header'
import { StatusBadge } from '~/components/status-badge'
import { StepIndicator } from '~/components/step-indicator'
import { Timeline } from '~/components/timeline'
import { getCustomerRequest, getWorkshopContact } from '~/domain/requests.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { type RootLoaderData } from '~/root'
import { requireUser } from '~/utils/auth.server'
import { formatDateTime, formatMoney } from '~/utils/format'
import { pageMeta } from '~/utils/meta'
import { encodeId } from '~/utils/public-id'
import { idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'
import { uploadUrl } from '~/utils/upload-url'

export async function loader({ request, params }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const language = await getLanguage(request)
	const detail = await or404(getCustomerRequest(user.id, idParam(params.slug), language))
	const slug = encodeId(detail.id)
	// Step 3 needs a selected offer (spec §4): without one, back to step 2.
	if (!detail.selectedOffer) {
		throw await redirectWithToast(`/compaire-offers/${slug}`, { type: 'warning', key: 'customer:progress.selectFirst' }, { request })
	}
	const workshop = await getWorkshopContact(detail.selectedOffer.workshopId, language)
	const t = getFixedT(language, 'customer')
	return { meta: { title: t('progress.title') }, slug, request: detail, workshop: { ...workshop, slug: encodeId(workshop.id) } }
}

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) =>
	pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname)

export default function WorkProgressPage() {
	const { t } = useTranslation('customer')
	const language = useLanguage()
	const { request, workshop, slug } = useLoaderData<typeof loader>()
	const offer = request.selectedOffer!
	const completed = request.status === 'completed'
	return (
		<>
			<PageHeader title={t('progress.title')} subtitle={`${request.services.join(', ')} · ${request.vehicle.name} · ${request.vehicle.registrationNumber}`} />
			<StepIndicator current={completed ? 4 : 3} />
			<div className="detail-grid">
				<section className="panel" aria-labelledby="progress-workshop">
					<h2 id="progress-workshop">{t('progress.workshop')}</h2>
					<div className="workshop-contact">
						{workshop.logoUploadId ? <img src={uploadUrl(workshop.logoUploadId, 'thumb')} alt="" width={64} height={64} className="offer-card__logo" /> : null}
						<div>
							<p className="item__title">
								<Link to={`/workshop-details/${workshop.slug}`}>{workshop.workshopName}</Link>
							</p>
							{workshop.address ? <p className="item__meta">{workshop.address}</p> : null}
							<p className="item__meta">
								{workshop.phone ? <a href={`tel:${workshop.phone.replace(/\s+/g, '')}`}>{workshop.phone}</a> : null}
								{workshop.phone && workshop.email ? ' · ' : null}
								{workshop.email ? <a href={`mailto:${workshop.email}`}>{workshop.email}</a> : null}
							</p>
							<ChatLink partner={{ id: offer.workshopUserId, name: workshop.workshopName }} />
						</div>
					</div>
					<dl className="facts">
						<div className="facts__row">
							<dt>{t('progress.status')}</dt>
							<dd>
								<StatusBadge kind="request" status={request.status} />
							</dd>
						</div>
						<div className="facts__row">
							<dt>{t('progress.offerPrice')}</dt>
							<dd>{formatMoney(offer.priceCents, language)}</dd>
						</div>
						<div className="facts__row">
							<dt>{t('progress.finalPrice')}</dt>
							<dd>{offer.finalPriceCents !== null ? <strong>{formatMoney(offer.finalPriceCents, language)}</strong> : t('progress.finalPriceLater')}</dd>
						</div>
						<div className="facts__row">
							<dt>{t('request.preferredAt')}</dt>
							<dd>{formatDateTime(request.preferredAt, language)}</dd>
						</div>
					</dl>
					{completed ? (
						<div className="call-to-action">
							<p>{request.review ? t('progress.reviewed') : t('progress.completedText')}</p>
							<Link to={request.review ? `/service-details/${slug}` : `/leave-feedback/${slug}`} className="button button--accent">
								{t(request.review ? 'progress.seeService' : 'progress.leaveFeedback')}
							</Link>
						</div>
					) : (
						<p className="notice">{t('progress.inProgressText', { workshop: workshop.workshopName })}</p>
					)}
				</section>
				<aside className="panel" aria-labelledby="progress-timeline">
					<h2 id="progress-timeline">{t('requestDetails.timeline')}</h2>
					<Timeline events={request.events} />
				</aside>
			</div>
		</>
	)
}
