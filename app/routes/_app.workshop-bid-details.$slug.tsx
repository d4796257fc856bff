import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, Link, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ChatLink } from '~/components/chat'
import { ExtraWorkList } from '~/components/extra-work'
import { ExtraWorkForm } from '~/components/extra-work-form'
import { BillDisputeFacts } from '~/components/final-bill'
import { Field, FileField, FormActions, FormAlert, FormSecurity, TextareaField } from '~/components/forms'
import { OfferTerms } from '~/components/offer-terms'
import { PageHeader } from '~/components/page-header'
import { distanceText, fromKm, MAX_MILEAGE } from '~/domain/service-flow/vehicle-kinds'
import { SharedHistoryPanel } from '~/components/service-history'
import { Fact, Panel } from '~/components/panel'
import { RequestSummary } from '~/components/request-summary'
import { StatusBadge } from '~/components/status-badge'
import { Timeline } from '~/components/timeline'
import { getOwnOffer } from '~/domain/service-flow/offers.server'
import { CompleteJobSchema } from '~/domain/service-flow/final-bill-schema'
import { sharedHistory } from '~/domain/service-flow/passport.server'
import { getRequestForWorkshop } from '~/domain/service-flow/requests.server'
import { askForExtraWork, withdrawExtraWork } from '~/domain/service-flow/extra-work-moves.server'
import { completeJob } from '~/domain/service-flow/job-moves.server'
import { bindingTotalCents, MAX_EXTRA_WORK_IMAGES } from '~/domain/service-flow/extra-work'
import { ExtraWorkSchema, WithdrawExtraWorkSchema } from '~/domain/service-flow/extra-work-schema'
import { listExtraWork } from '~/domain/service-flow/extra-work.server'
import { billDisputeOf } from '~/domain/service-flow/final-bill.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireWorkshop } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { formatDate, formatMoney } from '~/utils/format'
import { formatMoneyInput } from '~/utils/money'
import { routeMeta } from '~/utils/meta'
import { readFormUploads, withFormFiles } from '~/uploads/multipart.server'
import { encodeId } from '~/utils/public-id'
import { handleDomainError, idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'
import { uploadUrl } from '~/uploads/upload-url'
import { BookedTimeFact, BookingActions, BookingTimeline } from '~/components/booked-job'
import { isBookingIntent } from '~/domain/booking/booking-moves'
import { bookedJob, bookingFormAnswer } from '~/domain/booking/booked-job.server'
import { canExtraWork, canOffer } from '~/domain/service-flow/status'

export async function loader({ request, params }: LoaderFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const language = await getLanguage(request)
	const offer = await or404(getOwnOffer(actor.workshopId, idParam(params.slug)))
	// Extra work is only ever asked for on the chosen offer's job (issue 19); for any other the list is empty.
	const [detail, extraWork, dispute] = await Promise.all([
		or404(getRequestForWorkshop(actor.workshopId, offer.requestId, language)),
		listExtraWork(offer.id),
		// Only a bill above the binding total (it has a reason) can have been disputed.
		offer.billReason === null ? null : billDisputeOf(offer.id, language),
	])
	const [history, booking] = await Promise.all([sharedHistory(detail, language), bookedJob(offer.id, { freeStarts: true })])
	const t = getFixedT(language, 'workshop')
	return {
		meta: { title: t('bid.title') },
		offer,
		extraWork,
		dispute,
		request: detail,
		requestSlug: encodeId(detail.id),
		history,
		booking,
	}
}

export async function action({ request, params }: ActionFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const offerId = idParam(params.slug)
	const here = `/workshop-bid-details/${encodeId(offerId)}`
	return withFormFiles(request, async (formData) => {
		await validateCsrf(request, formData)
		const intent = formData.get('intent')
		// The booked job's steps, another time, cancelling, a no-show (issue 33).
		if (isBookingIntent(intent)) return bookingFormAnswer({ side: 'workshop', workshop: actor }, intent, formData, here, request)

		if (intent === 'askExtraWork') {
			const submission = parseWithZod(formData, { schema: ExtraWorkSchema })
			const uploads = await readFormUploads(formData, actor.userId, {
				images: { purpose: 'request_image', max: MAX_EXTRA_WORK_IMAGES },
			})
			if (submission.status !== 'success' || !uploads.ok) {
				// A line added or removed without JavaScript (Conform's intents) is no refusal: the form comes back with it.
				const refused = submission.status === 'error' || !uploads.ok
				return data(
					{
						intent,
						result: submission.reply(),
						imageErrors: uploads.errors.images ?? null,
						held: await uploads.hold(),
					},
					{ status: refused ? uploads.status : 200 },
				)
			}
			try {
				await or404(askForExtraWork(actor, offerId, submission.value, uploads.files.images))
			} catch (error) {
				return handleDomainError(error, {
					as: 'form',
					submission,
					data: { intent, imageErrors: null, held: await uploads.hold() },
				})
			}
			return redirectWithToast(`${here}#extra-work`, { type: 'success', key: 'workshop:extraWork.asked' }, { request })
		}

		if (intent === 'withdrawExtraWork') {
			const parsed = WithdrawExtraWorkSchema.safeParse(Object.fromEntries(formData))
			if (!parsed.success) throw new Response('Not found', { status: 404 })
			try {
				await or404(withdrawExtraWork(actor, offerId, parsed.data.extraWork))
			} catch (error) {
				return handleDomainError(error, {
					as: 'toast',
					redirectTo: `${here}#extra-work`,
					request,
				})
			}
			return redirectWithToast(`${here}#extra-work`, { type: 'success', key: 'workshop:extraWork.withdrawn' }, { request })
		}

		const submission = parseWithZod(formData, { schema: CompleteJobSchema })
		const uploads = await readFormUploads(formData, actor.userId, { invoice: { purpose: 'job_invoice', max: 1 } })
		if (submission.status !== 'success' || !uploads.ok)
			return data({ intent, result: submission.reply(), invoiceErrors: uploads.errors.invoice ?? null, held: await uploads.hold() }, { status: uploads.status })
		try {
			const { finalPrice, reason, mileage } = submission.value
			const outcome = await or404(completeJob(actor, offerId, finalPrice, { reason, mileage, invoice: uploads.files.invoice[0] ?? null }))
			return redirectWithToast(here, { type: 'success', key: outcome === 'completed' ? 'workshop:job.completed' : 'workshop:job.billProposed' }, { request })
		} catch (error) {
			return handleDomainError(error, {
				as: 'form',
				submission,
				data: { intent, invoiceErrors: null, held: await uploads.hold() },
			})
		}
	})
}

export const meta = routeMeta<typeof loader>()

export default function BidDetailsPage() {
	const { t } = useTranslation('workshop')
	const language = useLanguage()
	const { offer, extraWork, dispute, request, requestSlug, history, booking } = useLoaderData<typeof loader>()
	const allActionData = useActionData<typeof action>()
	const bookingReply = allActionData && 'startsAtErrors' in allActionData ? allActionData : null
	const actionData = allActionData && 'result' in allActionData ? allActionData : undefined
	const asked = actionData?.intent === 'askExtraWork' && 'imageErrors' in actionData ? actionData : null
	const completing = actionData && actionData.intent !== 'askExtraWork' && 'invoiceErrors' in actionData ? actionData : null
	const inProgress = canOffer('askExtraWork', offer.status)
	const [form, fields] = useForm({
		id: 'complete-job',
		lastResult: actionData?.intent === 'askExtraWork' ? undefined : actionData?.result,
		defaultValue: { finalPrice: formatMoneyInput(bindingTotalCents(offer), language) },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: CompleteJobSchema }),
		shouldRevalidate: 'onInput',
	})
	return (
		<>
			<PageHeader
				title={request.services.join(', ')}
				subtitle={
					<>
						<StatusBadge kind="offer" status={offer.status} />{' '}
						{offer.instant ? <span className="badge badge--instant">{t('common:instantOffer.badge')}</span> : null}
					</>
				}
				actions={<ChatLink partner={{ id: request.customerId, name: request.customerName }} requestSlug={requestSlug} />}
			/>
			<div className="detail-grid">
				<div className="stack">
					<Panel id="bid-offer" title={t('bid.yourOffer')}>
						<dl className="facts">
							<Fact label={t('offer.price')}>{formatMoney(offer.priceCents, language)}</Fact>
							{offer.approvedExtraCents ? <Fact label={t('bid.bindingTotal')}>{formatMoney(bindingTotalCents(offer), language)}</Fact> : null}
							{offer.finalPriceCents !== null ? <Fact label={t('bid.finalPrice')}>{formatMoney(offer.finalPriceCents, language)}</Fact> : null}
							{offer.billReason ? (
								<Fact className="facts__row--wide" valueClassName="prose-text" label={t('job.reason')}>
									{offer.billReason}
								</Fact>
							) : null}
							{offer.mileageAtJob !== null ? (
								<Fact label={t('job.mileage', { unit: t(`unitLabel.${request.vehicle.odometerUnit}`) })}>{distanceText(t, offer.mileageAtJob, request.vehicle.odometerUnit)}</Fact>
							) : null}
							<Fact label={t('bid.madeOn')}>{formatDate(offer.createdAt, language)}</Fact>
							{offer.description ? (
								<Fact className="facts__row--wide" valueClassName="prose-text" label={t('offer.description')}>
									{offer.description}
								</Fact>
							) : null}
							{offer.notes ? (
								<Fact className="facts__row--wide" valueClassName="prose-text" label={t('offer.notes')}>
									{offer.notes}
								</Fact>
							) : null}
						</dl>
						<OfferTerms offer={offer} />
						{offer.attachmentUploadId ? (
							<a href={uploadUrl(offer.attachmentUploadId)} className="button button--ghost button--small" download>
								{t('offer.currentAttachment')}
							</a>
						) : null}
						{offer.invoiceUploadId ? (
							<a href={uploadUrl(offer.invoiceUploadId)} className="button button--ghost button--small" download>
								{t('job.invoiceDownload')}
							</a>
						) : null}
						{canOffer('edit', offer.status) ? (
							<p className="notice">
								{t('bid.pendingNote')} <Link to={`/customer-request-details/${requestSlug}`}>{t('bid.editOffer')}</Link>
							</p>
						) : null}
					</Panel>

					{booking ? (
						<Panel id="booking" title={t('booking:job.title')} className={booking.change?.proposedBy === 'customer' ? 'panel panel--highlight' : 'panel'}>
							<dl className="facts">
								<BookedTimeFact job={booking} />
							</dl>
							<BookingTimeline job={booking} />
							<BookingActions job={booking} viewer="workshop" reply={bookingReply} />
						</Panel>
					) : null}

					{canOffer('completeJob', offer.status) ? (
						<Panel id="bid-job" title={t('job.title')} className="panel panel--highlight">
							<p>{t('job.text')}</p>
							<Form method="post" encType="multipart/form-data" className="form" {...getFormProps(form)}>
								<FormSecurity intent="complete" />
								<FormAlert id={form.errorId} errors={form.errors} />
								<Field
									label={t('job.finalPrice')}
									required
									help={t('job.finalPriceHelp', { binding: formatMoney(bindingTotalCents(offer), language) })}
									inputProps={{
										...getInputProps(fields.finalPrice, { type: 'text' }),
										inputMode: 'decimal',
									}}
									errors={fields.finalPrice.errors}
								/>
								<Field
									label={t('job.mileage', { unit: t(`unitLabel.${request.vehicle.odometerUnit}`) })}
									required
									help={t('job.mileageHelp', { distance: distanceText(t, request.vehicle.mileage, request.vehicle.odometerUnit) })}
									inputProps={{
										...getInputProps(fields.mileage, { type: 'number' }),
										// Typed in the vehicle's odometer unit (decision 0122).
										min: fromKm(request.vehicle.mileage, request.vehicle.odometerUnit),
										max: MAX_MILEAGE,
										inputMode: 'numeric',
									}}
									errors={fields.mileage.errors}
								/>
								<TextareaField
									label={t('job.reason')}
									help={t('job.reasonHelp')}
									textareaProps={{ ...getTextareaProps(fields.reason), rows: 3 }}
									errors={fields.reason.errors}
								/>
								<FileField
									id="complete-job-invoice"
									name="invoice"
									label={t('job.invoice')}
									help={t('job.invoiceHelp')}
									accept="pdf"
									errors={completing?.invoiceErrors}
									held={completing?.held?.invoice}
								/>
								<FormActions submit={t('job.submit')} large />
							</Form>
						</Panel>
					) : null}
					{canOffer('confirmBill', offer.status) ? (
						<Panel id="final-bill" title={t('common:bill.title')} className="panel panel--highlight">
							<p>{t('bill.waiting', { price: formatMoney(offer.finalPriceCents ?? 0, language), binding: formatMoney(bindingTotalCents(offer), language) })}</p>
						</Panel>
					) : null}
					{dispute ? (
						<Panel id="final-bill" title={t('common:bill.title')} className={dispute.decision ? 'panel' : 'panel panel--highlight'}>
							<BillDisputeFacts dispute={dispute} />
						</Panel>
					) : null}

					{inProgress || extraWork.length ? (
						<Panel id="extra-work" title={t('common:extraWork.title')}>
							<ExtraWorkList
								items={extraWork}
								viewer="workshop"
								actions={(item, headingId) =>
									canExtraWork('withdraw', item.status, 'workshop') ? (
										<Form method="post" className="extra-work__answer">
											<FormSecurity intent="withdrawExtraWork" />
											<input type="hidden" name="extraWork" value={item.id} />
											<button type="submit" className="button button--ghost button--small" aria-describedby={headingId}>
												{t('extraWork.withdraw')}
											</button>
										</Form>
									) : null
								}
							/>
							{inProgress ? (
								<>
									<h3 className="panel__subtitle">{t('extraWork.title')}</h3>
									<p>{t('extraWork.text')}</p>
									<ExtraWorkForm vatMode={offer.vatMode} lastResult={asked?.result} imageErrors={asked?.imageErrors} held={asked?.held?.images} />
								</>
							) : null}
						</Panel>
					) : null}

					<Panel id="bid-request" title={t('requestPage.request')}>
						{request.customerEmail ? (
							<p className="notice">
								{t('bid.customer', { name: request.customerName })} <a href={`tel:${request.customerMobile.replace(/\s+/g, '')}`}>{request.customerMobile}</a> ·{' '}
								<a href={`mailto:${request.customerEmail}`}>{request.customerEmail}</a>
							</p>
						) : null}
						<RequestSummary request={request} />
					</Panel>
					<SharedHistoryPanel entries={history} unit={request.vehicle.odometerUnit} />
				</div>
				<Panel as="aside" id="bid-timeline" title={t('bid.timeline')}>
					<Timeline events={request.events} />
				</Panel>
			</div>
		</>
	)
}
