/**
 * Issue 31, part 4 (docs/decisions/0115): a file too large for its field, or a body too large for
 * the portal, sent over real HTTP to the production build (the fuzz suite's in-process server).
 * The client reads the translated 413 answer and sends its whole body without a reset (no EPIPE,
 * no ECONNRESET); an upload form comes back with the error beside the field; nothing is stored.
 */
import net from 'node:net'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { getFixedT } from '~/i18n/i18n.server'
import { db, queryRows } from '~/db/db.server'
import { MAX_BODY_BYTES } from '~/utils/http'
import { translateMessage } from '~/utils/messages'
import { stagedFiles, storedFiles } from '#tests/support/local-store'
import { slug } from './support/demo'
import { type Persona } from './support/http'
import { setUpWorld, type World } from './support/setup'

let world: World

beforeAll(async () => {
	world = await setUpWorld()
})
afterAll(async () => world?.server.close())

const MB = 1024 * 1024
const BOUNDARY = '----autohubTooLarge7MA4YWxkTrZu0gW'

type Sent = { status: number; text: string }

/**
 * A multipart post whose file is `size` zero bytes, streamed (never whole in memory), with a
 * Content-Length or chunked, on a raw connection: like a browser, it sends the whole body before
 * it reads the answer, and any failure while sending (EPIPE, ECONNRESET) fails the test, even
 * after the answer came: that is the reset a browser shows as a connection error. It asks for the
 * connection to be closed after the answer, so the answer ends with the connection.
 */
