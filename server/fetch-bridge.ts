/**
 * Express's request as the Fetch Request React Router reads, and a Fetch Response sent through Express:
 * what `@react-router/express` does inside its handler, written against `@react-router/node`'s public
 * stream helpers, because server/app.ts sets the caching headers between React Router's answer and its
 * sending (server/http-cache.ts) and the adapter's package exports only the whole handler. Unlike the
 * adapter, a text answer is sent whole and compressed here (decision 0158).
 */
import zlib from 'node:zlib'
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from '@react-router/node'
import { type Request, type Response } from 'express'

/** The request as the client sent it; its loaders and actions are aborted if the client goes away first. */
export function fetchRequestOf(req: Request, res: Response): globalThis.Request {
	// The address the client asked for: React Router compares a form post's Origin with it. Never
	// null here: server/app.ts answered a request without one with a 400 before React Router.
	const url = requestUrl(req, trustsProxy(req))!
	const headers = new Headers()
	for (const [name, values] of Object.entries(req.headers)) {
		if (values === undefined) continue
		for (const value of Array.isArray(values) ? values : [values]) headers.append(name, value)
	}
	const controller = new AbortController()
	// 'close' without 'finish': the answer can no longer be sent.
	res.on('close', () => {
		if (!res.writableFinished) controller.abort()
	})
	const init: RequestInit & { duplex?: 'half' } = { method: req.method, headers, signal: controller.signal }
	if (req.method !== 'GET' && req.method !== 'HEAD') {
		init.body = createReadableStreamFromReadable(req)
		init.duplex = 'half'
	}
	return new globalThis.Request(url, init)
}

/** Whether the proxy in front may speak for the client (TRUST_PROXY). */
export function trustsProxy(req: Request) {
	return (req.app.get('trust proxy fn') as (address: string | undefined, hop: number) => boolean)(req.socket.remoteAddress, 0)
}

/** The host and port the client asked for: the proxy's X-Forwarded-Host when it is trusted, else Host. */
function requestHost(req: Request, trusted: boolean) {
	return (trusted ? req.get('x-forwarded-host')?.split(',')[0]?.trim() : undefined) || req.get('host')
}

/** The URL of the request as the client sees it, or null when its host or target cannot be one. */
export function requestUrl(req: Request, trusted: boolean): URL | null {
	const host = requestHost(req, trusted)
	if (!host || !req.originalUrl.startsWith('/')) return null
	try {
		const url = new URL(`${req.protocol}://${host}${req.originalUrl}`)
		// A Host header that is no host is refused too, even when a trusted proxy names another.
		new URL(`http://${req.get('host') ?? ''}${req.originalUrl}`)
		return url
	} catch {
		return null
	}
}

/** What the portal writes itself (pages, JSON, XML, scripts): sent whole, compressed here. Uploaded files and the like stream. */
const WHOLE_TEXT = /^(text\/(?!event-stream)|application\/(json|xml|javascript|manifest\+json)\b|image\/svg\+xml)/i
/** A smaller answer is not worth its headers. */
const COMPRESS_FROM_BYTES = 1024
/** Brotli's speed for a page: the compression middleware's own default. */
const BROTLI_QUALITY = 4
/** The compression middleware's options (server/app.ts): the same threshold and speed as here. */
export const COMPRESSION_OPTIONS = { threshold: COMPRESS_FROM_BYTES, brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } } }
/** Larger text is left to the compression middleware, on libuv's threads, not this request's turn of the event loop. */
const COMPRESS_AT_ONCE_UP_TO_BYTES = 512 * 1024
/** The size hint spares Brotli a window far larger than a page. */
const brotliOptions = (bytes: number) => ({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes } })

/**
 * Sends the answer: its status, every header (a repeated Set-Cookie too) and its body. A text
 * answer the portal wrote (a page, JSON) is read whole and sent in one write, with its length,
 * compressed at once when the browser takes Brotli or gzip: the compression middleware's stream
 * costs a poll of the bell about a millisecond of CPU (three trips to the thread pool, two writes),
 * a fifth of the poll (docs/decisions/0158). Anything else streams, and the middleware compresses
 * what it should.
 */
export async function sendFetchResponse(req: Request, res: Response, answer: globalThis.Response) {
	res.statusMessage = answer.statusText
	res.status(answer.status)
	for (const [name, value] of answer.headers.entries()) res.append(name, value)
	if (!answer.body) return void res.end()
	try {
		const whole = req.method !== 'HEAD' && WHOLE_TEXT.test(answer.headers.get('Content-Type') ?? '')
		if (whole) res.end(compressedAtOnce(req, res, Buffer.from(await answer.arrayBuffer())))
		else await writeReadableStreamToWritable(answer.body, res)
	} catch (error) {
		// The client went away before the end (a closed tab, a cancelled fetch): no one to answer.
		if (!(res.destroyed || res.socket?.destroyed)) throw error
	}
}

/** The body to send, compressed when worth it and taken; its headers set to match. */
function compressedAtOnce(req: Request, res: Response, body: Buffer): Buffer {
	const transformable = !res.getHeader('Content-Encoding') && !/\bno-transform\b/i.test(String(res.getHeader('Cache-Control') ?? ''))
	if (transformable && body.length >= COMPRESS_FROM_BYTES) {
		res.vary('Accept-Encoding')
		// Larger: the compression middleware's stream compresses it (it drops the length itself).
		if (body.length > COMPRESS_AT_ONCE_UP_TO_BYTES) return body
		// Brotli when taken at all, as the compression middleware chooses (browsers list gzip first).
		const encoding = req.acceptsEncodings('br') || req.acceptsEncodings('gzip')
		if (encoding) {
			const compressed = encoding === 'br' ? zlib.brotliCompressSync(body, brotliOptions(body.length)) : zlib.gzipSync(body)
			res.setHeader('Content-Encoding', encoding)
			res.setHeader('Content-Length', compressed.length)
			return compressed
		}
	}
	res.setHeader('Content-Length', body.length)
	return body
}
