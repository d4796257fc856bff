import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router'
import { Form, Link, useActionData, useLoaderData } from 'react-router'
import { useTranslation } from '~/i18n/translation'
import { AuthPanel } from '~/components/auth-panel'
import { ButtonLink } from '~/components/button-link'
import { FormActions, FormAlert, FormSecurity } from '~/components/forms'
import { Fact } from '~/components/panel'
import { openSession } from '~/domain/accounts/accounts.server'
import { confirmWidgetRequest, readWidgetRequest, type WidgetRequestSummary } from '~/domain/service-flow/widget-confirm.server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { readForm } from '~/uploads/multipart.server'
import { getOptionalUser, redirectSignedIn } from '~/utils/auth.server'
import { validateCsrf } from '~/utils/csrf.server'
import { formatDateTime } from '~/utils/format'
import { routeMeta } from '~/utils/meta'
import { encodeId } from '~/utils/public-id'
import { withRedirectTo } from '~/utils/safe-redirect'
import { redirectWithToast } from '~/utils/toast.server'
import { type AdsHandle } from '~/utils/ad-places'

/**
 * /confirm-request/{token}: the link a widget's request e-mailed (issue 37, decision 0153). Opening
 * it shows what was asked and one button (a form: link scanners in mail programs open links, and
 * opening must change nothing); the button makes the account if need be and the request, and
 * shows it. A link opened again shows the same request; one past its day says so.
 */

// The page holds a secret in its address: kept out of caches and referrers.
const privateHeaders = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }
const requestPath = (requestId: string) => `/request-details/${encodeId(requestId)}`

export async function loader({ request, params }: LoaderFunctionArgs) {
	const language = await getLanguage(request)
	const t = getFixedT(language, 'widgets')
	const view = await readWidgetRequest(params.token ?? '', language)
	if (!view) return data({ view: { state: 'unknown' as const }, meta: { title: t('confirm.unknownTitle') } }, { status: 404, headers: privateHeaders })
	if (view.state === 'expired') return data({ view, meta: { title: t('confirm.expiredTitle') } }, { status: 410, headers: privateHeaders })
	if (view.state === 'confirmed') {
		const user = await getOptionalUser(request)
		// Its owner, signed in: the request itself.
		if (user?.id === view.customerId) throw redirect(requestPath(view.requestId), { headers: privateHeaders })
		const loginUrl = withRedirectTo('/login', requestPath(view.requestId))
		return data({ view: { state: 'confirmed' as const, summary: view.summary, loginUrl }, meta: { title: t('confirm.sentTitle') } }, { headers: privateHeaders })
	}
	return data({ view, meta: { title: t('confirm.title') } }, { headers: privateHeaders })
}

export async function action({ request, params }: ActionFunctionArgs) {
	const formData = await readForm(request)
	await validateCsrf(request, formData)
	const outcome = await confirmWidgetRequest(params.token ?? '')
	switch (outcome.outcome) {
		case 'unknown':
			return data({ error: 'widgets:confirm.unknownTitle' }, { status: 404, headers: privateHeaders })
		case 'expired':
			return data({ error: 'widgets:confirm.expiredText' }, { status: 410, headers: privateHeaders })
		case 'notCustomer':
		case 'blocked':
		case 'plateTaken':
			return data({ error: `widgets:confirm.${outcome.outcome}` }, { status: 409, headers: privateHeaders })
	}
	const to = requestPath(outcome.requestId)
	const user = await getOptionalUser(request)
	if (user?.id === outcome.customerId) return redirectWithToast(to, { type: 'success', key: 'widgets:confirm.sent' }, { request })
	if (outcome.signIn && !user) {
		// A new guest (or one whose only way in is this address): the link proved the address, as a reset link would.
		const token = await openSession({ userId: outcome.customerId, kind: 'web', userAgent: request.headers.get('User-Agent'), method: 'email-link' })
		return redirectSignedIn(request, token, to, 'widgets:confirm.sentSignedIn')
	}
	// An account with a password or eID (or someone else signed in here): it signs in its own way, then sees the request.
	if (user) return redirectWithToast(new URL(request.url).pathname, { type: 'success', key: 'widgets:confirm.sent' }, { request })
	return redirectWithToast(withRedirectTo('/login', to), { type: 'success', key: 'widgets:confirm.sentLogIn' }, { request })
}

export const meta = routeMeta<typeof loader>([{ name: 'robots', content: 'noindex' }])

// Like the request form (step 1), no ads (app/utils/ad-places.ts, decision 0129).
export const handle: AdsHandle = { ads: false }

export default function ConfirmRequestPage() {
	const { t } = useTranslation('widgets')
	const { view } = useLoaderData<typeof loader>()
	const actionData = useActionData<typeof action>()
	if (view.state === 'unknown' || view.state === 'expired') {
		return (
			<AuthPanel title={t(view.state === 'unknown' ? 'confirm.unknownTitle' : 'confirm.expiredTitle')} subtitle={t(view.state === 'unknown' ? 'confirm.unknownText' : 'confirm.expiredText')}>
				<ButtonLink to="/new-service-register">{t('confirm.askOnPortal')}</ButtonLink>
			</AuthPanel>
		)
	}
	if (view.state === 'confirmed') {
		return (
			<AuthPanel title={t('confirm.sentTitle')} subtitle={t('confirm.sentText')} wide>
				<Summary summary={view.summary} />
				<div className="form-actions">
					<ButtonLink to={view.loginUrl}>{t('confirm.logInToSee')}</ButtonLink>
				</div>
				<p className="form-note">
					{t('confirm.noPassword')} <Link to="/forget-password">{t('confirm.setPassword')}</Link>
				</p>
			</AuthPanel>
		)
	}
	return (
		<AuthPanel title={t('confirm.title')} subtitle={t('confirm.intro', { email: view.summary.email })} wide>
			<Summary summary={view.summary} />
			<Form method="post" className="form">
				<FormSecurity />
				<FormAlert id="confirm-request-error" errors={actionData?.error ? [actionData.error] : undefined} />
				<p className="form-note">{t('confirm.account', { email: view.summary.email })}</p>
				<FormActions submit={t('confirm.submit')} large />
			</Form>
		</AuthPanel>
	)
}

function Summary({ summary }: { summary: WidgetRequestSummary }) {
	const { t, language } = useTranslation('widgets')
	return (
		<dl className="facts facts--stacked confirm-request__facts">
			{summary.workshop ? <Fact label={t('request.workshop')}>{summary.workshop}</Fact> : null}
			<Fact label={t('customer:request.services')}>{summary.services.join(', ')}</Fact>
			<Fact label={t('customer:vehicle.identity')}>
				{summary.car}, {summary.registrationNumber}
			</Fact>
			<Fact label={t('customer:request.preferredAt')}>{formatDateTime(summary.preferredAt, language)}</Fact>
			<Fact label={t('customer:request.location')}>{summary.location}</Fact>
			<Fact label={t('customer:request.details')}>{summary.details}</Fact>
			{summary.photos ? <Fact label={t('customer:request.images')}>{summary.photos}</Fact> : null}
		</dl>
	)
}
