import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ChatLink } from '~/components/chat'
import { Field, FormAlert, FormSecurity, StatusButton, useIsPending } from '~/components/forms'
import { PageHeader } from '~/components/page-header'
import { RequestSummary } from '~/components/request-summary'
import { StatusBadge } from '~/components/status-badge'
import { Timeline } from '~/components/timeline'
import { getOwnOffer } from '~/domain/bids.server'
import { DomainError } from '~/domain/errors'
import { CompleteJobSchema } from '~/domain/offers'
import { getRequestForWorkshop } from '~/domain/requests.server'
import { completeJob } from '~/domain/service-flow.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { type RootLoaderData } from '~/root'
import { validateCsrf } from '~/utils/csrf.server'
import { formatDate, formatMoney } from '~/utils/format'
import { message } from '~/utils/messages'
import { pageMeta } from '~/utils/meta'
import { encodeId } from '~/utils/public-id'
import { idParam, or404, requireWorkshop } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'
import { uploadUrl } from '~/utils/upload-url'

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
	const formData = await request.formData()
	await validateCsrf(request, formData)
	const submission = parseWithZod(formData, { schema: CompleteJobSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	try {
		await or404(completeJob(actor, offerId, submission.value.finalPrice))
	} catch (error) {
		if (!(error instanceof DomainError)) throw error
		return data({ result: submission.reply({ formErrors: [message(error.key, error.params)] }) }, { status: error.status })
	}
	return redirectWithToast(`/workshop-bid-details/${encodeId(offerId)}`, { type: 'success', key: 'workshop:job.completed' }, { request })
}

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) =>
	pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname)

export default function BidDetailsPage() {
	const { t } = useTranslation('workshop')
	const language = useLanguage()
	const { offer, request, requestSlug } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const isPending = useIsPending()
	const [form, fields] = useForm({
		id: 'complete-job',
		lastResult: actionData?.result,
		defaultValue: { finalPrice: (offer.priceCents / 100).toFixed(2) },
		onValidate: ({ formData }) => parseWithZod(formData, { schema: CompleteJobSchema }),
		shouldRevalidate: 'onInput',
	})
	return (
		<>
			<PageHeader
				title={request.services.join(', ')}
				subtitle={<StatusBadge kind="offer" status={offer.status} />}
				actions={<ChatLink partner={{ id: request.customerId, name: request.customerName }} />}
			/>
			<div className="detail-grid">
				<div className="stack">
					<section className="panel" aria-labelledby="bid-offer">
						<h2 id="bid-offer">{t('bid.yourOffer')}</h2>
						<dl className="facts">
							<div>
								<dt>{t('offer.price')}</dt>
								<dd>{formatMoney(offer.priceCents, language)}</dd>
							</div>
							{offer.finalPriceCents !== null ? (
								<div>
									<dt>{t('bid.finalPrice')}</dt>
									<dd>{formatMoney(offer.finalPriceCents, language)}</dd>
								</div>
							) : null}
							<div>
								<dt>{t('bid.madeOn')}</dt>
								<dd>{formatDate(offer.createdAt, language)}</dd>
							</div>
							{offer.description ? (
								<div className="facts__row--wide">
									<dt>{t('offer.description')}</dt>
									<dd className="prose-text">{offer.description}</dd>
								</div>
							) : null}
							{offer.notes ? (
								<div className="facts__row--wide">
									<dt>{t('offer.notes')}</dt>
									<dd className="prose-text">{offer.notes}</dd>
								</div>
							) : null}
						</dl>
						{offer.attachmentUploadId ? (
							<a href={uploadUrl(offer.attachmentUploadId)} className="button button--ghost button--small" download>
								{t('offer.currentAttachment')}
							</a>
						) : null}
						{offer.status === 'pending' ? (
							<p className="notice">
								{t('bid.pendingNote')} <Link to={`/customer-request-details/${requestSlug}`}>{t('bid.editOffer')}</Link>
							</p>
						) : null}
					</section>

					{offer.status === 'selected' ? (
						<section className="panel panel--highlight" aria-labelledby="bid-job">
							<h2 id="bid-job">{t('job.title')}</h2>
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
								<div className="form-actions">
									<StatusButton type="submit" status={isPending ? 'pending' : 'idle'} className="button--primary button--large">
										{t('job.submit')}
									</StatusButton>
								</div>
							</Form>
						</section>
					) : null}

					<section className="panel" aria-labelledby="bid-request">
						<h2 id="bid-request">{t('requestPage.request')}</h2>
						{request.customerEmail ? (
							<p className="notice">
								{t('bid.customer', { name: request.customerName })}{' '}
								<a href={`tel:${request.customerMobile.replace(/\s+/g, '')}`}>{request.customerMobile}</a> ·{' '}
								<a href={`mailto:${request.customerEmail}`}>{request.customerEmail}</a>
							</p>
						) : null}
						<RequestSummary request={request} />
					</section>
				</div>
				<aside className="panel" aria-labelledby="bid-timeline">
					<h2 id="bid-timeline">{t('bid.timeline')}</h2>
					<Timeline events={request.events} />
				</aside>
			</div>
		</>
	)
}
