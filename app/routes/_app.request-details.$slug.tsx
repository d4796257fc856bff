import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { ButtonLink } from '~/components/button-link'
import { ConfirmAction } from '~/components/confirm-action'
import { CheckboxGroup, Field, FormActions, FormAlert, FormSecurity, IntentButton, type Option } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { RequestSummary } from '~/components/request-summary'
import { StatusBadge } from '~/components/status-badge'
import { StepIndicator } from '~/components/step-indicator'
import { Timeline } from '~/components/timeline'
import { ReopenRequestSchema, ShareHistorySchema, WidenRequestSchema } from '~/domain/service-flow/requests'
import { getChoices } from '~/domain/site/reference.server'
import { getCustomerRequest } from '~/domain/service-flow/requests.server'
import { shareHistoryOnRequest } from '~/domain/service-flow/passport.server'
import { cancelRequest, reopenRequest, widenRequest } from '~/domain/service-flow/request-moves.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { BadRequest } from '~/utils/failures.server'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/uploads/multipart.server'
import { encodeId } from '~/utils/public-id'
import { handleDomainError, idParam, or404 } from '~/utils/route-helpers.server'
import { dateToTallinnInput } from '~/utils/time'
import { redirectWithToast } from '~/utils/toast.server'
import { bookedTimeOf } from '~/domain/booking/request-booking.server'
import { formatDateTime, formatMoney } from '~/utils/format'
import { instantOffersFor } from '~/domain/pricing/price-list-offers.server'
import { canReopen, canRequest, EXPIRY_DAYS, requestPhase, requestStep } from '~/domain/service-flow/status'

export async function loader({ request, params }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const language = await getLanguage(request)
	const detail = await or404(getCustomerRequest(user.id, idParam(params.slug), language))
	const t = getFixedT(language, 'customer')
	// Widening: the services it does not name yet, and whether it has a city to drop.
	const widen = canRequest('widen', detail.status)
		? { services: (await getChoices(language, ['services'])).services.filter((choice) => !detail.serviceIds.includes(choice.value)), hasCity: detail.city !== null }
		: null
	// The time booked with the selected offer (issue 33), in Tallinn time and the reader's language.
	const booked = detail.selectedOffer ? await bookedTimeOf(user.id, detail.id) : null
	// Offers sent at once from workshops' price lists (issue 35), named while the customer compares.
	const instantOffers = await instantOffersFor(user.id, detail.id)
	return {
		meta: { title: t('requestDetails.title', { services: detail.services.join(', ') }) },
		slug: encodeId(detail.id),
		bookedAt: booked ? formatDateTime(booked.startsAt, language) : null,
		request: detail,
		earliest: dateToTallinnInput(new Date()),
		widen,
		instantOffers: instantOffers.map((offer) => ({ id: offer.id, text: t('requestDetails.instantFrom', { workshop: offer.workshopName, price: formatMoney(offer.priceCents, language) }) })),
	}
}

export async function action({ request, params }: ActionFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const requestId = idParam(params.slug)
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const here = `/request-details/${encodeId(requestId)}`
	const intent = formData.get('intent')
	if (intent === 'cancel') {
		try {
			await or404(cancelRequest(user.id, requestId))
		} catch (error) {
			return handleDomainError(error, { as: 'toast', redirectTo: here, request })
		}
		return redirectWithToast(here, { type: 'success', key: 'customer:requestDetails.cancelled' }, { request })
	}
	if (intent === 'shareHistory') {
		const submission = parseWithZod(formData, { schema: ShareHistorySchema })
		if (submission.status !== 'success') throw new BadRequest(400)
		const share = submission.value.share === 'on'
		await or404(shareHistoryOnRequest(user.id, requestId, share))
		return redirectWithToast(here, { type: 'success', key: share ? 'customer:requestDetails.historySharedToast' : 'customer:requestDetails.historyStoppedToast' }, { request })
	}
	if (intent === 'widen') {
		const submission = parseWithZod(formData, { schema: WidenRequestSchema })
		if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
		let told: number
		try {
			told = await or404(widenRequest(user.id, requestId, submission.value))
		} catch (error) {
			return handleDomainError(error, { as: 'form', submission, data: { intent } })
		}
		const toast = told ? { key: 'customer:requestDetails.widened', params: { count: told } } : { key: 'customer:requestDetails.widenedNone' }
		return redirectWithToast(here, { type: 'success', ...toast }, { request })
	}
	if (intent !== 'reopen') throw new BadRequest(400)
	const submission = parseWithZod(formData, { schema: ReopenRequestSchema })
	if (submission.status !== 'success') return data({ intent, result: submission.reply() }, { status: 400 })
	try {
		await or404(reopenRequest(user.id, requestId, submission.value))
	} catch (error) {
		return handleDomainError(error, { as: 'toast', redirectTo: here, request })
	}
	return redirectWithToast(here, { type: 'success', key: 'customer:requestDetails.reopened' }, { request })
}

export const meta = routeMeta<typeof loader>()

