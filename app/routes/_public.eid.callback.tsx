import { createHash } from 'node:crypto'
import { data, redirect, type LoaderFunctionArgs } from 'react-router'
import { Link, useLoaderData } from 'react-router'
import { AuthPanel } from '~/components/auth-panel'
import { EidButton } from '~/components/eid'
import { confirmWithEid, linkEid, signInWithEid } from '~/domain/accounts/eid.server'
import { confirmSession } from '~/domain/accounts/accounts.server'
import { getFixedT, getLanguage, languageCookie } from '~/i18n/i18n.server'
import { useTranslation } from '~/i18n/translation'
import { eidCookieHeader, readEidCookie, type EidFlow } from '~/identity/eid-cookie.server'
import { EidRefused, eidRefusals, redeemAnswer } from '~/identity/oidc.server'
import { type AdsHandle } from '~/utils/ad-places'
import { getOptionalUser, mayAddWayIn, redirectSignedIn, wayOn } from '~/utils/auth.server'
import { getEnv } from '~/utils/env.server'
import { DomainError, notFound } from '~/utils/errors'
import { combineHeaders } from '~/utils/http'
import { routeMeta } from '~/utils/meta'
import { hitRateLimit } from '~/utils/rate-limit.server'
import { withRedirectTo } from '~/utils/safe-redirect'
import { redirectWithToast } from '~/utils/toast.server'

/**
 * GET /eid/callback: the provider's answer (decision 0150). Checked against this browser's flow
 * (the eID cookie) and used once; the code redeemed at once and the ID token checked
 * (app/identity/oidc.server.ts). Then: the eID's account signed in; or, for an eID no account has,
 * the verified person kept for the registration (or a link after the account's password); or, from
 * /settings, the eID linked; or the signed-in session confirmed with the account's own eID (a
 * step-up, decision 0156: linking confirms it too, the person having just used that eID). Anything wrong signs nobody in and says why on this page, with a 4xx
 * (503 when the provider cannot be reached), in the reader's language.
 */
export async function loader({ request }: LoaderFunctionArgs) {
	if (!getEnv().eid) throw notFound()
	const { flow } = await readEidCookie(request)
	const language = await getLanguage(request)
	const clear = { 'Set-Cookie': await eidCookieHeader(null), 'Cache-Control': 'no-store' }
	const purpose = flow?.purpose ?? 'login'
	const refuse = (key: string, status: number) =>
		data({ meta: { title: getFixedT(language, 'auth')('eid.refused.title') }, key, purpose, role: flow?.role ?? 'customer', redirectTo: flow?.redirectTo ?? null }, { status, headers: clear })
	try {
		if (!flow) throw new EidRefused('state')
		const query = new URL(request.url).searchParams
		const state = query.get('state')
		// A state answers once: a second use (a replayed address) is refused in every process.
		if (state && state === flow.state) {
			const use = await hitRateLimit(`eid:state:${createHash('sha256').update(state).digest('hex')}`, { limit: 1, windowSeconds: 30 * 60 })
			if (!use.allowed) throw new EidRefused('state')
		}
		const person = await redeemAnswer(query, flow)
		if (flow.purpose === 'link' || flow.purpose === 'confirm') {
			// Only for the account that asked, if it is still the one signed in here.
			const user = await getOptionalUser(request)
			if (!user || user.id !== flow.userId) throw new EidRefused('state')
			const session = { userId: user.id, sessionId: user.sessionId }
			if (flow.purpose === 'confirm') {
				const token = await confirmWithEid(session, person)
				return redirectSignedIn(request, token, wayOn(user.role, flow.redirectTo ?? '/settings'), 'auth:stepUp.confirmed', clear)
			}
			const linked = await linkEid(user.id, person, { mayAddWayIn: mayAddWayIn(user) })
			const token = await confirmSession(session, 'eid')
			const toast = { type: 'success' as const, key: linked === 'linked' ? 'account:eid.linked' : 'account:eid.alreadyLinked' }
			return redirectSignedIn(request, token, flow.redirectTo ? wayOn(user.role, flow.redirectTo) : '/settings#eid', toast, clear)
		}
		const signIn = await signInWithEid(person, request.headers.get('User-Agent'))
		if (signIn.outcome === 'blocked') throw new DomainError('auth:login.blocked', 403)
		if (signIn.outcome === 'signedIn') {
			const lng = signIn.preferredLanguage ? { 'Set-Cookie': await languageCookie.serialize(signIn.preferredLanguage) } : undefined
			return redirectSignedIn(request, signIn.token, wayOn(signIn.role, flow.redirectTo), 'auth:eid.signedIn', combineHeaders(clear, lng))
		}
		// Nobody has this eID yet: the registration, with the names filled in (or the login page, to link it after a password).
		const pending = { ...person, role: flow.role, redirectTo: flow.redirectTo, verifiedAt: Date.now() }
		return redirect(withRedirectTo(`/register?role=${flow.role}`, flow.redirectTo), {
			headers: { 'Set-Cookie': await eidCookieHeader({ pending }), 'Cache-Control': 'no-store' },
		})
	} catch (error) {
		if (error instanceof EidRefused) {
			// Cancelled at the provider: back where the button was, saying so.
			if (error.reason === 'cancelled') return redirectWithToast(startPage(flow), { type: 'info', key: 'auth:eid.refused.cancelled' }, { request, headers: clear })
			return refuse(`auth:eid.refused.${error.reason}`, eidRefusals[error.reason])
		}
		if (error instanceof DomainError) return refuse(error.key, error.status)
		throw error
	}
}

/** The page the flow began on. */
function startPage(flow: EidFlow | undefined) {
	if (flow?.purpose === 'link' || flow?.purpose === 'confirm') return flow.redirectTo ?? (flow.purpose === 'link' ? '/settings#eid' : '/settings')
	return withRedirectTo(flow?.purpose === 'register' ? `/register?role=${flow.role}` : '/login', flow?.redirectTo)
}

export const meta = routeMeta<typeof loader>()

// A sign-in page: no ads (app/utils/ad-places.ts, decision 0129).
export const handle: AdsHandle = { ads: false }

export default function EidCallbackPage() {
	const { t } = useTranslation('auth')
	const { key, purpose, role, redirectTo } = useLoaderData<typeof loader>()
	const signedIn = purpose === 'link' || purpose === 'confirm'
	const again = withRedirectTo(`/eid/start?purpose=${purpose}${purpose === 'register' ? `&role=${role}` : ''}`, redirectTo)
	return (
		<AuthPanel title={t('eid.refused.title')}>
			<div className="form-alert" role="alert">
				<p>{t(key)}</p>
			</div>
			<p className="form-note">{t('eid.refused.nobody')}</p>
			<div className="eid-choice eid-choice--again">
				<EidButton href={again} label={t('eid.refused.again')} />
			</div>
			<p className="auth__switch">
				{signedIn ? (
					<Link to={redirectTo ?? '/settings'}>{t(purpose === 'link' ? 'eid.refused.toSettings' : 'eid.refused.back')}</Link>
				) : (
					<Link to={withRedirectTo('/login', redirectTo)}>{t('eid.refused.withPassword')}</Link>
				)}
			</p>
		</AuthPanel>
	)
}
