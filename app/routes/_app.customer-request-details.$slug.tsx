import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { ChatLink } from '~/components/chat'
import { ConfirmAction } from '~/components/confirm-action'
import { OfferForm } from '~/components/offer-form'
import { PageHeader } from '~/components/page-header'
import { SharedHistoryPanel } from '~/components/service-history'
import { Panel } from '~/components/panel'
import { RequestSummary } from '~/components/request-summary'
import { StatusBadge } from '~/components/status-badge'
import { findOwnOffer, profileWarranty } from '~/domain/service-flow/offers.server'
import { newOfferDefaults, offerFormDefaults, OfferSchema } from '~/domain/service-flow/offers'
import { sharedHistory } from '~/domain/service-flow/passport.server'
import { getRequestForWorkshop } from '~/domain/service-flow/requests.server'
import { deleteOffer, makeOffer, updateOffer } from '~/domain/service-flow/offer-moves.server'
import { offerAllowanceNotice } from '~/domain/billing/subscription-page.server'
import { OfferAllowanceNotice, OfferLimitReached } from '~/components/offer-allowance'
import { allowanceReached } from '~/domain/billing/allowance'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireWorkshop } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { formatDateTime, formatMoney } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { readFormUploads, withFormFiles } from '~/uploads/multipart.server'
import { decodeId, encodeId } from '~/utils/public-id'
import { handleDomainError, idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'
import { canOffer, isOfferDecided, isRequestOpen } from '~/domain/service-flow/status'
import { type AdsHandle } from '~/utils/ad-places'
import { customerRecord } from '~/domain/booking/record.server'
import { CustomerRecordNote } from '~/components/customer-record'
import { VerifiedPerson } from '~/components/verified-person'
import { bookingSettings, freeTimes } from '~/domain/booking/calendar.server'
import { dateToTallinnInput } from '~/utils/time'
import { validityEnd } from '~/domain/booking/offer-times'
import { itemName } from '~/domain/pricing/price-items'
import { draftBookingMinutes, draftFormValues } from '~/domain/pricing/price-list-offers'
import { offerDraft } from '~/domain/pricing/price-list-offers.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const requestId = idParam(params.slug)
	const language = await getLanguage(request)
	const detail = await or404(getRequestForWorkshop(actor.workshopId, requestId, language))
	const [own, allowance, history, warranty, { typicalMinutes }] = await Promise.all([
		findOwnOffer(actor.workshopId, requestId),
		offerAllowanceNotice(actor.workshopId, language),
		sharedHistory(detail, language),
		profileWarranty(actor.workshopId),
		bookingSettings(),
	])
	// Came to N of M booked times (issue 33): from three bookings on.
	const record = await customerRecord(detail.customerId)
	// A new offer is drafted from the workshop's price list when its items fit the request (issue 35).
	const draft = own ? null : await offerDraft(actor.workshopId, requestId, language)
	const draftMinutes = draft ? draftBookingMinutes(draft) : null
	// A new offer's times: the calendar's next free starts for a typical job (issue 33), or the drafted one's; none for a job of days.
	const free =
		draft && draftMinutes === null
			? []
			: await freeTimes(actor.workshopId, { durationMinutes: own?.bookingMinutes ?? draftMinutes ?? typicalMinutes, limit: 3, until: validityEnd(draft?.validUntil) })
	const suggested = { minutes: draftMinutes ?? typicalMinutes, starts: free.map((start) => dateToTallinnInput(start.startsAt)) }
	const t = getFixedT(language, 'workshop')
	return {
		record,
		meta: { title: t('requestPage.title', { services: detail.services.join(', ') }) },
		request: detail,
		own: own ? { ...own, slug: encodeId(own.id), defaults: offerFormDefaults(own, language) } : null,
		allowance,
		history,
		newDefaults: draft ? { ...newOfferDefaults(warranty, suggested), ...draftFormValues(draft, language) } : newOfferDefaults(warranty, suggested),
		drafted: draft ? { items: draft.items, itemSlug: encodeId(draft.itemIds[0]!) } : null,
		// A drafted job of days proposes no times: that is no missing calendar.
		noTimes: free.length === 0 && !(draft && draftMinutes === null),
	}
}

export async function action({ request, params }: ActionFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const requestId = idParam(params.slug)
	const here = `/customer-request-details/${encodeId(requestId)}`
	return withFormFiles(request, async (formData) => {
		await validateCsrf(request, formData)
		const intent = formData.get('intent')
		const own = await findOwnOffer(actor.workshopId, requestId)

		if (intent === 'delete') {
			if (!own) throw new Response('Not found', { status: 404 })
			try {
				await deleteOffer(actor, own.id)
			} catch (error) {
				return handleDomainError(error, { as: 'toast', redirectTo: here, request })
			}
			return redirectWithToast(here, { type: 'success', key: 'workshop:offer.deleted' }, { request })
		}

		const submission = parseWithZod(formData, { schema: OfferSchema })
		const uploads = await readFormUploads(formData, actor.userId, { attachment: { purpose: 'offer_attachment', max: 1 } })
		if (submission.status !== 'success' || !uploads.ok) {
			// A line added or removed without JavaScript (Conform's intents) is no refusal: the form comes back with it.
			const refused = submission.status === 'error' || !uploads.ok
			return data({ intent, result: submission.reply(), attachmentErrors: uploads.errors.attachment ?? null, held: await uploads.hold() }, { status: refused ? uploads.status : 200 })
		}
		const file = uploads.files.attachment[0] ?? null
		try {
			if (intent === 'update') {
				if (!own) throw new Response('Not found', { status: 404 })
				await updateOffer(actor, own.id, submission.value, formData.get('removeAttachment') === 'yes' && !file ? 'remove' : file)
			} else {
				// Drafted from its price list (issue 35): the item is kept only if it is this workshop's (makeOffer).
				const fromItem = decodeId(String(formData.get('priceListItem') ?? '')) ?? undefined
				await or404(makeOffer(actor, requestId, { ...submission.value, priceListItemId: fromItem }, file))
			}
		} catch (error) {
			return handleDomainError(error, { as: 'form', submission, data: { intent, attachmentErrors: null, held: await uploads.hold() } })
		}
		return redirectWithToast(here, { type: 'success', key: intent === 'update' ? 'workshop:offer.updated' : 'workshop:offer.made' }, { request })
	})
}

