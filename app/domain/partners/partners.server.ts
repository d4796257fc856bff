import { createHash, randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { valueCache } from '~/caching/value-cache.server'
import { db } from '~/db/db.server'
import { partners } from '~/db/schema'
import { DomainError } from '~/utils/errors'
import { hitRateLimit } from '~/utils/rate-limit.server'
import { PARTNER_KEY_HEADER, PARTNER_KEY_PARAM, PARTNER_KEY_PREFIX } from './partners'

/** A partner site whose key a call carried, allowed from the call's origin. */
export type PartnerAccess = { id: string; name: string; rateLimitPerMinute: number }

type KeptPartner = { found: false } | { found: true; id: string; name: string; allowedOrigins: string[]; rateLimitPerMinute: number; revoked: boolean }

// Every widget call with a key asks: kept a minute, emptied in every process when a partner changes.
const byKeyHash = valueCache<KeptPartner>('partners', { ttlMs: 60_000, max: 1_000 })

export const hashPartnerKey = (key: string) => createHash('sha256').update(key).digest('hex')

/** A new key: what the partner is given once, what is stored (its hash) and what is shown (its prefix). */
export function newPartnerKey(): { key: string; keyHash: string; keyPrefix: string } {
	const key = `${PARTNER_KEY_PREFIX}${randomBytes(24).toString('base64url')}`
	return { key, keyHash: hashPartnerKey(key), keyPrefix: key.slice(0, PARTNER_KEY_PREFIX.length + 6) }
}

/** The key a call carries: the `X-Partner-Key` header, or `?partner=` (no preflight for a GET). */
export function partnerKeyOf(request: Request): string | null {
	const header = request.headers.get(PARTNER_KEY_HEADER)?.trim()
	if (header) return header
	const param = new URL(request.url).searchParams.get(PARTNER_KEY_PARAM)?.trim()
	return param || null
}

// One answer per request, however many places ask: the limit counts a call once.
const answered = new WeakMap<Request, Promise<PartnerAccess | null>>()

/**
 * The partner whose key this call carries, or null for a call without a key (the public widgets and
 * API work without one, under the default limits). A key that is unknown or revoked, or used from
 * an origin its partner did not list, is refused (403): a key copied onto another site is useless.
 * A call over its partner's calls a minute (all its visitors together, across every process) is
 * refused with 429 and the seconds until the minute is over (decision 0154).
 */
export function partnerOf(request: Request): Promise<PartnerAccess | null> {
	let answer = answered.get(request)
	if (!answer) {
		answer = findPartner(request)
		answered.set(request, answer)
	}
	return answer
}

async function findPartner(request: Request): Promise<PartnerAccess | null> {
	const key = partnerKeyOf(request)
	if (!key) return null
	// A key is ASCII and short: anything else is no key of ours, and never reaches a hash or a query.
	if (key.length > 100 || !key.startsWith(PARTNER_KEY_PREFIX)) throw new DomainError('widgets:partnerKey.refused', 403)
	const keyHash = hashPartnerKey(key)
	const partner = await byKeyHash.get(keyHash, async () => {
		const [row] = await db.select().from(partners).where(eq(partners.keyHash, keyHash)).limit(1)
		return row
			? { found: true as const, id: row.id, name: row.name, allowedOrigins: row.allowedOrigins, rateLimitPerMinute: row.rateLimitPerMinute, revoked: row.revokedAt !== null }
			: { found: false as const }
	})
	if (!partner.found || partner.revoked) throw new DomainError('widgets:partnerKey.refused', 403)
	// Browsers send Origin on cross-origin calls (and on every POST); a call without one is not a browser's.
	const origin = request.headers.get('Origin')
	if (!origin || !partner.allowedOrigins.includes(origin)) throw new DomainError('widgets:partnerKey.wrongOrigin', 403)
	const limit = await hitRateLimit(`partner:${partner.id}`, { limit: partner.rateLimitPerMinute, windowSeconds: 60 })
	if (!limit.allowed) throw new DomainError('widgets:partnerKey.tooMany', 429, { seconds: Math.max(1, limit.retryAfterSeconds) })
	return { id: partner.id, name: partner.name, rateLimitPerMinute: partner.rateLimitPerMinute }
}

/**
 * The caching headers of a public call that takes a key (decision 0154). Every answer varies with
 * `X-Partner-Key`, so no cache hands a keyless answer to a call with the key in that header. A
 * call with a key is answered `private, no-cache`: no shared cache keeps it (a copy filled from one
 * origin would answer another's call past the origin check, the limit and the count), and the
 * visitor's browser asks again each time (an ETag makes that a 304), so every view is counted.
 */
export function partnerCaching(partner: PartnerAccess | null, headers: Record<string, string>): Record<string, string> {
	const vary = [headers.Vary, PARTNER_KEY_HEADER].filter(Boolean).join(', ')
	if (!partner) return { ...headers, Vary: vary }
	return { ...headers, 'Cache-Control': 'private, no-cache', Vary: vary }
}
