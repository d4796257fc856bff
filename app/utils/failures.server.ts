import { DomainError } from '~/utils/errors'
import { fallbackLanguage, isLanguage, type Language } from '~/i18n/config'
import { getAcceptedLanguage, getFixedT, getLanguage, getRequestedLanguage, languageCookie } from '~/i18n/i18n.server'
import { errorCauses, pgErrorCode } from '~/db/db.server'
import { loggablePath, logger } from './logger.server'
import { retryAfterHeader, STARTING_RETRY_SECONDS, UNAVAILABLE_RETRY_SECONDS } from './http'
import { withApiCors } from './cors'
import { translateMessage } from './messages'

/**
 * Failures that are not bugs, and the answers they get: a body that cannot be read (400, 413,
 * 415), a refused domain move (its status), the database out of reach (503 with Retry-After).
 * Every loader and action is wrapped (server/app.ts) so that such a failure, wherever it starts,
 * is answered in the reader's language instead of a 500 and a stack trace.
 */

/** The request itself is unusable: a broken body, a type we do not read, a body over a limit. */
export class BadRequest extends Error {
	constructor(
		public readonly status: 400 | 413 | 415,
		/** A translation key. */
		public readonly key: string = statusKey(status),
	) {
		super(`bad request: ${key}`)
	}
}

const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'EAI_AGAIN', '57P01', '57P02', '57P03', '53300'])
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused/i

/**
 * Whether an error (or one of its causes) says the database server cannot be reached now: a
 * connection failure the pool marked, or a query of drizzle's that lost its connection. Another
 * network failure (a payment provider's) is not the database's.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
	return fromDatabase(error) && hasConnectionFailure(error)
}

function fromDatabase(error: unknown): boolean {
	for (const current of errorCauses(error)) if (current.fromDatabase === true || current.name === 'DrizzleQueryError') return true
	return false
}

function hasConnectionFailure(error: unknown): boolean {
	for (const current of errorCauses(error)) {
		const { code, message } = current
		if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true
		if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true
		// AggregateError: pg tries each address of a host name.
		if (current instanceof AggregateError && current.errors.some(hasConnectionFailure)) return true
	}
	return false
}

const isApi = (request: Request) => new URL(request.url).pathname.startsWith('/admin/api/')

type Answer = { status: number; key: string; params?: Record<string, string | number>; retryAfterSeconds?: number }

/**
 * A refusal in the reader's language: for the JSON API `{ status, message }` (with CORS, like
 * every API answer); for a page, the text (`as: 'text'`, which the error boundary shows) or a
 * short page of its own (`as: 'page'`, for failures found before React Router runs).
 */
async function refusal(request: Request, answer: Answer, as: 'text' | 'page', nonce?: string): Promise<Response> {
	const language = await getLanguage(request)
	const t = getFixedT(language)
	const text = answer.params ? t(answer.key, answer.params) : translateMessage(t, answer.key)
	const headers = new Headers({ 'Cache-Control': 'no-store', ...(answer.retryAfterSeconds ? retryAfterHeader(answer.retryAfterSeconds) : {}) })
	const { status } = answer
	if (isApi(request)) {
		headers.set('Content-Type', 'application/json; charset=utf-8')
		withApiCors(headers)
		return new Response(JSON.stringify({ status, message: text }), { status, headers })
	}
	if (as === 'text') {
		headers.set('Content-Type', 'text/plain; charset=utf-8')
		return new Response(text, { status, headers })
	}
	const title = status === 503 ? t('errors.unavailableTitle') : status === 403 ? t('errors.forbiddenTitle') : t('errors.requestFailedTitle')
	headers.set('Content-Type', 'text/html; charset=utf-8')
	const body = `<p class="code">${status}</p><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><p><a href="/">${escapeHtml(t('errors.backHome'))}</a></p>`
	return new Response(shortPage({ language, title, body, nonce }), { status, headers })
}

