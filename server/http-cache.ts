/**
 * HTTP caching of what Remix answers, in one place (issue 17, part 5; docs/decisions/0085):
 *
 * - personal answers are never kept: one that sets a cookie, and any page (HTML or its single-fetch
 *   `.data`) asked for with a session or not shared (app/utils/http-cache.ts), is `private, no-store`;
 * - a shared page gets `public, max-age=0, s-maxage=…, stale-while-revalidate=…` and `Vary: Cookie`
 *   (its language may come from the `lng` cookie);
 * - every cacheable text answer of a GET or HEAD (shared pages, the public JSON API, the sitemap…)
 *   gets a weak ETag over its body, and a matching If-None-Match gets a 304 without a body.
 *
 * A page's CSP nonce is fresh per request, but a cache that revalidates keeps its stored body and
 * takes the headers of the 304, and a CDN answers 304s with its own stored headers: a body and a
 * Content-Security-Policy from two different renders would block the page's scripts. So a shared
 * page's nonce is derived from the page itself: rendered with a random one, hashed without it, then
 * given the nonce derived from that hash. The same page always has the same nonce, the ETag and
 * the CSP, whichever process or cache answers; a different page (anything injected) has another,
 * which nobody can put in the page beforehand.
 */
import crypto from 'node:crypto'
import { type Request, type Response } from 'express'
import { isSharedRead, PERSONAL_CACHE, SHARED_PAGE_CACHE } from '../app/utils/http-cache'

/** The bytes of a CSP nonce, the request's (server/app.ts) and a shared page's alike. */
export const NONCE_BYTES = 16

/** Answers worth an ETag: text the server makes (not uploaded files, which stream and keep their own headers). */
const HASHABLE = /^(text\/|application\/(json|xml|javascript)\b)/i
/** What a 304 repeats of the full answer (RFC 9110 §15.4.5), besides the headers Express set before React Router. */
const NOT_MODIFIED_HEADERS = ['cache-control', 'etag', 'vary', 'expires', 'content-location', 'access-control-allow-origin']

/** The policies that name the page's nonce. */
const CSP_HEADERS = ['Content-Security-Policy', 'Content-Security-Policy-Report-Only']

const sha256 = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest()

/** The answer React Router gave, with its caching headers; its body read when an ETag needs it. */
export async function withHttpCaching(req: Request, res: Response, answer: globalThis.Response): Promise<globalThis.Response> {
	if (req.method !== 'GET' && req.method !== 'HEAD') return answer
	const headers = new Headers(answer.headers)
	// Express's own reading of the path: a target like `//a:99999/` is no URL to `new URL`.
	const pathname = req.path
	const html = /^text\/html\b/i.test(headers.get('Content-Type') ?? '')
	const page = html || pathname.endsWith('.data')
	const rebuilt = (body: BodyInit | null, status = answer.status) => new globalThis.Response(body, { status, statusText: answer.statusText, headers })

	const personal = headers.has('Set-Cookie') || (page && !isSharedRead(req.method, pathname, req.get('cookie')))
	if (personal || (page && answer.status !== 200)) {
		headers.set('Cache-Control', PERSONAL_CACHE)
		headers.delete('ETag')
		return rebuilt(answer.body)
	}
	if (page) {
		headers.set('Cache-Control', SHARED_PAGE_CACHE)
		headers.append('Vary', 'Cookie')
	}
	const cacheControl = headers.get('Cache-Control')
	// Nothing to tag: a HEAD (no body to hash: its GET carries the tag), another status, an answer
	// nobody may keep (the bell's poll), or not text. Only a page's headers were changed above.
	if (req.method === 'HEAD' || answer.status !== 200 || !cacheControl || /no-store/i.test(cacheControl) || !HASHABLE.test(headers.get('Content-Type') ?? '')) {
		return page ? rebuilt(answer.body) : answer
	}

	const body = Buffer.from(await answer.arrayBuffer())
	let digest: Buffer
	const nonce = res.locals.cspNonce as string | undefined
	if (html && nonce) {
		// On the bytes, not a string: the nonce is ASCII, so its places in the UTF-8 body are its places in the text.
		const places = placesOf(body, nonce)
		const hash = crypto.createHash('sha256')
		let from = 0
		for (const at of places) {
			hash.update(body.subarray(from, at))
			from = at + nonce.length
		}
		digest = hash.update(body.subarray(from)).digest()
		const pageNonce = sha256(Buffer.concat([Buffer.from('csp-nonce\n'), digest])).subarray(0, NONCE_BYTES).toString('base64')
		// As long as the request's nonce (NONCE_BYTES in base64): written over it in place, the body's length unchanged.
		for (const at of places) body.write(pageNonce, at, 'latin1')
		for (const name of CSP_HEADERS) {
			const policy = res.getHeader(name)
			if (typeof policy === 'string') res.setHeader(name, policy.replaceAll(`'nonce-${nonce}'`, `'nonce-${pageNonce}'`))
		}
		res.locals.cspNonce = pageNonce
	} else {
		digest = sha256(body)
	}
	// Weak: the same page compressed or not is the same page (compression happens after this).
	const etag = `W/"${digest.subarray(0, 18).toString('base64url')}"`
	headers.set('ETag', etag)

	if (matches(req.get('if-none-match'), etag)) return notModified(headers)
	return rebuilt(body)
}

/** Where `text` (ASCII) starts in `body`, each place after the end of the one before. */
function placesOf(body: Buffer, text: string) {
	const places: number[] = []
	for (let at = body.indexOf(text); at >= 0; at = body.indexOf(text, at + text.length)) places.push(at)
	return places
}

/** A 304 with only what it repeats of the full answer. */
function notModified(headers: Headers) {
	for (const name of [...headers.keys()]) if (!NOT_MODIFIED_HEADERS.includes(name)) headers.delete(name)
	return new globalThis.Response(null, { status: 304, headers })
}

/** If-None-Match by weak comparison (RFC 9110 §13.1.2): `*`, or one of the listed tags. */
function matches(ifNoneMatch: string | undefined, etag: string) {
	if (!ifNoneMatch) return false
	if (ifNoneMatch.trim() === '*') return true
	const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
	return ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag))
}
