import { parseWithZod } from '@conform-to/zod/v4'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ChatLink } from '~/components/chat'
import { ConfirmAction } from '~/components/confirm-action'
import { OfferForm } from '~/components/offer-form'
import { PageHeader } from '~/components/page-header'
import { RequestSummary } from '~/components/request-summary'
import { StatusBadge } from '~/components/status-badge'
import { findOwnOffer, offerAllowance } from '~/domain/bids.server'
import { DomainError } from '~/domain/errors'
import { OfferSchema } from '~/domain/offers'
import { getRequestForWorkshop } from '~/domain/requests.server'
import { deleteOffer, makeOffer, updateOffer } from '~/domain/service-flow.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { useLanguage } from '~/i18n/use-language'
import { type RootLoaderData } from '~/root'
import { validateCsrf } from '~/utils/csrf.server'
import { formatDateTime, formatMoney } from '~/utils/format'
import { message } from '~/utils/messages'
import { pageMeta } from '~/utils/meta'
import { readFormWithFiles, readUploads } from '~/utils/multipart.server'
import { encodeId } from '~/utils/public-id'
import { idParam, or404, requireWorkshop } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const requestId = idParam(params.slug)
	const language = await getLanguage(request)
	const detail = await or404(getRequestForWorkshop(actor.workshopId, requestId, language))
	const [own, allowance] = await Promise.all([findOwnOffer(actor.workshopId, requestId), offerAllowance(actor.workshopId)])
	const t = getFixedT(language, 'workshop')
	return {
		meta: { title: t('requestPage.title', { services: detail.services.join(', ') }) },
		request: detail,
		own: own ? { ...own, slug: encodeId(own.id), price: (own.priceCents / 100).toFixed(2) } : null,
		allowance,
	}
}

export async function action({ request, params }: ActionFunctionArgs) {
	const { actor } = await requireWorkshop(request)
	const requestId = idParam(params.slug)
	const here = `/customer-request-details/${encodeId(requestId)}`
	const formData = await readFormWithFiles(request)
	await validateCsrf(request, formData)
	const intent = formData.get('intent')
	const own = await findOwnOffer(actor.workshopId, requestId)

	if (intent === 'delete') {
		if (!own) throw new Response('Not found', { status: 404 })
		try {
			await deleteOffer(actor, own.id)
		} catch (error) {
			if (!(error instanceof DomainError)) throw error
			return redirectWithToast(here, { type: 'error', key: error.key }, { request })
		}
		return redirectWithToast(here, { type: 'success', key: 'workshop:offer.deleted' }, { request })
	}

	const submission = parseWithZod(formData, { schema: OfferSchema })
	const attachment = await readUploads(formData, 'attachment', 'offer_attachment', 1)
	if (submission.status !== 'success' || attachment.error) {
		return data({ intent, result: submission.reply(), attachmentErrors: attachment.error ? [attachment.error] : null }, { status: 400 })
	}
	const file = attachment.files[0] ?? null
	try {
		if (intent === 'update') {
			if (!own) throw new Response('Not found', { status: 404 })
			await updateOffer(actor, own.id, submission.value, formData.get('removeAttachment') === 'yes' && !file ? 'remove' : file)
		} else {
			await or404(makeOffer(actor, requestId, submission.value, file))
		}
	} catch (error) {
		if (!(error instanceof DomainError)) throw error
		const formErrors = [message(error.key, error.params)]
		return data({ intent, result: submission.reply({ formErrors }), attachmentErrors: null }, { status: error.status })
	}
	return redirectWithToast(here, { type: 'success', key: intent === 'update' ? 'workshop:offer.updated' : 'workshop:offer.made' }, { request })
}

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) =>
	pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname)

export default function CustomerRequestPage() {
	const { t } = useTranslation('workshop')
	const language = useLanguage()
	const { request, own, allowance } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	const open = request.status === 'pending' || request.status === 'offer'
	const limitNote =
		allowance.limit !== null ? (
			<p className="notice">
				{t('offer.allowance', { used: allowance.used, limit: allowance.limit })} <Link to="/subscription">{t('offer.upgrade')}</Link>
			</p>
		) : null
	return (
		<>
			<PageHeader
				title={request.services.join(', ')}
				subtitle={`${t('requestPage.customer', { name: request.customerName })} · ${formatDateTime(request.preferredAt, language)}`}
				actions={
					<>
						{own ? <ChatLink partner={{ id: request.customerId, name: request.customerName }} /> : null}
						<Link to="/customer-requests" className="button button--ghost">
							{t('requestPage.back')}
						</Link>
					</>
				}
			/>
			<div className="detail-grid">
				<section className="panel" aria-labelledby="request-what">
					<h2 id="request-what">{t('requestPage.request')}</h2>
					<RequestSummary request={request} />
				</section>
				<aside className="panel" aria-labelledby="offer-title">
					<h2 id="offer-title">{own ? t('requestPage.yourOffer') : t('requestPage.makeOffer')}</h2>
					<p className="item__meta">{t('requestPage.offersSoFar', { count: request.offerCount })}</p>
					{own && own.status !== 'pending' ? (
						<>
							<p>
								<StatusBadge kind="offer" status={own.status} /> {formatMoney(own.priceCents, language)}
							</p>
							<Link to={`/workshop-bid-details/${own.slug}`} className="button button--primary">
								{t('requestPage.openBid')}
							</Link>
						</>
					) : own ? (
						<>
							<p className="notice">{t('requestPage.pendingNote')}</p>
							<OfferForm
								intent="update"
								defaults={{ price: own.price, description: own.description, notes: own.notes }}
								attachmentUploadId={own.attachmentUploadId}
								lastResult={actionData?.intent === 'update' ? actionData.result : undefined}
								attachmentErrors={actionData?.intent === 'update' ? actionData.attachmentErrors : null}
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
						<OfferForm
							intent="make"
							lastResult={actionData?.intent === 'make' ? actionData.result : undefined}
							attachmentErrors={actionData?.intent === 'make' ? actionData.attachmentErrors : null}
							submitLabel={t('offer.send')}
							limitNote={limitNote}
						/>
					) : (
						<p>{t('requestPage.closed')}</p>
					)}
				</aside>
			</div>
		</>
	)
}
