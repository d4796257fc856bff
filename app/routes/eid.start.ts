import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { getLanguage } from '~/i18n/i18n.server'
import { eidCookieHeader, eidPurposes, type EidPurpose } from '~/identity/eid-cookie.server'
import { authorizationUrl, newFlowSecrets } from '~/identity/oidc.server'
import { getOptionalUser, redirectToOf, requireUser, wayOn } from '~/utils/auth.server'
import { getEnv } from '~/utils/env.server'
import { notFound } from '~/utils/errors'
import { logger } from '~/utils/logger.server'
import { withRedirectTo } from '~/utils/safe-redirect'
import { redirectWithToast } from '~/utils/toast.server'

/**
 * GET /eid/start?purpose=login|register|link (&role=, &redirectTo=): the "Smart-ID, Mobile-ID or
 * ID-card" button (decision 0150). A link, not a form: the provider's page is another site, which
 * a form's CSP form-action would not let a browser without JavaScript reach. It keeps the flow's
 * state, nonce and PKCE verifier in the eID cookie and sends the person to the provider; the
 * answer comes to /eid/callback. Without OIDC configuration it is not there (404).
 */
export async function loader({ request }: LoaderFunctionArgs) {
	if (!getEnv().eid) throw notFound()
	const query = new URL(request.url).searchParams
	const purpose: EidPurpose = eidPurposes.find((each) => each === query.get('purpose')) ?? 'login'
	const role = query.get('role') === 'workshop' ? 'workshop' : 'customer'
	const redirectTo = redirectToOf(request)
	const user = purpose === 'link' ? await requireUser(request) : await getOptionalUser(request)
	// Signed in already: logging in again has nothing to do.
	if (user && purpose !== 'link') throw redirect(wayOn(user.role, redirectTo))
	const secrets = await newFlowSecrets()
	try {
		const location = await authorizationUrl({ ...secrets, language: await getLanguage(request) })
		const flow = { ...secrets, purpose, role, redirectTo, userId: user?.id ?? null, startedAt: Date.now() } as const
		return redirect(location, { headers: { 'Set-Cookie': await eidCookieHeader({ flow }), 'Cache-Control': 'no-store' } })
	} catch (error) {
		// The provider's discovery failed: back where the button was, saying so.
		logger.warn('eID provider unreachable', { error: error instanceof Error ? error.message : String(error) })
		const back = purpose === 'link' ? '/settings' : withRedirectTo(purpose === 'register' ? `/register?role=${role}` : '/login', redirectTo)
		return redirectWithToast(back, { type: 'error', key: 'auth:eid.refused.unavailable' }, { request })
	}
}