function postFile(
	as: Persona,
	path: string,
	fields: Array<[string, string]>,
	file: { field: string; size: number },
	options: { chunked?: boolean; stopAfterAnswer?: boolean; declaredSize?: number } = {},
): Promise<Sent> {
	const text = fields.map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('')
	const head = Buffer.from(`${text}--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.field}"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`)
	const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`)
	const url = new URL(world.server.origin)
	const length = options.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${head.length + (options.declaredSize ?? file.size) + tail.length}`
	const requestHead = [
		`POST ${path} HTTP/1.1`,
		`Host: ${url.host}`,
		`Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
		length,
		`Origin: ${world.server.origin}`,
		`Cookie: ${[...as.cookies].map(([key, value]) => `${key}=${value}`).join('; ')}`,
		'X-Forwarded-For: 10.31.4.1',
		'Connection: close',
	].join('\r\n')
	const frame = (bytes: Buffer) => (options.chunked ? Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]) : bytes)
	return new Promise<Sent>((resolve, reject) => {
		const received: Buffer[] = []
		let sentAll = false
		const socket = net.connect(Number(url.port), url.hostname)
		const answer = () => parseAnswer(Buffer.concat(received))
		socket.on('data', (chunk: Buffer) => {
			received.push(chunk)
			const parsed = options.stopAfterAnswer ? answer() : null
			if (parsed) {
				socket.destroy()
				resolve(parsed)
			}
		})
		socket.on('error', reject)
		socket.on('end', () => {
			const parsed = answer()
			if (!parsed) reject(new Error(`the connection closed without a whole answer: ${Buffer.concat(received).toString('utf8').slice(0, 200)}`))
			// A browser reads the answer only once it has sent the body: a connection ended before that is a connection error.
			else if (!sentAll) reject(new Error(`the connection ended after ${sent} of ${file.size} bytes of the file`))
			else resolve(parsed)
		})
		const chunk = Buffer.alloc(MB)
		let sent = 0
		const write = () => {
			while (sent < file.size) {
				if (socket.destroyed) return
				const piece = chunk.subarray(0, Math.min(MB, file.size - sent))
				sent += piece.length
				if (!socket.write(frame(piece))) return socket.once('drain', write)
			}
			const end = options.chunked ? Buffer.concat([frame(tail), Buffer.from('0\r\n\r\n')]) : tail
			socket.write(end, (error) => (sentAll = !error))
		}
		socket.write(`${requestHead}\r\n\r\n`)
		socket.write(frame(head))
		write()
	})
}

/** The status and body of a whole HTTP answer (Content-Length or chunked), or null while it is not whole. */
function parseAnswer(bytes: Buffer): Sent | null {
	const headEnd = bytes.indexOf('\r\n\r\n')
	if (headEnd < 0) return null
	const [statusLine, ...headerLines] = bytes.subarray(0, headEnd).toString('latin1').split('\r\n')
	const header = (name: string) => headerLines.find((line) => line.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim()
	let body = bytes.subarray(headEnd + 4)
	if (/chunked/i.test(header('transfer-encoding') ?? '')) {
		const parts: Buffer[] = []
		for (;;) {
			const lineEnd = body.indexOf('\r\n')
			if (lineEnd < 0) return null
			const size = parseInt(body.subarray(0, lineEnd).toString('latin1'), 16)
			if (size === 0) break
			if (body.length < lineEnd + 2 + size + 2) return null
			parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size))
			body = body.subarray(lineEnd + 2 + size + 2)
		}
		body = Buffer.concat(parts)
	} else {
		const length = Number(header('content-length') ?? NaN)
		if (!(body.length >= length)) return null
		body = body.subarray(0, length)
	}
	return { status: Number(statusLine!.split(' ')[1]), text: body.toString('utf8') }
}

type UploadField = {
	as: () => Persona
	path: () => string
	/** The input's id: its error list is `${id}-error`. */
	id: string
	field: string
	fields?: Array<[string, string]>
}

const uploadFields = (): UploadField[] => {
	const { customer, workshop, admin, demo } = world
	const vehicle = `/vehicle-details/${slug(demo.vehicle)}`
	const job = `/workshop-bid-details/${slug(demo.selectedOffer)}`
	return [
		{ as: () => customer, path: () => '/new-service-register', id: 'request-images', field: 'images', fields: [['location', 'Tartu, Ringtee 1']] },
		{ as: () => customer, path: () => vehicle, id: 'service-record-document', field: 'document', fields: [['intent', 'addRecord']] },
		{ as: () => workshop, path: () => `/customer-request-details/${slug(demo.openRequestWithoutBid)}`, id: 'offer-make-attachment', field: 'attachment', fields: [['intent', 'make']] },
		{ as: () => workshop, path: () => job, id: 'complete-job-invoice', field: 'invoice', fields: [['intent', 'complete']] },
		{ as: () => workshop, path: () => job, id: 'extra-work-images', field: 'images', fields: [['intent', 'askExtraWork']] },
		{ as: () => workshop, path: () => '/workshop-profile', id: 'profile-logo', field: 'logo' },
		{ as: () => workshop, path: () => '/workshop-profile', id: 'profile-photos', field: 'photos' },
		{ as: () => workshop, path: () => '/workshop-profile', id: 'profile-warranty-document', field: 'warrantyDocument' },
		{ as: () => admin, path: () => `/admin/ads/${slug(demo.ad)}`, id: 'ad-image', field: 'image' },
		{ as: () => admin, path: () => '/admin/settings', id: 'site-logo', field: 'logo' },
		{ as: () => admin, path: () => '/admin/settings', id: 'site-favicon', field: 'favicon' },
	]
}

const uploadRows = async () => Number((await queryRows<{ count: number }>(db, sql`select count(*)::int as count from uploads`))[0]!.count)

/** What the field's error list says in the page, or null when the page shows none. */
function fieldError(html: string, id: string) {
	const list = new RegExp(`<ul id="${id}-error"[^>]*><li>([^<]*)</li>`).exec(html)
	return list ? list[1]!.replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&') : null
}

describe('a file too large for its field', () => {
	// Chunked bodies (no declared length) in English, declared ones in Estonian.
	for (const [language, chunked] of [
		['et', false],
		['en', true],
	] as const) {
		test(`50 MB on every upload field (${chunked ? 'chunked' : 'with Content-Length'}, ${language}): the form comes back with a 413 and the field's error, nothing is stored`, async () => {
			const t = getFixedT(language)
			const expected = translateMessage(t, 'common:upload.tooLarge')
			const [rowsBefore, filesBefore] = [await uploadRows(), await storedFiles()]
			for (const upload of uploadFields()) {
				const persona = upload.as()
				const answer = await postFile(persona, `${upload.path()}?lng=${language}`, [['csrf', persona.csrf], ...(upload.fields ?? [])], { field: upload.field, size: 50 * MB }, { chunked })
				const where = `${upload.path()} ${upload.field}`
				expect(answer.status, where).toBe(413)
				expect(fieldError(answer.text, upload.id), where).toBe(expected)
			}
			expect(await uploadRows()).toBe(rowsBefore)
			expect(await storedFiles()).toEqual(filesBefore)
			expect(await stagedFiles()).toEqual([])
		}, 180_000)
	}

	test('the other input comes back with the form', async () => {
		const { customer } = world
		const answer = await postFile(customer, '/new-service-register?lng=en', [['csrf', customer.csrf], ['location', 'Tartu, Ringtee 1'], ['notes', 'Helistage enne.']], { field: 'images', size: 50 * MB })
		expect(answer.status).toBe(413)
		expect(answer.text).toContain('value="Tartu, Ringtee 1"')
		expect(answer.text).toContain('Helistage enne.')
	})
})

describe('a body larger than the portal reads', () => {
	test('declared over the cap, it is answered at once with the translated 413 page', async () => {
		const { customer } = world
		const answer = await postFile(
			customer,
			'/new-service-register?lng=en',
			[['csrf', customer.csrf]],
			{ field: 'images', size: 4 * MB },
			{ declaredSize: MAX_BODY_BYTES + MB, stopAfterAnswer: true },
		)
		expect(answer.status).toBe(413)
		expect(answer.text).toContain(translateMessage(getFixedT('en'), 'common:errors.tooLarge'))
		expect(await stagedFiles()).toEqual([])
	})

	test('a plain form over its 2 MB is a translated 413 page, and the client sends its whole body', async () => {
		const answer = await postFile(world.anonymous, '/login?lng=et', [['csrf', world.anonymous.csrf]], { field: 'email', size: 20 * MB })
		expect(answer.status).toBe(413)
		expect(answer.text).toContain(translateMessage(getFixedT('et'), 'common:errors.tooLarge'))
	})
})
