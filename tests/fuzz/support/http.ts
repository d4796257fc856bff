/**
 * Real HTTP to the in-process server: a cookie jar per person (customer, workshop, admin,
 * anonymous) filled by the real login form, the page's CSRF token and honeypot fields read from
 * its markup, and bodies written byte for byte (so they can be broken on purpose).
 */
import { randomUUID } from 'node:crypto'
import http from 'node:http'

export type Part =
	| { name: string; value: string }
	| { name: string; filename: string; contentType: string; data: Uint8Array | string }

export type Body =
	/** A form as a browser sends it; `raw` is appended as it is (broken percent-encoding). */
	| { kind: 'urlencoded'; pairs: Array<[string, string]>; raw?: string }
	| { kind: 'multipart'; parts: Part[] }
	| { kind: 'json'; value: unknown }
	/** Anything else: a Content-Type (or none) and the bytes. */
	| { kind: 'raw'; contentType?: string; data: string | Uint8Array }

export type Persona = {
	name: 'anonymous' | 'customer' | 'workshop' | 'admin'
	cookies: Map<string, string>
	/** The form token of this person's pages (hidden input `csrf`, matching the `csrf` cookie). */
	csrf: string
	/** The honeypot fields of a public form (name__confirm empty, from__confirm the encrypted time). */
	honeypot: Array<[string, string]>
	/** A JSON API token (POST /admin/api/login), for the signed-in calls. */
	bearer?: string
}

export type FuzzRequest = {
	method: string
	path: string
	body?: Body
	headers?: Record<string, string>
	as: Persona
	/** Send the person's cookies (default true). */
	cookies?: boolean
	/** Cookies of the person not to send (the CSRF cookie, say). */
	dropCookies?: string[]
}

export type Answer = { status: number; headers: Headers; text: string; location: string | null }

let origin = ''
let clientNumber = 0

export function useOrigin(value: string) {
	origin = value
}

export function newPersona(name: Persona['name']): Persona {
	const persona: Persona = { name, cookies: new Map(), csrf: '', honeypot: [] }
	// In a reported input the person is their name, never their cookies or tokens.
	Object.defineProperty(persona, 'toJSON', { value: () => `(${name})` })
	return persona
}

/** UTF-8 percent-encoding of a form value (lone surrogates become U+FFFD instead of throwing). */
export function formEncode(text: string): string {
	let out = ''
	for (const byte of new TextEncoder().encode(text)) {
		const char = String.fromCharCode(byte)
		if (/[A-Za-z0-9*\-._]/.test(char)) out += char
		else if (byte === 0x20) out += '+'
		else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
	}
	return out
}

const BOUNDARY = '----autohubfuzz7MA4YWxkTrZu0gW'

function multipartBytes(parts: Part[]): Buffer {
	const chunks: Buffer[] = []
	for (const part of parts) {
		if ('filename' in part) {
			chunks.push(
				Buffer.from(
					`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType}\r\n\r\n`,
				),
				Buffer.from(part.data),
				Buffer.from('\r\n'),
			)
		} else {
			chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n`), Buffer.from(part.value), Buffer.from('\r\n'))
		}
	}
	chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`))
	return Buffer.concat(chunks)
}

export function encodeBody(body: Body): { contentType?: string; data: string | Uint8Array } {
	switch (body.kind) {
		case 'urlencoded': {
			const text = body.pairs.map(([key, value]) => `${formEncode(key)}=${formEncode(value)}`).join('&')
			return { contentType: 'application/x-www-form-urlencoded', data: body.raw ? `${text}${text ? '&' : ''}${body.raw}` : text }
		}
		case 'multipart':
			return { contentType: `multipart/form-data; boundary=${BOUNDARY}`, data: multipartBytes(body.parts) }
		case 'json':
			return { contentType: 'application/json', data: JSON.stringify(body.value) }
		case 'raw':
			return { contentType: body.contentType, data: body.data }
	}
}

function cookieHeader(persona: Persona, drop: string[] = []) {
	return [...persona.cookies]
		.filter(([key]) => !drop.includes(key))
		.map(([key, value]) => `${key}=${value}`)
		.join('; ')
}

/** How long an answer may take: a request that hangs is a finding too. */
const ANSWER_TIMEOUT_MS = 10_000

/** Keeps the cookies an answer sets (only while signing in: fuzzed answers never change the jar). */
export function keepCookies(persona: Persona, headers: Headers) {
	for (const line of headers.getSetCookie()) {
		const [pair] = line.split(';')
		const at = pair!.indexOf('=')
		const key = pair!.slice(0, at).trim()
		const value = pair!.slice(at + 1).trim()
		if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') persona.cookies.delete(key)
		else persona.cookies.set(key, value)
	}
}

/** Why a request got no answer: the connection closed, or nothing came in time. */
export class NoAnswer extends Error {
	constructor(
		public readonly timedOut: boolean,
		message: string,
	) {
		super(message)
	}
}

