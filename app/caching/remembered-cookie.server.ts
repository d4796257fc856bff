import { LRUCache } from 'lru-cache'
import { type Cookie } from 'react-router'
import { cacheLookups } from '~/observability/metrics.server'

/** Enough for the browsers a web process serves between two polls of each (docs/scaling.md), in a few MB. */
const MAX_ENTRIES = 20_000
const MAX_BYTES = 16 * 1024 * 1024

/**
 * A signed cookie whose verified values are remembered: React Router checks a signature with
 * Web Crypto (a key import and an HMAC on the thread pool) on every parse, and the same browser
 * sends the same signed value with every request (its bell polls every 15 s). The same header
 * always parses to the same value under the same secrets, so a verified one is kept, frozen, in an
 * LRU bounded in entries and bytes; a forged or changed header is a new key and is checked in full.
 * Serializing, and parsing with options, go to the cookie itself. Not a `valueCache`: what it keeps
 * is a pure function of the header, so nothing is ever to be forgotten (no bus, no lifetime).
 */
export function rememberedCookie(cookie: Cookie): Cookie {
	const parsed = new LRUCache<string, { value: unknown }>({
		max: MAX_ENTRIES,
		maxSize: MAX_BYTES,
		sizeCalculation: (_entry, header) => header.length * 2 + 64,
	})
	return {
		get name() {
			return cookie.name
		},
		get isSigned() {
			return cookie.isSigned
		},
		get expires() {
			return cookie.expires
		},
		serialize: (value, options) => cookie.serialize(value, options),
		async parse(header, options) {
			if (!header || options) return cookie.parse(header, options)
			const kept = parsed.get(header)
			cacheLookups.inc({ cache: `signed-cookie:${cookie.name}`, result: kept ? 'hit' : 'miss' })
			if (kept) return kept.value
			const value = Object.freeze(await cookie.parse(header))
			parsed.set(header, { value })
			return value
		},
	}
}
