import { CSRFError } from 'remix-utils/csrf/server'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { type Language } from '~/i18n/config'
import { apiError, readPayload } from './api.server'
import { getApiUser, getOptionalUser, isConfirmedAdministrator, type SessionUser } from './auth.server'
import { type Role } from './route-access'
import { checkCsrf } from './csrf.server'
import { methodNotAllowed } from './failures.server'

export type ApiCaller = { user: SessionUser; payload: URLSearchParams | FormData; language: Language }

/**
 * The caller of a signed-in JSON call (notifications, chat): an API client by its Bearer token,
 * or the portal's own scripts by the session cookie plus the page's CSRF token in the body. No
 * caller answers 401 `{ status, message: "Please login to continue!" }` (spec §7); a cookie
 * without a valid CSRF token answers 403 and does nothing; a method other than POST, 405.
 *
 * `role`: only callers of that role, else 403. An administrator's call (`role: 'admin'`) also needs
 * a session confirmed by eID or a passkey within 12 hours, as /admin does (decision 0156): an API
 * token opened by a password (every /admin/api/login token) or a browser session with a password
 * alone answers 403 and does nothing.
 */
export async function authenticateApiCall(request: Request, options: { role?: Role } = {}): Promise<ApiCaller | Response> {
	// Every signed-in call is a POST; the routes' loaders answer a GET with the same 405.
	if (request.method !== 'POST') return methodNotAllowed(request, 'POST')
	const language = await getLanguage(request)
	const t = getFixedT(language, 'auth')
	const bearer = request.headers.get('Authorization')
	const payload = await readPayload(request)
	const refused = (user: SessionUser) => {
		if (!options.role) return null
		if (user.role !== options.role) return apiError(403, t('guard.noPermission'))
		return options.role === 'admin' && !isConfirmedAdministrator(user) ? apiError(403, t('stepUp.apiRefused')) : null
	}
	if (bearer) {
		const user = await getApiUser(request)
		if (!user) return apiError(401, t('api.loginRequired'))
		return refused(user) ?? { user, payload, language }
	}
	const user = await getOptionalUser(request)
	if (!user) return apiError(401, t('api.loginRequired'))
	try {
		await checkCsrf(request, payload)
	} catch (error) {
		if (error instanceof CSRFError) return apiError(403, t('common:errors.formExpired'))
		throw error
	}
	return refused(user) ?? { user, payload, language }
}