export const meta = routeMeta<typeof loader>()

// The offer builder (step 2) shows no ads (app/utils/ad-places.ts, decision 0129).
export const handle: AdsHandle = { ads: false }

export default function CustomerRequestPage() {
	const { t } = useTranslation('workshop')
	const language = useLanguage()
	const { request, own, allowance, history, newDefaults, drafted, noTimes, record } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const open = isRequestOpen(request.status)
	// The request expired with this offer and was reopened: the workshop may offer again.
	const renewing = own !== null && open && canOffer('renew', own.status)
	const limitNote = <OfferAllowanceNotice allowance={allowance} />
	// At the month's limit a new offer's form gives way to the upgrade path before any work (issue 32).
	const limitReached = allowanceReached(allowance)
	// The offer builder takes the page's width (issue 32, item 13): the request sits above it.
	const building = open && (renewing || !own || !isOfferDecided(own.status)) && !(limitReached && (renewing || !own))
	return (
		<>
			<PageHeader
				title={request.services.join(', ')}
				subtitle={
					<>
						{t('requestPage.customer', { name: request.customerName })} <VerifiedPerson verified={request.customerVerified} />
						{` · ${formatDateTime(request.preferredAt, language)}`}
					</>
				}
				actions={
					<>
						{own ? <ChatLink partner={{ id: request.customerId, name: request.customerName }} requestSlug={encodeId(request.id)} /> : null}
						<ButtonLink to="/customer-requests" kind="ghost">{t('requestPage.back')}</ButtonLink>
					</>
				}
			/>
			<CustomerRecordNote record={record} />
			<div className={building ? 'detail-grid detail-grid--builder' : 'detail-grid'}>
				<div className="stack">
					<Panel id="request-what" title={t('requestPage.request')}>
						<RequestSummary request={request} />
					</Panel>
					<SharedHistoryPanel entries={history} unit={request.vehicle.odometerUnit} />
				</div>
				<Panel as={building ? 'section' : 'aside'} id="offer-title" title={own && !renewing ? t('requestPage.yourOffer') : t('requestPage.makeOffer')}>
					<p className="item__meta">{t('requestPage.offersSoFar', { count: request.offerCount })}</p>
					{open && limitReached && (renewing || !own) ? (
						<OfferLimitReached allowance={allowance} />
					) : renewing ? (
						<>
							<p className="notice">{t('requestPage.reopenedNote', { price: formatMoney(own.priceCents, language) })}</p>
							<OfferForm
								intent="make"
								defaults={own.defaults}
								lastResult={actionData?.intent === 'make' ? actionData.result : undefined}
								attachmentErrors={actionData?.intent === 'make' ? actionData.attachmentErrors : null}
								attachmentHeld={actionData?.intent === 'make' ? actionData.held?.attachment : null}
								submitLabel={t('offer.send')}
								limitNote={limitNote}
								noTimes={noTimes}
							/>
						</>
					) : own && isOfferDecided(own.status) ? (
						<>
							<p>
								<StatusBadge kind="offer" status={own.status} /> {formatMoney(own.priceCents, language)}
							</p>
							<ButtonLink to={`/workshop-bid-details/${own.slug}`}>{t('requestPage.openBid')}</ButtonLink>
						</>
					) : own ? (
						<>
							<p className="notice">{t('requestPage.pendingNote')}</p>
							<OfferForm
								intent="update"
								defaults={own.defaults}
								attachmentUploadId={own.attachmentUploadId}
								lastResult={actionData?.intent === 'update' ? actionData.result : undefined}
								attachmentErrors={actionData?.intent === 'update' ? actionData.attachmentErrors : null}
								attachmentHeld={actionData?.intent === 'update' ? actionData.held?.attachment : null}
								submitLabel={t('offer.update')}
							/>
							<div className="danger-zone">
								<ConfirmAction
									id="delete-offer"
									label={t('offer.delete')}
									title={t('offer.deleteTitle')}
									description={t('offer.deleteText')}
									confirmLabel={t('offer.deleteConfirm')}
									fields={{ intent: 'delete' }}
									triggerClassName="button button--ghost button--small button--danger-text"
									danger
								/>
							</div>
						</>
					) : open ? (
						<>
							{drafted ? <p className="notice">{t('priceList.drafted', { items: drafted.items.map((item) => itemName(t, item)).join('; ') })}</p> : null}
							<OfferForm
								intent="make"
								hiddenFields={drafted ? { priceListItem: drafted.itemSlug } : undefined}
								defaults={newDefaults}
								lastResult={actionData?.intent === 'make' ? actionData.result : undefined}
								attachmentErrors={actionData?.intent === 'make' ? actionData.attachmentErrors : null}
								attachmentHeld={actionData?.intent === 'make' ? actionData.held?.attachment : null}
								submitLabel={t('offer.send')}
								limitNote={limitNote}
								noTimes={noTimes}
							/>
						</>
					) : (
						<p>{t('requestPage.closed')}</p>
					)}
				</Panel>
			</div>
		</>
	)
}