/** A page of its own, outside React Router, in the portal's look: its styles carry the response's CSP nonce, and nothing runs. */
function shortPage({ language, title, body, nonce, head = '' }: { language: Language; title: string; body: string; nonce?: string; head?: string }) {
	const style = nonce ? `<style nonce="${escapeHtml(nonce)}">${PAGE_STYLE}</style>` : ''
	return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${head}<title>${escapeHtml(title)}</title>${style}</head><body><main>${body}</main></body></html>`
}

/**
 * What every request gets while the portal starts (server/app.ts; a first start migrates and loads
 * the demo data, decision 0130): 503 with Retry-After, so that programs wait, and for people a short
 * page that says so and reloads itself (a meta refresh: no script). No cookie is read but the
 * language's, nothing is stored; the language is ?lng=, the portal's cookie, then the browser's
 * Accept-Language (this page has no language selector), then Estonian.
 */
export async function startingResponse(request: Request, options: { nonce?: string } = {}): Promise<Response> {
	const remembered: unknown = await languageCookie.parse(request.headers.get('Cookie')).catch(() => null)
	const language = getRequestedLanguage(request) ?? (isLanguage(remembered) ? remembered : null) ?? getAcceptedLanguage(request) ?? fallbackLanguage
	const t = getFixedT(language)
	const title = t('errors.startingTitle')
	const text = t('errors.startingText')
	const headers = new Headers({ 'Cache-Control': 'no-store', Vary: 'Accept-Language, Cookie', ...retryAfterHeader(STARTING_RETRY_SECONDS) })
	if (isApi(request)) {
		headers.set('Content-Type', 'application/json; charset=utf-8')
		withApiCors(headers)
		return new Response(JSON.stringify({ status: 503, message: text }), { status: 503, headers })
	}
	headers.set('Content-Type', 'text/html; charset=utf-8')
	const head = `<meta http-equiv="refresh" content="${STARTING_RETRY_SECONDS}"><meta name="robots" content="noindex">`
	const body = `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`
	return new Response(shortPage({ language, title, body, nonce: options.nonce, head }), { status: 503, headers })
}

/** The portal's colours and type for the one page React Router does not render (its stylesheet may be out of reach too). */
const PAGE_STYLE =
	'body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f6f8fb;color:#2b3445;' +
	"font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif}" +
	'main{box-sizing:border-box;max-width:34rem;margin:1rem;padding:2rem;background:#fff;border-radius:12px;' +
	'box-shadow:0 1px 2px rgb(20 33 61/6%),0 4px 16px rgb(20 33 61/6%);overflow-wrap:anywhere}' +
	'.code{margin:0;color:#5d6878;font-weight:600}h1{margin:.25rem 0 .75rem;color:#14213d;font-size:1.5rem}' +
	'a{display:inline-block;padding:.6rem 1.1rem;border-radius:8px;background:#0b3d91;color:#fff;text-decoration:none;font-weight:600}'

/**
 * The answer to a failure found before React Router runs (server/app.ts): a short translated page
 * (styled with the response's CSP nonce), or the API's JSON.
 */
export function errorResponse(
	request: Request,
	status: number,
	options: { retryAfterSeconds?: number; key?: string; nonce?: string } = {},
): Promise<Response> {
	return refusal(request, { status, key: options.key ?? statusKey(status), retryAfterSeconds: options.retryAfterSeconds }, 'page', options.nonce)
}

function statusKey(status: number) {
	if (status === 403) return 'common:errors.formExpired'
	if (status === 404) return 'common:errors.notFoundText'
	if (status === 413) return 'common:errors.tooLarge'
	if (status === 415) return 'common:errors.unsupportedType'
	if (status === 503) return 'common:errors.unavailableText'
	return 'common:errors.badRequest'
}

/**
 * A loader's or action's failure as the Response it deserves, or null when it is a bug (the
 * caller lets it be the 500 it is). The Response is thrown: React Router shows it in the error boundary
 * of a page (which knows these statuses) and returns it as-is from the JSON API.
 */
export async function failureResponse(error: unknown, request: Request): Promise<Response | null> {
	if (error instanceof BadRequest) return answer(request, error.status, error.key)
	if (error instanceof DomainError) return answer(request, error.status, error.key, error.params, domainRetryAfterSeconds(error))
	// Input the database refused (class 22: a value it cannot store; 23503: an unknown reference)
	// should have been stopped by a schema or a domain check. Answer it as the input error it is,
	// and log it so the missing check gets written.
	const code = pgErrorCode(error)
	if (code && (code.startsWith('22') || code === '23503')) {
		logger.warn('input reached the database unchecked', { code, path: loggablePath(new URL(request.url).pathname) })
		return answer(request, code === '23503' ? 422 : 400, code === '23503' ? 'common:validation.unknownChoice' : 'common:errors.badRequest')
	}
	if (isDatabaseUnavailable(error)) {
		logger.warn('database unavailable', { err: error })
		return answer(request, 503, 'common:errors.unavailableText', undefined, UNAVAILABLE_RETRY_SECONDS)
	}
	return null
}

/**
 * When a refused domain move may be tried again: after a rate limit's `seconds` (a limit a minute)
 * or `minutes`, or a busy moment's few seconds.
 */
function domainRetryAfterSeconds(error: DomainError): number | undefined {
	if (error.status === 429) return error.params?.seconds !== undefined ? Number(error.params.seconds) : Number(error.params?.minutes ?? 1) * 60
	return error.status === 503 ? 5 : undefined
}

/** The `Retry-After` header of a refused domain move, when it has one. */
export function domainErrorHeaders(error: DomainError): Record<string, string> | undefined {
	const seconds = domainRetryAfterSeconds(error)
	return seconds ? retryAfterHeader(seconds) : undefined
}

export type HttpMethod = 'GET' | 'POST'

/**
 * 405 for a method a route does not take, with `Allow`: every route that answers only some
 * methods (a GET-only call's action, a POST-only call's loader, a resource without an action)
 * answers the others with this. Under the JSON API `{ status, message }` with CORS, and `OPTIONS`
 * (server/app.ts answers the preflight) in `Allow`; elsewhere the text, like any refusal.
 */
export async function methodNotAllowed(request: Request, allow: HttpMethod | readonly HttpMethod[]): Promise<Response> {
	const api = isApi(request)
	const methods = [...(typeof allow === 'string' ? [allow] : allow), ...(api ? ['OPTIONS'] : [])]
	const response = await refusal(request, { status: 405, key: api ? 'public:api.methodNotAllowed' : 'common:errors.methodNotAllowed' }, 'text')
	response.headers.set('Allow', methods.join(', '))
	return response
}

function answer(request: Request, status: number, key: string, params?: Record<string, string | number>, retryAfterSeconds?: number) {
	return refusal(request, { status, key, params, retryAfterSeconds }, 'text')
}

function escapeHtml(text: string) {
	return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}
