import { redirect, type LoaderFunctionArgs } from 'react-router'
import { getLanguage } from '~/i18n/i18n.server'
import { eidCookieHeader, eidPurposes, type EidPurpose } from '~/identity/eid-cookie.server'
import { authorizationUrl, newFlowSecrets } from '~/identity/oidc.server'
import { getOptionalUser, mayAddWayIn, redirectToOf, requireUser, STEP_UP_PATH, wayOn } from '~/utils/auth.server'
import { getEnv } from '~/utils/env.server'
import { notFound } from '~/utils/errors'
import { logger } from '~/utils/logger.server'
import { withRedirectTo } from '~/utils/safe-redirect'
import { redirectWithToast } from '~/utils/toast.server'

/**
 * GET /eid/start?purpose=login|register|link|confirm (&role=, &redirectTo=): the "Smart-ID,
 * Mobile-ID or ID-card" button (decision 0150); `confirm` is a signed-in person confirming their
 * session with their own eID (the administrator's step-up, deleting an account; decision 0156). A link, not a form: the provider's page is another site, which
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
	const signedInPurpose = purpose === 'link' || purpose === 'confirm'
	const user = signedInPurpose ? await requireUser(request) : await getOptionalUser(request)
	// Signed in already: logging in again has nothing to do.
	if (user && !signedInPurpose) throw redirect(wayOn(user.role, redirectTo))
	// An administrator's session links an eID only once confirmed or through an enrolment link (decision 0156).
	if (user && purpose === 'link' && !mayAddWayIn(user)) {
		return redirectWithToast(STEP_UP_PATH, { type: 'error', key: 'auth:stepUp.linkNeedsConfirmation' }, { request })
	}
	const secrets = await newFlowSecrets()
	try {
		const location = await authorizationUrl({ ...secrets, language: await getLanguage(request), fresh: signedInPurpose })
		const flow = { ...secrets, purpose, role, redirectTo, userId: user?.id ?? null, startedAt: Date.now() } as const
		return redirect(location, { headers: { 'Set-Cookie': await eidCookieHeader({ flow }), 'Cache-Control': 'no-store' } })
	} catch (error) {
		// The provider's discovery failed: back where the button was, saying so.
		logger.warn('eID provider unreachable', { error: error instanceof Error ? error.message : String(error) })
		const back = signedInPurpose ? (redirectTo ?? '/settings') : withRedirectTo(purpose === 'register' ? `/register?role=${role}` : '/login', redirectTo)
		return redirectWithToast(back, { type: 'error', key: 'auth:eid.refused.unavailable' }, { request })
	}
}
