import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, Link, useActionData, useLoaderData } from 'react-router'
import { distanceText } from '~/domain/service-flow/vehicle-kinds'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { ChatLink } from '~/components/chat'
import { ExtraWorkAnswerForm, ExtraWorkList } from '~/components/extra-work'
import { BillDisputeFacts, BillFacts } from '~/components/final-bill'
import { FormActions, FormSecurity, TextareaField } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { Fact, Panel } from '~/components/panel'
import { UploadedImage } from '~/components/responsive-image'
import { StatusBadge } from '~/components/status-badge'
import { StepIndicator } from '~/components/step-indicator'
import { Timeline } from '~/components/timeline'
import { bindingTotalCents } from '~/domain/service-flow/extra-work'
import { ExtraWorkAnswerSchema } from '~/domain/service-flow/extra-work-schema'
import { listExtraWork } from '~/domain/service-flow/extra-work.server'
import { MAX_BILL_REASON } from '~/domain/service-flow/final-bill'
import { DisputeBillSchema } from '~/domain/service-flow/final-bill-schema'
import { billDisputeOf } from '~/domain/service-flow/final-bill.server'
import { answerExtraWork } from '~/domain/service-flow/extra-work-moves.server'
import { confirmBill, disputeBill } from '~/domain/service-flow/job-moves.server'
import { getCustomerRequest, getWorkshopContact } from '~/domain/service-flow/requests.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { formatDateTime, formatMoney } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { encodeId } from '~/utils/public-id'
import { readForm } from '~/uploads/multipart.server'
import { handleDomainError, idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'
import { canExtraWork, canOffer, canRequest, isBillOpen, requestPhase } from '~/domain/service-flow/status'
import { BookedTimeFact, BookingActions, BookingTimeline } from '~/components/booked-job'
import { isBookingIntent } from '~/domain/booking/booking-moves'
import { bookedJob, bookingFormAnswer } from '~/domain/booking/booked-job.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const language = await getLanguage(request)
	const detail = await or404(getCustomerRequest(user.id, idParam(params.slug), language))
	const slug = encodeId(detail.id)
	// Step 3 needs a selected offer (spec §4): without one, back to step 2.
	if (!detail.selectedOffer) {
		throw await redirectWithToast(`/compaire-offers/${slug}`, { type: 'warning', key: 'customer:progress.selectFirst' }, { request })
	}
	const [workshop, extraWork, dispute, booking] = await Promise.all([
		getWorkshopContact(detail.selectedOffer.workshopId, language),
		listExtraWork(detail.selectedOffer.id),
		// Only a bill above the binding total (it has a reason) can have been disputed.
		detail.selectedOffer.billReason === null ? null : billDisputeOf(detail.selectedOffer.id, language),
		// Its booked time (issue 33); null: selected without one, the page as before.
		bookedJob(detail.selectedOffer.id, { freeStarts: true }),
	])
	const t = getFixedT(language, 'customer')
	return {
		meta: { title: t('progress.title') },
		slug,
		request: detail,
		extraWork,
		dispute,
		booking,
		workshop: { ...workshop, slug: encodeId(workshop.id) },
	}
}


/**
 * The customer's answers on the job (issue 19): approve or decline a request for extra work;
 * confirm a final bill above the binding total, or dispute it with a reason.
 */
