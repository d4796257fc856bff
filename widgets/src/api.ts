import { type ContactInput } from '~/domain/messaging/contact'
import { type FilterOptions, type Paged, type PublicReview, type WorkshopCard, type WorkshopListQuery, type WorkshopProfile, workshopListParams } from '~/domain/directory/workshops'
import { PARTNER_KEY_PARAM } from '~/domain/partners/partners'
import { type Language } from '~/i18n/config'

/**
 * The portal's public JSON API (docs/api.md), the same calls the portal's pages make. Texts come
 * in the language asked for with ?lng=; no cookies are sent (the calls are public and CORS `*`).
 */
/** A free start time (issue 33) and its link: the portal's request form with it filled in, by way of the log-in. */
export type ApiFreeTime = { startsAt: string; url: string }
export type ApiWorkshopCard = Omit<WorkshopCard, 'nextFreeAt'> & { url: string; nextFree: ApiFreeTime | null }
export type ApiWorkshopDetails = {
	workshop: Omit<WorkshopProfile, 'nextFreeTimes'> & { url: string; nextFreeTimes: ApiFreeTime[] }
	rating: { average: number; count: number }
	reviews: Paged<PublicReview>
}
/** `items` in the order the sort names; `promoted`: the paid workshops, to be shown apart as an ad (docs/api.md). */
export type WorkshopList = Paged<ApiWorkshopCard> & { promoted: ApiWorkshopCard[] }
export type Filters = FilterOptions & { sorts: string[] }

/** A refused or failed call: the server's message (in the reader's language) and field errors. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly errors: Record<string, string[]> = {},
	) {
		super(message)
	}
}

export type Api = ReturnType<typeof createApi>

/** `partnerKey`: the partner site's key (data-partner-key), sent with every call as `?partner=` (a GET stays a simple request). */
export function createApi(origin: string, language: Language, partnerKey?: string) {
	const base = `${origin.replace(/\/+$/, '')}/admin/api`
	async function call<T>(path: string, params: URLSearchParams, init: RequestInit = {}, signal?: AbortSignal): Promise<T> {
		params.set('lng', language)
		if (partnerKey) params.set(PARTNER_KEY_PARAM, partnerKey)
		let response: Response
		try {
			response = await fetch(`${base}${path}?${params}`, { ...init, signal, credentials: 'omit', headers: { Accept: 'application/json', ...init.headers } })
		} catch (error) {
			if (signal?.aborted) throw error
			throw new ApiError(0, '')
		}
		const body = (await response.json().catch(() => null)) as { data?: T; message?: string; errors?: Record<string, string[]> } | null
		if (!response.ok || !body) throw new ApiError(response.status, body?.message ?? '', body?.errors)
		return (body.data ?? body) as T
	}
	return {
		/** The portal's own pages, for links (full profile, registering). */
		portal: (path: string) => `${origin.replace(/\/+$/, '')}${path}`,
		filters: (signal?: AbortSignal) => call<Filters>('/workshop-filters', new URLSearchParams(), {}, signal),
		list: (query: Partial<WorkshopListQuery>, signal?: AbortSignal) => call<WorkshopList>('/workshop-list', workshopListParams(query), {}, signal),
		details: (id: string, page: number, signal?: AbortSignal) =>
			call<ApiWorkshopDetails>(`/workshop-details/${encodeURIComponent(id)}`, new URLSearchParams(page > 1 ? { page: String(page) } : {}), {}, signal),
		/** `name__confirm` is the bot trap: people never see it, so it stays empty. */
		contact: (input: ContactInput & { name__confirm: string }) =>
			call<{ status: number; message: string }>('/contact-us', new URLSearchParams(), {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(input),
			}),
		/** The "ask for an offer" widget: multipart (the photos ride along), so no preflight either. */
		request: (form: FormData) => call<{ status: number; message: string }>('/widget-request', new URLSearchParams(), { method: 'POST', body: form }),
	}
}
