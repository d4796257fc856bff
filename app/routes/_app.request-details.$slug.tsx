import { type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ButtonLink } from '~/components/button-link'
import { ConfirmAction } from '~/components/confirm-action'
import { PageHeader } from '~/components/page-header'
import { Panel } from '~/components/panel'
import { RequestSummary } from '~/components/request-summary'
import { StatusBadge } from '~/components/status-badge'
import { StepIndicator } from '~/components/step-indicator'
import { Timeline } from '~/components/timeline'
import { getCustomerRequest } from '~/domain/service-flow/requests.server'
import { cancelRequest } from '~/domain/service-flow/moves.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { BadRequest } from '~/utils/failures.server'
import { routeMeta } from '~/utils/meta'
import { readForm } from '~/utils/multipart.server'
import { encodeId } from '~/utils/public-id'
import { handleDomainError, idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'
import { canRequest, requestPhase, requestStep } from '~/domain/service-flow/status'

export async function loader({ request, params }: LoaderFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const language = await getLanguage(request)
	const detail = await or404(getCustomerRequest(user.id, idParam(params.slug), language))
	const t = getFixedT(language, 'customer')
	return { meta: { title: t('requestDetails.title', { services: detail.services.join(', ') }) }, slug: encodeId(detail.id), request: detail }
}

export async function action({ request, params }: ActionFunctionArgs) {
	const user = await requireUser(request, { role: 'customer' })
	const requestId = idParam(params.slug)
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const here = `/request-details/${encodeId(requestId)}`
	if (formData.get('intent') !== 'cancel') throw new BadRequest(400)
	try {
		await or404(cancelRequest(user.id, requestId))
	} catch (error) {
		return handleDomainError(error, { as: 'toast', redirectTo: here, request })
	}
	return redirectWithToast(here, { type: 'success', key: 'customer:requestDetails.cancelled' }, { request })
}

export const meta = routeMeta<typeof loader>()

export default function RequestDetailsPage() {
	const { t } = useTranslation('customer')
	const { request, slug } = useLoaderData<typeof loader>()
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
				</Panel>
				<Panel as="aside" id="request-next" title={t('requestDetails.next')} className="panel next-step">
					{phase === 'waiting' ? <p>{t('requestDetails.waiting')}</p> : null}
					{phase === 'comparing' ? (
						<>
							<p>{t('requestDetails.offers', { count: request.offerCount })}</p>
							<ButtonLink to={`/compaire-offers/${slug}`} size="large">{t('requestDetails.compare')}</ButtonLink>
						</>
					) : null}
					{phase === 'working' && request.selectedOffer ? (
						<>
							<p>{t('requestDetails.inProgress', { workshop: request.selectedOffer.workshopName })}</p>
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
					{phase === 'cancelled' ? <p>{t('requestDetails.cancelledText')}</p> : null}
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
