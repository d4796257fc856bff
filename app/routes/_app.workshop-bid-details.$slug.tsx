import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ChatLink } from '~/components/chat'
import { Field, FormActions, FormAlert, FormSecurity } from '~/components/forms'
import { OfferTerms } from '~/components/offer-terms'
import { PageHeader } from '~/components/page-header'
import { Fact, Panel } from '~/components/panel'
import { RequestSummary } from '~/components/request-summary'
import { StatusBadge } from '~/components/status-badge'
import { Timeline } from '~/components/timeline'
import { getOwnOffer } from '~/domain/service-flow/offers.server'
import { CompleteJobSchema } from '~/domain/service-flow/offers'
import { getRequestForWorkshop } from '~/domain/service-flow/requests.server'
import { completeJob } from '~/domain/service-flow/moves.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { requireWorkshop } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { formatDate, formatMoney } from '~/utils/format'
import { formatMoneyInput } from '~/utils/money'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/utils/multipart.server'
import { encodeId } from '~/utils/public-id'
import { handleDomainError, idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'
import { uploadUrl } from '~/utils/upload-url'
import { canOffer } from '~/domain/service-flow/status'

export async function loader({ request, params }: LoaderFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const language = await getLanguage(request)
	const offer = await or404(getOwnOffer(actor.workshopId, idParam(params.slug)))
	const detail = await or404(getRequestForWorkshop(actor.workshopId, offer.requestId, language))
	const t = getFixedT(language, 'workshop')
	return { meta: { title: t('bid.title') }, offer, request: detail, requestSlug: encodeId(detail.id) }
}

export async function action({ request, params }: ActionFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const offerId = idParam(params.slug)
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const submission = parseWithZod(formData, { schema: CompleteJobSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	try {
		await or404(completeJob(actor, offerId, submission.value.finalPrice))
	} catch (error) {
		return handleDomainError(error, { as: 'form', submission })
	}
	return redirectWithToast(`/workshop-bid-details/${encodeId(offerId)}`, { type: 'success', key: 'workshop:job.completed' }, { request })
}

export const meta = routeMeta<typeof loader>()

export default function BidDetailsPage() {
	const { t } = useTranslation('workshop')
	const language = useLanguage()
	const { offer, request, requestSlug } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const [form, fields] = useForm({
		id: 'complete-job',
		lastResult: actionData?.result,
		defaultValue: { finalPrice: formatMoneyInput(offer.priceCents, language) },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: CompleteJobSchema }),
		shouldRevalidate: 'onInput',
	})
	return (
		<>
			<PageHeader
				title={request.services.join(', ')}
				subtitle={<StatusBadge kind="offer" status={offer.status} />}
				actions={<ChatLink partner={{ id: request.customerId, name: request.customerName }} requestSlug={requestSlug} />}
			/>
			<div className="detail-grid">
				<div className="stack">
					<Panel id="bid-offer" title={t('bid.yourOffer')}>
						<dl className="facts">
							<Fact label={t('offer.price')}>{formatMoney(offer.priceCents, language)}</Fact>
							{offer.finalPriceCents !== null ? <Fact label={t('bid.finalPrice')}>{formatMoney(offer.finalPriceCents, language)}</Fact> : null}
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
						{canOffer('edit', offer.status) ? (
							<p className="notice">
								{t('bid.pendingNote')} <Link to={`/customer-request-details/${requestSlug}`}>{t('bid.editOffer')}</Link>
							</p>
						) : null}
					</Panel>

					{canOffer('completeJob', offer.status) ? (
						<Panel id="bid-job" title={t('job.title')} className="panel panel--highlight">
							<p>{t('job.text')}</p>
							<Form method="post" className="form" {...getFormProps(form)}>
								<FormSecurity />
								<FormAlert id={form.errorId} errors={form.errors} />
								<Field
									label={t('job.finalPrice')}
									required
									help={t('job.finalPriceHelp')}
									inputProps={{ ...getInputProps(fields.finalPrice, { type: 'text' }), inputMode: 'decimal' }}
									errors={fields.finalPrice.errors}
								/>
								<FormActions submit={t('job.submit')} large />
							</Form>
						</Panel>
					) : null}

					<Panel id="bid-request" title={t('requestPage.request')}>
						{request.customerEmail ? (
							<p className="notice">
								{t('bid.customer', { name: request.customerName })}{' '}
								<a href={`tel:${request.customerMobile.replace(/\s+/g, '')}`}>{request.customerMobile}</a> ·{' '}
								<a href={`mailto:${request.customerEmail}`}>{request.customerEmail}</a>
							</p>
						) : null}
						<RequestSummary request={request} />
					</Panel>
				</div>
				<Panel as="aside" id="bid-timeline" title={t('bid.timeline')}>
					<Timeline events={request.events} />
				</Panel>
			</div>
		</>
	)
}