/**
 * One request on a connection of its own (no keep-alive: an answer that closes its connection
 * must not fail the next request). An answer that arrives before the whole body was sent counts,
 * as it does for a browser; a connection closed with no answer at all is a NoAnswer.
 */
export async function send(request: FuzzRequest): Promise<Answer> {
	const headers: Record<string, string> = { 'Accept-Encoding': 'identity', ...request.headers }
	// A browser's form post names its origin; each request comes from its own client address.
	if (!headers.Origin && request.method !== 'GET') headers.Origin = origin
	headers['X-Forwarded-For'] = `10.${(clientNumber >> 16) & 255}.${(clientNumber >> 8) & 255}.${clientNumber++ & 255}`
	const cookies = request.cookies === false ? '' : cookieHeader(request.as, request.dropCookies)
	if (cookies) headers.Cookie = cookies
	let data: Buffer | undefined
	if (request.body) {
		const encoded = encodeBody(request.body)
		if (encoded.contentType && !headers['Content-Type']) headers['Content-Type'] = encoded.contentType
		data = Buffer.from(encoded.data)
		headers['Content-Length'] = String(data.length)
	}
	const url = new URL(origin)
	return new Promise<Answer>((resolve, reject) => {
		let answered = false
		const outgoing = http.request(
			{ host: url.hostname, port: url.port, path: request.path, method: request.method, headers, agent: false, timeout: ANSWER_TIMEOUT_MS },
			(response) => {
				answered = true
				const chunks: Buffer[] = []
				response.on('data', (chunk: Buffer) => chunks.push(chunk))
				response.on('error', (error) => reject(new NoAnswer(false, `the answer broke off: ${error.message}`)))
				response.on('end', () => {
					const answerHeaders = new Headers()
					for (const [key, value] of Object.entries(response.headers)) {
						for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) answerHeaders.append(key, item)
					}
					resolve({
						status: response.statusCode ?? 0,
						headers: answerHeaders,
						text: Buffer.concat(chunks).toString('utf8'),
						location: answerHeaders.get('Location'),
					})
				})
			},
		)
		outgoing.on('timeout', () => outgoing.destroy(new NoAnswer(true, `no answer within ${ANSWER_TIMEOUT_MS / 1000} s`)))
		outgoing.on('error', (error) => {
			// Writing the rest of a body the server already answered may fail; the answer counts.
			if (answered) return
			reject(error instanceof NoAnswer ? error : new NoAnswer(false, `the connection closed without an answer (${(error as { code?: string }).code ?? error.message})`))
		})
		outgoing.end(data)
	})
}

/** The page's form token and honeypot fields, read from its markup. */
export function readFormSecurity(html: string) {
	const input = (name: string) => {
		const tag = html.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`))?.[0]
		return tag ? (tag.match(/value="([^"]*)"/)?.[1] ?? '') : null
	}
	const csrf = input('csrf')
	const honeypot: Array<[string, string]> = []
	const nameField = input('name__confirm')
	const fromField = input('from__confirm')
	if (nameField !== null) honeypot.push(['name__confirm', ''])
	if (fromField !== null) honeypot.push(['from__confirm', decodeEntities(fromField)])
	return { csrf: csrf === null ? null : decodeEntities(csrf), honeypot }
}

function decodeEntities(text: string) {
	return text.replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
}

/** GETs a page as the person and keeps its CSRF cookie, token and honeypot fields. */
export async function visit(persona: Persona, path: string) {
	const answer = await send({ method: 'GET', path, as: persona })
	keepCookies(persona, answer.headers)
	const security = readFormSecurity(answer.text)
	if (security.csrf) persona.csrf = security.csrf
	if (security.honeypot.length) persona.honeypot = security.honeypot
	return answer
}

/** Signs in through the real login form (GET /login, POST /login) and keeps the session cookie. */
export async function signIn(persona: Persona, email: string, password: string) {
	await visit(persona, '/login')
	if (!persona.csrf) throw new Error('GET /login has no csrf input')
	const answer = await send({
		method: 'POST',
		path: '/login',
		as: persona,
		body: { kind: 'urlencoded', pairs: [['csrf', persona.csrf], ['email', email], ['password', password]] },
	})
	if (answer.status !== 302 || answer.location !== '/dashboard') {
		throw new Error(`signing in as ${email} answered ${answer.status} ${answer.location ?? ''}: ${answer.text.slice(0, 300)}`)
	}
	keepCookies(persona, answer.headers)
	// The token of the signed-in pages (the same cookie, so the same token).
	await visit(persona, '/dashboard')
	return persona
}

/** A JSON API token for the signed-in calls. */
export async function apiToken(email: string, password: string) {
	const answer = await send({
		method: 'POST',
		path: '/admin/api/login',
		as: newPersona('anonymous'),
		body: { kind: 'json', value: { email, password } },
	})
	const token = (JSON.parse(answer.text) as { token?: string }).token
	if (answer.status !== 200 || !token) throw new Error(`API login as ${email} answered ${answer.status}: ${answer.text.slice(0, 300)}`)
	return token
}

export const uuid = () => randomUUID()
