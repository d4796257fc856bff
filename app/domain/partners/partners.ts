import * as z from 'zod/mini'
import { type CountKind } from '~/counting/kinds'
import { message } from '~/utils/messages'
import { messages, requiredText } from '~/utils/validation'

/** The partner key's places in a call (docs/widgets.md, docs/api.md). */
export const PARTNER_KEY_HEADER = 'X-Partner-Key'
export const PARTNER_KEY_PARAM = 'partner'
/** Every key starts so: a key pasted in the wrong place is recognisable. */
export const PARTNER_KEY_PREFIX = 'pk_'

/**
 * A partner's limits (decision 0154): calls a minute, all its visitors together (a busy partner
 * page asks a few calls per visitor: its widget's filters, a list, a page of reviews); and how many
 * origins one key may list (a site's www and bare host, its staging, a few brands).
 */
export const PARTNER_LIMITS = { minPerMinute: 10, maxPerMinute: 10_000, defaultPerMinute: 600, maxOrigins: 20 } as const

/** Host names that are the visitor's own machine: plain http is allowed there, for a partner's development. */
const LOOPBACK_HOST = /^(localhost|[a-z0-9-]+(\.[a-z0-9-]+)*\.localhost|127\.0\.0\.1|\[::1\])$/

/**
 * An origin as a browser sends it in `Origin` ("https://www.example.ee"), from what an
 * administrator typed (a trailing slash is fine), or null when it is none: a path, a query, a
 * fragment, credentials or a wildcard, or http anywhere but on the machine itself (localhost,
 * 127.0.0.1, ::1).
 */
export function partnerOrigin(text: string): string | null {
	let url: URL
	try {
		url = new URL(text.trim())
	} catch {
		return null
	}
	if (url.username || url.password || url.search || url.hash || url.pathname !== '/') return null
	// `new URL` keeps `?` and `#` with nothing after them out of search and hash: refuse them as typed.
	if (/[?#]/.test(text)) return null
	// A host name (punycode, as browsers send it) or an address: no wildcard, which no browser sends.
	if (!/^(([a-z0-9-]+\.)*[a-z0-9-]+|\[[0-9a-f:.]+\])$/.test(url.hostname)) return null
	if (url.protocol === 'https:') return url.origin
	if (url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname)) return url.origin
	return null
}

/**
 * The allowed origins field: one origin a line (blank lines ignored), each as `partnerOrigin`
 * reads it, without repeats, at least one and at most PARTNER_LIMITS.maxOrigins. The first line
 * that is no origin is the field's error, naming it.
 */
const originList = () =>
	z.pipe(
		z.string({ error: messages.required }).check(z.maxLength(4_000, messages.tooLong)),
		z.transform((text: string, context) => {
			const lines = text
				.split(/\r?\n/)
				.map((line) => line.trim())
				.filter(Boolean)
			const origins: string[] = []
			for (const line of lines) {
				const origin = partnerOrigin(line)
				if (!origin) {
					context.issues.push({ code: 'custom', message: message('admin:partners.originInvalid', { origin: line.slice(0, 100) }), input: text })
					return z.NEVER
				}
				if (!origins.includes(origin)) origins.push(origin)
			}
			if (!origins.length) context.issues.push({ code: 'custom', message: 'admin:partners.originsRequired', input: text })
			else if (origins.length > PARTNER_LIMITS.maxOrigins) {
				context.issues.push({ code: 'custom', message: message('admin:partners.tooManyOrigins', { max: PARTNER_LIMITS.maxOrigins }), input: text })
			}
			return origins
		}),
	)

const limitRange = message('admin:partners.limitRange', { min: PARTNER_LIMITS.minPerMinute, max: PARTNER_LIMITS.maxPerMinute })

/** Issuing a key and changing a partner: the same fields (docs/decisions/0154). */
export const PartnerSchema = z.object({
	name: requiredText(100),
	origins: originList(),
	rateLimitPerMinute: z.coerce
		.number({ error: limitRange })
		.check(z.int(limitRange), z.minimum(PARTNER_LIMITS.minPerMinute, limitRange), z.maximum(PARTNER_LIMITS.maxPerMinute, limitRange)),
})
export type PartnerInput = z.infer<typeof PartnerSchema>

/** The origins as the form shows them: one a line. */
export const originsText = (origins: readonly string[]) => origins.join('\n')

/** The columns of a partner's figures (/admin/partners/{id}), in order: what its key brought. */
export const partnerFigureKinds = ['widget-view', 'search', 'search-appearance', 'widget-profile-view', 'contact-message', 'widget-request'] as const satisfies readonly CountKind[]
export type PartnerFigureKind = (typeof partnerFigureKinds)[number]

/** How many days of figures a partner's page shows, today included. */
export const PARTNER_FIGURE_DAYS = 30

/** A calendar day ('YYYY-MM-DD') `offset` days later (earlier when negative). */
export function shiftDay(day: string, offset: number): string {
	const date = new Date(`${day}T12:00:00Z`)
	date.setUTCDate(date.getUTCDate() + offset)
	return date.toISOString().slice(0, 10)
}
