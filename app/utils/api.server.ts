import { type TFunction } from '~/i18n/translator'
import { BadRequest } from './failures.server'
import { withApiCors } from './cors'
import { translateMessage } from './messages'
import { readForm, readText } from '~/uploads/multipart.server'

/**
 * The JSON API under /admin/api (spec §7): JSON in (or form data), JSON out, texts in the
 * language asked for (?lng=, else the cookie, else Estonian). Public calls answer CORS requests
 * from any origin without credentials; server/index.ts answers the preflight.
 */
export const API_PREFIX = '/admin/api'

export function apiJson(body: unknown, init: { status?: number; headers?: HeadersInit; cors?: boolean } = {}) {
	const headers = new Headers(init.headers)
	headers.set('Content-Type', 'application/json; charset=utf-8')
	if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store')
	if (init.cors) {
		withApiCors(headers)
		// Added to what the answer varies with already (the language's headers, say).
		headers.append('Vary', 'Origin')
	}
	return new Response(JSON.stringify(body), { status: init.status ?? 200, headers })
}

/** `{ status, message }` with the same HTTP status. */
export function apiError(status: number, message: string, init: { cors?: boolean; headers?: HeadersInit } = {}) {
	return apiJson({ status, message }, { ...init, status })
}

/**
 * `{ status: 422, message, errors: { field: [text] } }`: the zod errors of a form schema
 * (translation keys) in the reader's language.
 */
export function apiValidationError(
	t: TFunction,
	errors: Record<string, string[] | null | undefined> | undefined,
	init: { cors?: boolean } = {},
) {
	const translated = Object.fromEntries(
		Object.entries(errors ?? {})
			.filter(([, list]) => list?.length)
			.map(([field, list]) => [field || 'form', list!.map((entry) => translateMessage(t, entry))]),
	)
	return apiJson({ status: 422, message: t('validation.invalid'), errors: translated }, { ...init, status: 422 })
}

/**
 * The request body as form data, whether it came as JSON or as a form, so one zod schema
 * (parseWithZod) reads both. A body that is neither is empty.
 */
export async function readPayload(request: Request): Promise<URLSearchParams | FormData> {
	const type = request.headers.get('Content-Type') ?? ''
	if (type.includes('application/json')) {
		const body = parseJson(await readText(request))
		const params = new URLSearchParams()
		if (body && typeof body === 'object' && !Array.isArray(body)) {
			for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
				for (const item of Array.isArray(value) ? value : [value]) {
					if (item === null || item === undefined) continue
					params.append(key, typeof item === 'object' ? JSON.stringify(item) : String(item))
				}
			}
		}
		return params
	}
	if (type.includes('multipart/form-data') || type.includes('application/x-www-form-urlencoded')) {
		// A malformed body (a multipart without its boundary, say) reads as empty: a 4xx, never a 500.
		// One over the size limit is refused (413) by the reader.
		return readForm(request).catch((error: unknown) => {
			if (error instanceof BadRequest && error.status === 413) throw error
			return new URLSearchParams()
		})
	}
	return new URLSearchParams()
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text)
	} catch {
		return null
	}
}
