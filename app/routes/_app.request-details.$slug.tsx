import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { ConfirmAction } from '~/components/confirm-action'
import { PageHeader } from '~/components/page-header'
import { RequestSummary } from '~/components/request-summary'
import { StatusBadge } from '~/components/status-badge'
import { StepIndicator } from '~/components/step-indicator'
import { Timeline } from '~/components/timeline'
import { DomainError } from '~/domain/errors'
import { getCustomerRequest } from '~/domain/requests.server'
import { cancelRequest } from '~/domain/service-flow.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { type RootLoaderData } from '~/root'
import { requireUser } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { pageMeta } from '~/utils/meta'
import { encodeId } from '~/utils/public-id'
import { idParam, or404 } from '~/utils/route-helpers.server'
import { redirectWithToast } from '~/utils/toast.server'

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
	const formData = await request.formData()
	await validateCsrf(request, formData)
	const here = `/request-details/${encodeId(requestId)}`
	if (formData.get('intent') !== 'cancel') throw new Response('Bad request', { status: 400 })
	try {
		await or404(cancelRequest(user.id, requestId))
	} catch (error) {
		if (!(error instanceof DomainError)) throw error
		return redirectWithToast(here, { type: 'error', key: error.key }, { request })
	}
	return redirectWithToast(here, { type: 'success', key: 'customer:requestDetails.cancelled' }, { request })
}

export const meta: MetaFunction<typeof loader, { root: RootLoaderData }> = ({ data, matches }) =>
	pageMeta(data?.meta, matches.find((m) => m.id === 'root')?.data?.site.appname)

const stepOf = { pending: 1, offer: 2, in_progress: 3, completed: 4, cancelled: 1 } as const

export default function RequestDetailsPage() {
	const { t } = useTranslation('customer')
	const { request, slug } = useLoaderData<typeof loader>()
	const open = request.status === 'pending' || request.status === 'offer'
	return (
		<>
			<PageHeader title={request.services.join(', ')} subtitle={<StatusBadge kind="request" status={request.status} />} />
			{request.status !== 'cancelled' ? <StepIndicator current={stepOf[request.status]} /> : null}
			<div className="detail-grid">
				<section className="panel" aria-labelledby="request-what">
					<h2 id="request-what">{t('requestDetails.what')}</h2>
					<RequestSummary request={request} />
				</section>
				<aside className="panel next-step" aria-labelledby="request-next">
					<h2 id="request-next">{t('requestDetails.next')}</h2>
					{request.status === 'pending' ? <p>{t('requestDetails.waiting')}</p> : null}
					{request.status === 'offer' ? (
						<>
							<p>{t('requestDetails.offers', { count: request.offerCount })}</p>
							<Link to={`/compaire-offers/${slug}`} className="button button--primary button--large">
								{t('requestDetails.compare')}
							</Link>
						</>
					) : null}
					{request.status === 'in_progress' && request.selectedOffer ? (
						<>
							<p>{t('requestDetails.inProgress', { workshop: request.selectedOffer.workshopName })}</p>
							<Link to={`/work-progress/${slug}`} className="button button--primary button--large">
								{t('requestDetails.follow')}
							</Link>
						</>
					) : null}
					{request.status === 'completed' ? (
						<>
							<p>{t('requestDetails.completed')}</p>
							<Link to={request.review ? `/service-details/${slug}` : `/leave-feedback/${slug}`} className="button button--primary button--large">
								{t(request.review ? 'requestDetails.seeService' : 'requestDetails.leaveFeedback')}
							</Link>
						</>
					) : null}
					{request.status === 'cancelled' ? <p>{t('requestDetails.cancelledText')}</p> : null}
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
				</aside>
			</div>
		</>
	)
}
