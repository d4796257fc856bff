/**
 * Every {slug} and {id} in a route is the base64url encoding of the item's public id (a UUID),
 * so a notification's received_id, base64-encoded by any client, lands on the same URL.
 * Decoding is lenient about the alphabet (standard base64 from btoa, with or without padding)
 * and strict about the result: anything that is not a UUID is "not found".
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

export function isUuid(value: string): boolean {
	return UUID.test(value)
}

export function encodeId(publicId: string): string {
	return base64UrlEncode(publicId.toLowerCase())
}

/** The public id behind a slug, or null when the slug does not decode to one. */
export function decodeId(slug: string | undefined | null): string | null {
	if (!slug || slug.length > 64 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(slug)) return null
	const decoded = base64UrlDecode(slug.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''))
	if (decoded === null) return null
	const candidate = decoded.toLowerCase()
	return isUuid(candidate) ? candidate : null
}

// Plain functions rather than Buffer, so the same helper runs in the browser and the widgets.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

function base64UrlEncode(text: string): string {
	const bytes = new TextEncoder().encode(text)
	let out = ''
	for (let i = 0; i < bytes.length; i += 3) {
		const chunk = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0)
		const chars = i + 1 >= bytes.length ? 2 : i + 2 >= bytes.length ? 3 : 4
		for (let c = 0; c < chars; c++) out += ALPHABET[(chunk >> (18 - 6 * c)) & 63]
	}
	return out
}

function base64UrlDecode(encoded: string): string | null {
	if (encoded.length % 4 === 1) return null
	const bytes: number[] = []
	let buffer = 0
	let bits = 0
	for (const char of encoded) {
		const value = ALPHABET.indexOf(char)
		if (value < 0) return null
		buffer = (buffer << 6) | value
		bits += 6
		if (bits >= 8) {
			bits -= 8
			bytes.push((buffer >> bits) & 0xff)
		}
	}
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes))
	} catch {
		return null
	}
}

/** An id sent in a request body: the raw UUID (as the JSON API answers it) or its base64 form. */
export function readBodyId(value: unknown): string | null {
	if (typeof value !== 'string') return null
	const trimmed = value.trim().toLowerCase()
	return isUuid(trimmed) ? trimmed : decodeId(value.trim())
}