export default function RequestDetailsPage() {
	const { t } = useTranslation('customer')
	const { request, slug, earliest, widen, bookedAt, instantOffers } = useLoaderData<typeof loader>()
	const open = canRequest('cancel', request.status)
	const phase = requestPhase(request.status)
	const step = requestStep(request.status)
	return (
		<>
			<PageHeader title={request.services.join(', ')} subtitle={<StatusBadge kind="request" status={request.status} />} />
			{step ? <StepIndicator current={step} /> : null}
			<div className="detail-grid">
				<Panel id="request-what" title={t('requestDetails.what')}>
					<RequestSummary request={request} />
					<div className="history-sharing">
						<h3 id="history-sharing">{t('requestDetails.history')}</h3>
						<p>{t(request.shareHistory ? 'requestDetails.historyShared' : 'requestDetails.historyNotShared')}</p>
						<IntentButton intent="shareHistory" fields={{ share: request.shareHistory ? 'off' : 'on' }} describedBy="history-sharing">
							{t(request.shareHistory ? 'requestDetails.historyStop' : 'requestDetails.historyShare')}
						</IntentButton>
					</div>
				</Panel>
				<Panel as="aside" id="request-next" title={t('requestDetails.next')} className="panel next-step">
					{phase === 'waiting' ? <p>{t('requestDetails.waiting')}</p> : null}
					{phase === 'comparing' ? (
						<>
							<p>{t('requestDetails.offers', { count: request.offerCount })}</p>
							{instantOffers.length ? (
								<ul className="instant-offers">
									{instantOffers.map((offer) => (
										<li key={offer.id}>
											<span className="badge badge--instant">{t('common:instantOffer.badge')}</span> {offer.text}
										</li>
									))}
								</ul>
							) : null}
							<ButtonLink to={`/compaire-offers/${slug}`} size="large">{t('requestDetails.compare')}</ButtonLink>
						</>
					) : null}
					{phase === 'working' && request.selectedOffer ? (
						<>
							<p>{t('requestDetails.inProgress', { workshop: request.selectedOffer.workshopName })}</p>
							{bookedAt ? (
								<p className="booked-time">
									<strong>{t('booking:select.booked')}:</strong> {bookedAt}
								</p>
							) : null}
							<ButtonLink to={`/work-progress/${slug}`} size="large">{t('requestDetails.follow')}</ButtonLink>
						</>
					) : null}
					{phase === 'done' ? (
						<>
							<p>{t('requestDetails.completed')}</p>
							<ButtonLink to={request.review ? `/service-details/${slug}` : `/leave-feedback/${slug}`} size="large">
								{t(request.review ? 'requestDetails.seeService' : 'requestDetails.leaveFeedback')}
							</ButtonLink>
						</>
					) : null}
					{widen ? <WidenForm services={widen.services} hasCity={widen.hasCity} /> : null}
					{phase === 'cancelled' ? <p>{t('requestDetails.cancelledText')}</p> : null}
					{phase === 'expired' ? (
						<>
							<p>{t('requestDetails.expiredText', { days: EXPIRY_DAYS })}</p>
							{canReopen(request.status, request.reopenCount) ? (
								<ReopenForm earliest={earliest} />
							) : (
								<p>{t('requestDetails.reopenedBefore')}</p>
							)}
						</>
					) : null}
					{open ? (
						<div className="danger-zone">
							<ConfirmAction
								id="cancel-request"
								label={t('requestDetails.cancel')}
								title={t('requestDetails.cancelTitle')}
								description={t('requestDetails.cancelText')}
								confirmLabel={t('requestDetails.cancelConfirm')}
								fields={{ intent: 'cancel' }}
								triggerClassName="button button--ghost button--small button--danger-text"
								danger
							/>
						</div>
					) : null}
					<h3 className="next-step__timeline">{t('requestDetails.timeline')}</h3>
					<Timeline events={request.events} />
				</Panel>
			</div>
		</>
	)
}

/** Asks again for an expired request, with the time the customer now wants the work done. */
function ReopenForm({ earliest }: { earliest: string }) {
	const { t } = useTranslation('customer')
	const actionData = useActionData<typeof action>()
	const [form, fields] = useForm({
		id: 'reopen-request',
		lastResult: actionData?.intent === 'reopen' ? actionData.result : undefined,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: ReopenRequestSchema }),
		shouldRevalidate: 'onInput',
	})
	return (
		<Form method="post" className="form" {...getFormProps(form)}>
			<FormSecurity intent="reopen" />
			<p>{t('requestDetails.reopenText')}</p>
			<Field
				label={t('request.preferredAt')}
				required
				inputProps={{ ...getInputProps(fields.preferredAt, { type: 'datetime-local' }), min: earliest }}
				errors={fields.preferredAt.errors}
			/>
			<FormActions submit={t('requestDetails.reopen')} large />
		</Form>
	)
}

/**
 * Reaches more workshops: services the request does not name yet, or any city. Folded away (it is
 * not the next step for most); the e-mail about no offers links to it (#widen), which unfolds it.
 */
function WidenForm({ services, hasCity }: { services: Option[]; hasCity: boolean }) {
	const { t } = useTranslation('customer')
	const actionData = useActionData<typeof action>()
	const lastResult = actionData?.intent === 'widen' ? actionData.result : undefined
	const [form, fields] = useForm({
		id: 'widen-request',
		lastResult,
		onValidate: ({ formData }) => parseWithZod(formData, { schema: WidenRequestSchema }),
		shouldRevalidate: 'onInput',
	})
	return (
		<details className="widen" open={lastResult !== undefined || undefined}>
			<summary>{t('requestDetails.widen')}</summary>
			{/* The target inside the fold: a link to #widen unfolds it. */}
			<div id="widen">
			<Form method="post" className="form widen__form" {...getFormProps(form)}>
				<FormSecurity intent="widen" />
				<p>{t('requestDetails.widenText')}</p>
				<FormAlert errors={form.errors} />
				{services.length ? (
					<CheckboxGroup legend={t('requestDetails.widenServices')} name="serviceIds" options={services} errors={fields.serviceIds.errors} />
				) : null}
				{hasCity ? (
					<label className="checkbox">
						<input type="checkbox" name="anyCity" /> {t('requestDetails.widenAnyCity')}
					</label>
				) : null}
				<FormActions submit={t('requestDetails.widenSubmit')} />
			</Form>
			</div>
		</details>
	)
}
