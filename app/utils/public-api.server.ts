import { fallbackLanguage } from '~/i18n/config'
import { getFixedT, getLanguage, getRequestedLanguage } from '~/i18n/i18n.server'
import { failureResponse } from '~/utils/failures.server'
import { apiError } from '~/utils/api.server'
import { loggablePath, logger } from '~/utils/logger.server'

/**
 * What the public JSON API (docs/api.md) shares: absolute URLs (partner sites are on other
 * origins), CORS on every answer, and errors as `{ status, message }` in the language asked for.
 */
/**
 * Caching for answers that are the same for everyone for a short while; a CDN may serve them five
 * minutes longer while it asks again. The server adds the ETag (server/http-cache.ts).
 */
export const shortCache = { 'Cache-Control': 'public, max-age=60, s-maxage=60, stale-while-revalidate=300' }

/**
 * Caching for answers in a language: shared caches may keep them only when the address names the
 * language (?lng=); otherwise the language came from the caller's Accept-Language or cookie and only
 * the caller may keep it, per those headers.
 */
export function languageCache(request: Request, seconds: number): Record<string, string> {
	const named = getRequestedLanguage(request) !== null
	if (named) return { 'Cache-Control': `public, max-age=${seconds}, s-maxage=${seconds}, stale-while-revalidate=${seconds * 10}` }
	return { 'Cache-Control': `private, max-age=${seconds}`, Vary: 'Accept-Language, Cookie' }
}

/**
 * Runs a public API handler: a thrown Response passes through, anything else is logged and
 * answered with a 500 in the caller's language, with CORS, so a partner page sees the error.
 */
export async function publicApi(request: Request, handler: () => Promise<Response>): Promise<Response> {
	try {
		return await handler()
	} catch (error) {
		if (error instanceof Response) return error
		// Not a bug (an unreadable body, the database away): its own 4xx or 503.
		const answer = await failureResponse(error, request).catch(() => null)
		if (answer) return answer
		logger.error('public API call failed', { path: loggablePath(new URL(request.url).pathname), err: error })
		const language = await getLanguage(request).catch(() => fallbackLanguage)
		const t = getFixedT(language, 'public')
		return apiError(500, t('api.failed'), { cors: true })
	}
}

/** 404 in the caller's language. */
export async function notFound(request: Request) {
	const language = await getLanguage(request)
	const t = getFixedT(language, 'public')
	return apiError(404, t('api.notFound'), { cors: true })
}
