import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ButtonLink } from '~/components/button-link'
import { ChatLink } from '~/components/chat'
import { ExtraWorkAnswerForm, ExtraWorkList } from '~/components/extra-work'
import { PageHeader } from '~/components/page-header'
import { Fact, Panel } from '~/components/panel'
import { UploadedImage } from '~/components/responsive-image'
import { StatusBadge } from '~/components/status-badge'
import { StepIndicator } from '~/components/step-indicator'
import { Timeline } from '~/components/timeline'
import { bindingTotalCents } from '~/domain/service-flow/extra-work'
import { ExtraWorkAnswerSchema } from '~/domain/service-flow/extra-work-schema'
import { listExtraWork } from '~/domain/service-flow/extra-work.server'
import { answerExtraWork } from '~/domain/service-flow/moves.server'
import { getCustomerRequest, getWorkshopContact } from '~/domain/service-flow/requests.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { formatDateTime, formatMoney } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { encodeId } from '~/utils/public-id'
import { readForm } from '~/utils/multipart.server'
import { handleDomainError, idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'
import { canExtraWork, canRequest, requestPhase } from '~/domain/service-flow/status'

export async function loader({ request, params }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const language = await getLanguage(request)
	const detail = await or404(getCustomerRequest(user.id, idParam(params.slug), language))
	const slug = encodeId(detail.id)
	// Step 3 needs a selected offer (spec §4): without one, back to step 2.
	if (!detail.selectedOffer) {
		throw await redirectWithToast(`/compaire-offers/${slug}`, { type: 'warning', key: 'customer:progress.selectFirst' }, { request })
	}
	const [workshop, extraWork] = await Promise.all([getWorkshopContact(detail.selectedOffer.workshopId, language), listExtraWork(detail.selectedOffer.id)])
	const t = getFixedT(language, 'customer')
	return {
		meta: { title: t('progress.title') },
		slug,
		request: detail,
		extraWork,
		workshop: { ...workshop, slug: encodeId(workshop.id) },
	}
}


/** The customer approves or declines a request for extra work (issue 19). */
export async function action({ request, params }: ActionFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const requestId = idParam(params.slug)
	const here = `/work-progress/${encodeId(requestId)}#extra-work`
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const parsed = ExtraWorkAnswerSchema.safeParse(Object.fromEntries(formData))
	if (!parsed.success) throw new Response('Not found', { status: 404 })
	try {
		await or404(answerExtraWork(user.id, requestId, parsed.data.extraWork, parsed.data.intent))
	} catch (error) {
		return handleDomainError(error, { as: 'toast', redirectTo: here, request })
	}
	return redirectWithToast(
		here,
		{
			type: 'success',
			key: parsed.data.intent === 'approve' ? 'customer:extraWork.approved' : 'customer:extraWork.declined',
		},
		{ request },
	)
}

export const meta = routeMeta<typeof loader>()

export default function WorkProgressPage() {
	const { t } = useTranslation('customer')
	const language = useLanguage()
	const { request, workshop, slug, extraWork } = useLoaderData<typeof loader>()
	const offer = request.selectedOffer!
	const completed = requestPhase(request.status) === 'done'
	const waiting = extraWork.filter((item) => canExtraWork('approve', item.status, 'customer')).length
	return (
		<>
			<PageHeader title={t('progress.title')} subtitle={`${request.services.join(', ')} · ${request.vehicle.name} · ${request.vehicle.registrationNumber}`} />
			<StepIndicator current={completed ? 4 : 3} />
			<div className="detail-grid">
				<div className="stack">
					<Panel id="progress-workshop" title={t('progress.workshop')}>
						<div className="workshop-contact">
							{workshop.logoUploadId ? (
								<UploadedImage id={workshop.logoUploadId} image={workshop.logoImage} alt="" sizes="64px" width={64} height={64} className="offer-card__logo" />
							) : null}
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
								<ChatLink
									partner={{
										id: offer.workshopUserId,
										name: workshop.workshopName,
									}}
									requestSlug={slug}
								/>
							</div>
						</div>
						<dl className="facts">
							<Fact className="facts__row" label={t('progress.status')}>
								<StatusBadge kind="request" status={request.status} />
							</Fact>
							<Fact className="facts__row" label={t('progress.offerPrice')}>
								{formatMoney(offer.priceCents, language)}
							</Fact>
							{offer.approvedExtraCents ? (
								<Fact className="facts__row" label={t('common:extraWork.bindingTotal')}>
									<strong>{formatMoney(bindingTotalCents(offer), language)}</strong>
									<span className="facts__more">{t('common:extraWork.bindingTotalHelp')}</span>
								</Fact>
							) : null}
							<Fact className="facts__row" label={t('progress.finalPrice')}>
								{offer.finalPriceCents !== null ? <strong>{formatMoney(offer.finalPriceCents, language)}</strong> : t('progress.finalPriceLater')}
							</Fact>
							<Fact className="facts__row" label={t('request.preferredAt')}>
								{formatDateTime(request.preferredAt, language)}
							</Fact>
						</dl>
						{completed ? (
							<div className="call-to-action">
								<p>{request.review ? t('progress.reviewed') : t('progress.completedText')}</p>
								<ButtonLink to={request.review ? `/service-details/${slug}` : `/leave-feedback/${slug}`} kind="accent">
									{t(request.review ? 'progress.seeService' : 'progress.leaveFeedback')}
								</ButtonLink>
							</div>
						) : (
							<p className="notice">
								{t('progress.inProgressText', {
									workshop: workshop.workshopName,
								})}
							</p>
						)}
						{waiting ? (
							<p className="notice notice--warning">
								<a href="#extra-work">{t('progress.extraWorkWaiting', { count: waiting })}</a>
							</p>
						) : null}
					</Panel>
					{extraWork.length ? (
						<Panel id="extra-work" title={t('common:extraWork.title')}>
							<p className="item__meta">{t('progress.extraWorkText')}</p>
							<ExtraWorkList
								items={extraWork}
								viewer="customer"
								actions={(item, headingId) =>
									canExtraWork('approve', item.status, 'customer') && canRequest('answerExtraWork', request.status) ? <ExtraWorkAnswerForm item={item} headingId={headingId} /> : null
								}
							/>
						</Panel>
					) : null}
				</div>
				<Panel as="aside" id="progress-timeline" title={t('requestDetails.timeline')}>
					<Timeline events={request.events} />
				</Panel>
			</div>
		</>
	)
}
