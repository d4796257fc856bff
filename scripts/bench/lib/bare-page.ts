import http from 'node:http'
import { type AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'

/**
 * A page's HTML without what runs: script elements (JSON-LD and other JSON data stay: they run
 * nothing) and module preloads. The lighthouse suite's baseline: what markup and styles alone score.
 */
export function withoutJavaScript(html: string) {
	return html
		.replace(/<script\b(?![^>]*type="application\/(?:ld\+)?json")[^>]*>[\s\S]*?<\/script>/gi, '')
		.replace(/<link\b[^>]*rel="modulepreload"[^>]*>/gi, '')
}

/**
 * One of the portal's answers, kept to be sent again from memory: its status, its headers less
 * those about the bytes on the wire (length, encoding, connection, date), and its body decoded.
 * `compressed`: the portal compressed it (so a client that accepts gzip gets it gzipped).
 */
export type Answer = { status: number; headers: Record<string, string>; body: Buffer; compressed: boolean }

/** What describes the transfer rather than the answer: never copied from the portal's response. */
const WIRE_HEADERS = ['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive', 'date']

/**
 * Asks the portal for an answer to keep. fetch() asks for a compressed answer and hands back the
 * body decoded, but leaves `content-encoding` among the headers: kept as it came, a bare server
 * would send a plain body labelled gzip. `transform` rewrites the body (text); the portal's ETag is
 * then dropped, since it no longer names this body.
 */
export async function loadAnswer(url: string | URL, init: RequestInit = {}, transform?: (text: string) => string): Promise<Answer> {
	const response = await fetch(url, init)
	const compressed = Boolean(response.headers.get('content-encoding'))
	const dropped = transform ? [...WIRE_HEADERS, 'etag'] : WIRE_HEADERS
	const headers = Object.fromEntries([...response.headers].filter(([name]) => !dropped.includes(name)))
	let body = Buffer.from(await response.arrayBuffer())
	if (transform) body = Buffer.from(transform(body.toString('utf8')))
	return { status: response.status, headers, body, compressed }
}

const gzipped = new WeakMap<Answer, Buffer>()

/**
 * Sends a kept answer as the portal sends it: gzipped (once, then from memory) when the portal
 * compressed it and the request accepts gzip, as it is otherwise; `content-encoding` and
 * `content-length` always describe the body sent.
 */
export function sendAnswer(request: http.IncomingMessage, response: http.ServerResponse, answer: Answer) {
	if (answer.compressed && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
		let body = gzipped.get(answer)
		if (!body) gzipped.set(answer, (body = gzipSync(answer.body)))
		const vary = answer.headers.vary
		const varies = vary && /\baccept-encoding\b/i.test(vary) ? vary : [vary, 'Accept-Encoding'].filter(Boolean).join(', ')
		response.writeHead(answer.status, { ...answer.headers, 'content-encoding': 'gzip', 'content-length': body.length, vary: varies })
		response.end(body)
	} else {
		response.writeHead(answer.status, { ...answer.headers, 'content-length': answer.body.length })
		response.end(answer.body)
	}
}

/**
 * A bare node:http server sending kept answers: `answerFor` finds (or loads) the answer to a
 * request, none is a 404, a failure a 502. `port` 0: any free port (the URL says which).
 */
export async function serveAnswers(port: number, answerFor: (request: http.IncomingMessage) => Answer | undefined | Promise<Answer | undefined>) {
	const server = http.createServer((request, response) => {
		Promise.resolve()
			.then(() => answerFor(request))
			.then(
				(answer) => (answer ? sendAnswer(request, response, answer) : void response.writeHead(404).end()),
				() => void response.writeHead(502).end(),
			)
	})
	await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
	const { port: listening } = server.address() as AddressInfo
	return { url: `http://127.0.0.1:${listening}`, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