export async function action({ request, params }: ActionFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const requestId = idParam(params.slug)
	const page = `/work-progress/${encodeId(requestId)}`
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const intent = formData.get('intent')
	// The booked time: another one, cancelling, "the workshop did not take my car" (issue 33).
	if (isBookingIntent(intent)) return bookingFormAnswer({ side: 'customer', userId: user.id }, intent, formData, page, request)

	if (intent === 'confirmBill') {
		try {
			await or404(confirmBill(user.id, requestId))
		} catch (error) {
			return handleDomainError(error, { as: 'toast', redirectTo: `${page}#final-bill`, request })
		}
		return redirectWithToast(page, { type: 'success', key: 'customer:bill.confirmed' }, { request })
	}

	if (intent === 'disputeBill') {
		// Without Conform: the customer's page stays light (its one field's errors come from here).
		const reason = String(formData.get('reason') ?? '')
		const parsed = DisputeBillSchema.safeParse({ reason })
		if (!parsed.success) return data({ intent, reason, reasonErrors: parsed.error.issues.map((issue) => issue.message) }, { status: 400 })
		try {
			await or404(disputeBill(user.id, requestId, parsed.data.reason))
		} catch (error) {
			// Not waiting any more (answered a moment ago): the page says so, as it now is.
			return handleDomainError(error, { as: 'toast', redirectTo: `${page}#final-bill`, request })
		}
		return redirectWithToast(`${page}#final-bill`, { type: 'success', key: 'customer:bill.disputed' }, { request })
	}

	const parsed = ExtraWorkAnswerSchema.safeParse(Object.fromEntries(formData))
	if (!parsed.success) throw new Response('Not found', { status: 404 })
	try {
		await or404(answerExtraWork(user.id, requestId, parsed.data.extraWork, parsed.data.intent))
	} catch (error) {
		return handleDomainError(error, { as: 'toast', redirectTo: `${page}#extra-work`, request })
	}
	return redirectWithToast(
		`${page}#extra-work`,
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
	const { request, workshop, slug, extraWork, dispute, booking } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const bookingReply = actionData && 'startsAtErrors' in actionData ? actionData : null
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
								{/* A bill still open is in its own panel: the final price is the one the job was completed at. */}
								{completed && offer.finalPriceCents !== null ? <strong>{formatMoney(offer.finalPriceCents, language)}</strong> : t('progress.finalPriceLater')}
							</Fact>
							{booking ? (
								<BookedTimeFact job={booking} />
							) : (
								<Fact className="facts__row" label={t('request.preferredAt')}>
									{formatDateTime(request.preferredAt, language)}
								</Fact>
							)}
							{/* The warranty the chosen offer promised (issue 32), not the workshop's profile of today. */}
							<Fact className="facts__row" label={t('common:offerTerms.workWarranty')}>
								{offer.warrantyWorkKm ? distanceText(t, offer.warrantyWorkKm, request.vehicle.odometerUnit) : t('common:offerTerms.noWarranty')}
							</Fact>
							<Fact className="facts__row" label={t('common:offerTerms.partsWarranty')}>
								{offer.warrantyPartsMonths ? t('common:offerTerms.months', { count: offer.warrantyPartsMonths }) : t('common:offerTerms.noWarranty')}
							</Fact>
						</dl>
						{completed ? (
							<div className="call-to-action">
								<p>{request.review ? t('progress.reviewed') : t('progress.completedText')}</p>
								<ButtonLink to={request.review ? `/service-details/${slug}` : `/leave-feedback/${slug}`} kind="accent">
									{t(request.review ? 'progress.seeService' : 'progress.leaveFeedback')}
								</ButtonLink>
							</div>
						) : isBillOpen(offer.status) ? null : (
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
						{canOffer('confirmBill', offer.status) ? (
							<p className="notice notice--warning">
								<a href="#final-bill">{t('bill.waiting')}</a>
							</p>
						) : null}
					</Panel>
					{booking ? (
						<Panel id="booking" title={t('booking:job.title')} className={booking.change?.proposedBy === 'workshop' || booking.status === 'ready' ? 'panel panel--highlight' : 'panel'}>
							{booking.status === 'ready' ? <p className="notice notice--ready">{t('booking:job.readyNotice', { workshop: workshop.workshopName })}</p> : null}
							<BookingTimeline job={booking} />
							<BookingActions job={booking} viewer="customer" reply={bookingReply} />
						</Panel>
					) : null}
					{canOffer('confirmBill', offer.status) && offer.finalPriceCents !== null ? (
						<Panel id="final-bill" title={t('common:bill.title')} className="panel panel--highlight">
							<p>{t('bill.text', { workshop: workshop.workshopName })}</p>
							<BillFacts bindingCents={bindingTotalCents(offer)} billedCents={offer.finalPriceCents} billReason={offer.billReason ?? ''} />
							<BillAnswer billedCents={offer.finalPriceCents} />
						</Panel>
					) : null}
					{dispute ? (
						<Panel id="final-bill" title={t('common:bill.title')}>
							<BillDisputeFacts dispute={dispute} />
						</Panel>
					) : null}
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

/**
 * The customer's answer to a bill above the binding total: confirm it (one button), or dispute it
 * with a reason the administrators read (its own form, errors next to the field).
 */
function BillAnswer({ billedCents }: { billedCents: number }) {
	const { t } = useTranslation('customer')
	const language = useLanguage()
	const actionData = useActionData<typeof action>()
	const refused = actionData && 'reasonErrors' in actionData && actionData.intent === 'disputeBill' ? actionData : null
	return (
		<div className="stack">
			<Form method="post" className="form">
				<FormSecurity intent="confirmBill" />
				<button type="submit" className="button button--accent">
					{t('bill.confirm', { price: formatMoney(billedCents, language) })}
				</button>
			</Form>
			<Form method="post" className="form" noValidate>
				<FormSecurity intent="disputeBill" />
				<TextareaField
					label={t('bill.disputeReason')}
					required
					help={t('bill.disputeHelp')}
					textareaProps={{ name: 'reason', defaultValue: refused?.reason, rows: 3, maxLength: MAX_BILL_REASON }}
					errors={refused?.reasonErrors}
				/>
				<FormActions submit={t('bill.dispute')} />
			</Form>
		</div>
	)
}
