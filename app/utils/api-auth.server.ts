import { CSRFError } from 'remix-utils/csrf/server'
import { DomainError } from '~/domain/errors'
import { getFixedT, getLanguage } from '~/i18n/i18n.server'
import { type Language } from '~/i18n/config'
import { apiError, readPayload } from './api.server'
import { getApiUser, getOptionalUser, type SessionUser } from './auth.server'
import { checkCsrf } from './csrf.server'
import { message, translateMessage } from './messages'

export type ApiCaller = { user: SessionUser; payload: URLSearchParams | FormData; language: Language }

/**
 * The caller of a signed-in JSON call (notifications, chat): an API client by its Bearer token,
 * or the portal's own scripts by the session cookie plus the page's CSRF token in the body. No
 * caller answers 401 `{ status, message: "Please login to continue!" }` (spec §7); a cookie
 * without a valid CSRF token answers 403 and does nothing.
 */
export async function authenticateApiCall(request: Request): Promise<ApiCaller | Response> {
	const language = await getLanguage(request)
	const t = getFixedT(language, 'auth')
	const bearer = request.headers.get('Authorization')
	const payload = await readPayload(request)
	if (bearer) {
		const user = await getApiUser(request)
		return user ? { user, payload, language } : apiError(401, t('api.loginRequired'))
	}
	const user = await getOptionalUser(request)
	if (!user) return apiError(401, t('api.loginRequired'))
	try {
		await checkCsrf(request, payload)
	} catch (error) {
		if (error instanceof CSRFError) return apiError(403, t('common:errors.formExpired'))
		throw error
	}
	return { user, payload, language }
}

/** A refusal of the domain as the API's `{ status, message }` in the caller's language. */
export function apiDomainError(error: unknown, language: Language): Response {
	if (!(error instanceof DomainError)) throw error
	const t = getFixedT(language, 'common')
	return apiError(error.status, translateMessage(t, message(error.key, error.params)))
}
