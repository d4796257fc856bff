/**
 * The fuzzer: an action is described by its fields (from its zod schema and form markup) and a
 * VALID base submission; fast-check picks one certain corruption of it (a required field missing,
 * a huge value, a control character, a wrong type, a number out of range, an impossible date, an
 * unknown or someone else's id, a bad slug in the URL, a bad token), sometimes decorated with an
 * extra unknown field or a broken percent-encoding, sends it over HTTP and checks the answer and
 * that no row changed. Only inputs that are certainly invalid are sent, so any changed row is a bug.
 */
import { parseWithZod } from '@conform-to/zod/v4'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { encodeId } from '~/utils/public-id'
import { answerProblems, answerSnippet, clip } from './answers'
import { changedTables, fingerprint, type Fingerprint } from './fingerprint'
import { NoAnswer, send, type Answer, type Body, type FuzzRequest, type Part, type Persona } from './http'

// ------------------------------------------------------------------ settings

const BASE_SEED = Number(process.env.FUZZ_SEED ?? 13)
const BASE_RUNS = Number(process.env.FUZZ_RUNS ?? 20)

/** A fixed seed per action (the base seed and the action's name), so adding one leaves the others alone. */
export function seedFor(name: string) {
	let hash = BASE_SEED | 0
	for (const char of name) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0
	return hash
}

export function runsFor(weight = 1) {
	return Math.max(1, Math.round(BASE_RUNS * weight))
}

// ------------------------------------------------------------------ the description of an action

export type Kind =
	/** One line of text (trimmed). */
	| 'text'
	/** A textarea: \n, \r and \t are fine, other control characters are not. */
	| 'multiline'
	| 'email'
	| 'password'
	/** A whole number in `range`. */
	| 'int'
	/** A price as people type it. */
	| 'money'
	/** One id from a reference list the form offers. */
	| 'ref'
	/** Several ids from a reference list (checkboxes). */
	| 'refs'
	/** The id of an item the action is about, in the body (a review, an offer, a notification…). */
	| 'id'
	| 'enum'
	/** <input type="datetime-local">. */
	| 'datetime'
	/** Several datetime-local inputs of one name. */
	| 'datetimes'
	/** HH:MM. */
	| 'time'
	/** A structured text (registration number, phone, zip code, URL…): `invalid` lists bad values. */
	| 'pattern'
	/** A checkbox: any value is fine, never corrupted. */
	| 'flag'
	/** A hidden field that picks the form (intent, list): never corrupted. */
	| 'hidden'

export type Field = {
	name: string
	kind: Kind
	/** The valid value of the base submission (several for refs and datetimes). */
	valid: string | string[]
	required?: boolean
	/** The longest valid text. */
	max?: number
	/** The most items a list may have. */
	maxItems?: number
	/** A number's valid range. */
	range?: [number, number]
	/** More values that are certainly invalid here. */
	invalid?: string[]
	/** Real ids that are certainly wrong here: another list's, or someone else's item. */
	foreign?: string[]
	/** How an id travels: the portal's slug (base64url) or the raw uuid. */
	idForm?: 'slug' | 'raw'
	/** Read with formData.get() (the first of several values): a repeated field is not invalid. */
	readWithGet?: boolean
	/**
	 * The value must be new on every request (an e-mail to register, a registration number), so a
	 * corruption the server wrongly accepts is accepted again while fast-check shrinks it.
	 */
	unique?: boolean
}

export type Encoding = 'urlencoded' | 'multipart' | 'json'

/** Another visitor, whose CSRF token is not this person's. */
export type Others = { stranger: Persona }

export type ActionSpec = {
	/** "POST /add-vehicle" and what it does, as the test is named. */
	name: string
	method?: 'POST' | 'GET'
	as: () => Persona
	/** The address, with the valid slug or a corrupted one. */
	path: (slug: string) => string
	/** The slug in the URL: its valid value and someone else's items. */
	slug?: { valid: string; foreign?: string[] }
	fields: Field[]
	encodings: Encoding[]
	/** Send the person's CSRF token as `csrf` (every portal form; default true, not for Bearer calls). */
	csrf?: boolean
	/** Send the honeypot fields of the public form. */
	honeypot?: boolean
	/** A JSON call of a signed-in person: Bearer token, or the cookie with the CSRF token in the body. */
	api?: 'signed-in' | 'public'
	/**
	 * The only inputs are the URL and the token: any readable request with a valid token and slug is
	 * acted on (delete a vehicle, log out), so only the slug and the token are corrupted.
	 */
	slugAndTokenOnly?: boolean
	/** The schema the base must satisfy (a stale base would test nothing). */
	schema?: Parameters<typeof parseWithZod>[1]['schema']
	/** Share of FUZZ_RUNS for this action. */
	weight?: number
	/** False when the action answers every request alike (a path that is no page): no check that fields reach validation. */
	validates?: boolean
}

export type Mutation = {
	/** A field name, or (url), (csrf), (auth). */
	target: string
	how: string
	/** The bad value, compactly: a length for `huge`, a character code for `control`. */
	value?: unknown
	encoding: Encoding
	/** An unknown field added to the (already invalid) body. */
	extra?: [string, string]
	/** A broken percent-encoding appended to a urlencoded body. */
	raw?: string
}

// ------------------------------------------------------------------ corruptions

/** C0 control characters other than tab, line feed and carriage return. */
const CONTROL = [...Array(32).keys()].filter((code) => code !== 9 && code !== 10 && code !== 13)

const IMPOSSIBLE_DATES = [
	'2026-13-01T10:00',
	'2026-02-30T10:00',
	'2026-02-30T25:61',
	'2027-04-31T10:00',
	'2026-00-10T10:00',
	'2026-06-00T10:00',
	'2026-06-15T24:00',
	'2026-06-15T10:60',
	'0000-00-00T00:00',
	'2027-02-29T12:00',
	'9999-99-99T99:99',
	'0001-01-01T00:00',
	'99999-01-01T10:00',
]
const BAD_DATE_TYPES = ['tomorrow', '2026-06-15', '10:00', '1750000000', '2026-06-15 10:00:00', '15.06.2026 10:00', '{"date":1}', '2040-06-14T10:00:00+99:00']
const IMPOSSIBLE_TIMES = ['24:00', '12:60', '7:00', '25:99', '12:00:00', 'noon', '-1:00', '１２:００']
const NOT_A_NUMBER = ['abc', '12abc', '{"a":1}', '[1,2]', 'true', '½', 'NaN', 'Infinity', '1e309', '-1e309', '0x1G', '1_000']
const NOT_AN_EMAIL = ['not-an-email', 'a@', '@example.com', 'a b@example.com', '{"email":1}', '[]', 'a@b@c.d', '<a@b.c>']
const NOT_AN_ID = ['abc', '../x', '..%2F..%2Fetc%2Fpasswd', '{"id":1}', '[]', 'null', 'undefined', '0', '-1', '1 OR 1=1', "' or '1'='1", encodeId('not-a-uuid-at-all')]
const NOT_MONEY = ['abc', '1.2.3', '{"a":1}', '€5', '5 EUR', '-5', '1e309', 'NaN', '0', '0.00', '0.001', '12345678', '1,234.5']
const NOT_IN_LIST = ['{}', '[]', '0', 'null', 'undefined', 'ALL', ' ']
/** JSON values of the wrong type for a field that is not free text. */
const JSON_WRONG_TYPES: unknown[] = [{ a: 1 }, [[1]], true, 12345, { $ne: null }]

const EXTRAS: Array<[string, string]> = [
	['role', 'admin'],
	['isAdmin', 'true'],
	['__proto__', 'polluted'],
	['__proto__[admin]', '1'],
	['constructor.prototype.admin', '1'],
	['userId', '00000000-0000-4000-8000-000000000000'],
	['a[b][c]', 'd'],
	['x'.repeat(2000), 'y'],
	['', 'a field without a name'],
	['emoji😀', '💥'],
]
const BROKEN_ENCODINGS = ['%ZZ=1', 'x=%E0%A4%A', '%=%', 'y=%', 'z=%C3%28', '%00=%00', 'w=%FF%FE%FD', 'v=%ED%A0%80', 'name%=1', '=&&==&', 'q=%%%']
const BAD_SLUGS = [
	'abc',
	'%00',
	'a%00b',
	'..%2F..%2Fetc%2Fpasswd',
	'%ZZ',
	'%E0%A4%A',
	'x'.repeat(3000),
	'====',
	'00000000-0000-4000-8000-000000000000',
	encodeId('00000000-0000-4000-8000-00000000000'),
	Buffer.from('not a uuid').toString('base64url'),
	'%20',
	'%F0%9F%98%80',
	'null',
	'-1',
	'1e309',
]

type Corruption = { target: string; how: string; value?: unknown }

const asList = (value: string | string[]) => (Array.isArray(value) ? value : [value])

function idValue(field: Field, id: string) {
	return field.idForm === 'slug' ? encodeId(id) : id
}

/** Every certain corruption of one field. */
function fieldCorruptions(field: Field): Array<fc.Arbitrary<Corruption>> {
	const target = field.name
	const pick = (how: string, values: readonly unknown[]) => (values.length ? [fc.constantFrom(...values).map((value) => ({ target, how, value }))] : [])
	const just = (how: string, value?: unknown) => [fc.constant({ target, how, value })]
	const list: Array<fc.Arbitrary<Corruption>> = []
	/** What the schema alone cannot see (a control character, an id that names nothing, a date that does not exist) comes up more often. */
	const often = (arbitrary: fc.Arbitrary<Corruption>) => list.push(arbitrary, arbitrary, arbitrary)
	if (field.kind === 'flag' || field.kind === 'hidden') return list

	const multiple = field.kind === 'refs' || field.kind === 'datetimes'
	if (field.required) list.push(...just('missing'), ...just('empty', ''), ...just('blank', '   '))
	// A second value makes a one-value field a list, which no schema takes (read with get(), an id would not be).
	if (!multiple && field.kind !== 'id' && !field.readWithGet) list.push(...just('repeated'))
	// NUL, the character PostgreSQL cannot store in text, as often as all the others together.
	often(fc.oneof(fc.constant(0), fc.constantFrom(...CONTROL)).map((value) => ({ target, how: 'control', value })))
	if (field.invalid) list.push(...pick('invalid', field.invalid))
	if (field.foreign?.length) often(fc.constantFrom(...field.foreign.map((id) => idValue(field, id))).map((value) => ({ target, how: 'foreign', value })))

	switch (field.kind) {
		case 'text':
		case 'multiline':
		case 'email':
		case 'password':
		case 'pattern':
			// Just over the limit, well over it, and 100 000 characters (or more, for a field that takes that many).
			if (field.max) list.push(...pick('huge', [field.max + 1, field.max * 3 + 7, Math.max(100_000, field.max * 2)]))
			if (field.kind === 'email') list.push(...pick('wrongType', NOT_AN_EMAIL), ...pick('jsonType', JSON_WRONG_TYPES))
			break
		case 'int': {
			const [min, max] = field.range ?? [0, 1_000_000]
			list.push(...pick('wrongType', NOT_A_NUMBER), ...pick('jsonType', [{ a: 1 }, [[1]], true]))
			list.push(...pick('outOfRange', [String(min - 1), String(max + 1), '1.5', '-1e309', '9'.repeat(400), String(Number.MAX_SAFE_INTEGER * 4)]))
			list.push(...pick('brokenEncoding', ['1%ZZ', '%E0%A4%A', '%']))
			break
		}
		case 'money':
			list.push(...pick('wrongType', NOT_MONEY), ...pick('jsonType', [{ a: 1 }, [[1]], true]), ...pick('brokenEncoding', ['1%ZZ', '%E0%A4%A']))
			break
		case 'ref':
		case 'id':
			often(fc.uuid({ version: 4 }).map((id) => ({ target, how: 'unknownId', value: idValue(field, id) })))
			list.push(...pick('wrongType', NOT_AN_ID), ...pick('jsonType', JSON_WRONG_TYPES), ...pick('brokenEncoding', ['%E0%A4%A', '%ZZ', 'a%00b']))
			list.push(...pick('huge', [3000, 100_000]))
			break
		case 'refs':
			often(fc.uuid({ version: 4 }).map((id) => ({ target, how: 'unknownId', value: id })))
			list.push(...pick('wrongType', NOT_AN_ID), ...pick('jsonType', JSON_WRONG_TYPES))
			if (field.maxItems) list.push(...just('tooMany', field.maxItems + 1))
			break
		case 'enum':
			list.push(...pick('wrongType', NOT_IN_LIST), ...pick('jsonType', JSON_WRONG_TYPES), ...pick('huge', [3000]))
			break
		case 'datetime':
		case 'datetimes':
			often(fc.constantFrom(...IMPOSSIBLE_DATES).map((value) => ({ target, how: 'impossibleDate', value })))
			list.push(...pick('wrongType', BAD_DATE_TYPES), ...pick('jsonType', JSON_WRONG_TYPES))
			if (field.maxItems) list.push(...just('tooMany', field.maxItems + 1))
			break
		case 'time':
			often(fc.constantFrom(...IMPOSSIBLE_TIMES).map((value) => ({ target, how: 'impossibleTime', value })))
			list.push(...pick('jsonType', JSON_WRONG_TYPES))
			break
	}
	return list
}

function slugCorruptions(spec: ActionSpec): Array<fc.Arbitrary<Corruption>> {
	if (!spec.slug) return []
	const target = '(url)'
	const list: Array<fc.Arbitrary<Corruption>> = [
		fc.uuid({ version: 4 }).map((id) => ({ target, how: 'unknownId', value: encodeId(id) })),
		fc.constantFrom(...BAD_SLUGS).map((value) => ({ target, how: 'badSlug', value })),
	]
	if (spec.slug.foreign?.length) {
		const foreign = fc.constantFrom(...spec.slug.foreign.map(encodeId)).map((value) => ({ target, how: 'someoneElses', value }))
		list.push(foreign, foreign)
	}
	return list
}

function tokenCorruptions(spec: ActionSpec): Array<fc.Arbitrary<Corruption>> {
	if (spec.api === 'public') return []
	if (spec.api === 'signed-in') {
		return [fc.constantFrom('none', 'unknownBearer', 'malformedBearer', 'longBearer', 'cookieWithoutCsrf', 'cookieWrongCsrf').map((how) => ({ target: '(auth)', how }))]
	}
	if (spec.csrf === false) return []
	return [fc.constantFrom('missing', 'empty', 'wrong', 'control', 'huge', 'withoutCookie', 'anotherPersons').map((how) => ({ target: '(csrf)', how }))]
}

/** A decoration on about one input in five. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>) =>
	fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: arbitrary as fc.Arbitrary<T | undefined>, weight: 1 })

export function mutations(spec: ActionSpec): fc.Arbitrary<Mutation> {
	// Each field and the URL weigh four, the token one: a token check is one line of code, the fields are many.
	const groups: Array<fc.WeightedArbitrary<Corruption>> = []
	const tokens = tokenCorruptions(spec).map((arbitrary) => ({ arbitrary, weight: 1 }))
	const slugs = slugCorruptions(spec)
	if (slugs.length) groups.push({ arbitrary: fc.oneof(...slugs), weight: spec.slugAndTokenOnly ? 1 : 4 })
	if (!spec.slugAndTokenOnly) {
		for (const field of spec.fields) {
			const corruptions = fieldCorruptions(field)
			if (corruptions.length) groups.push({ arbitrary: fc.oneof(...corruptions), weight: 4 })
		}
	}
	groups.push(...tokens)
	if (!groups.length) throw new Error(`${spec.name}: nothing to corrupt`)
	const fieldNames = new Set(spec.fields.map((field) => field.name))
	const extras = EXTRAS.filter(([name]) => !fieldNames.has(name))
	return fc
		.record({
			corruption: fc.oneof(...groups),
			encoding: fc.constantFrom(...spec.encodings),
			extra: sometimes(fc.constantFrom(...extras)),
			raw: sometimes(fc.constantFrom(...BROKEN_ENCODINGS)),
		})
		.map(({ corruption, encoding, extra, raw }) => {
			const mutation: Mutation = { ...corruption, encoding }
			// A body whose only fault is in the URL or the token stays readable: no decoration there.
			const decorate = !corruption.target.startsWith('(')
			if (decorate && extra) mutation.extra = extra
			if (decorate && raw && encoding === 'urlencoded') mutation.raw = raw
			return mutation
		})
}

// ------------------------------------------------------------------ from a mutation to a request

/** The character inside the text, never at an end (where trimming could remove \v or \f). */
function insertControl(text: string, code: number) {
	const around = text.length >= 2 ? text : `${text || 'a'}b`
	const middle = Math.floor(around.length / 2)
	return `${around.slice(0, middle)}${String.fromCharCode(code)}${around.slice(middle)}`
}

function hugeValue(field: Field | undefined, length: number) {
	if (field?.kind === 'email') return `${'a'.repeat(Math.max(1, length - 12))}@example.com`
	const valid = field ? (asList(field.valid)[0] ?? 'x') : 'x'
	const filler = /^[\p{L}\p{N}]/u.test(valid) ? valid[0]! : 'x'
	return filler.repeat(length)
}

/** JSON values sent as they are in a JSON body; in a form they travel as their JSON text. */
type Value = string | { json: unknown } | { encoded: string }

let uniqueCounter = 0

/** A new value of the same shape: n.name@example.com, or the text with a number in it. */
function freshValue(field: Field, value: string) {
	const n = (++uniqueCounter).toString(36).toUpperCase()
	if (field.kind === 'email') return value.replace('@', `.${n.toLowerCase()}@`)
	return `${value.slice(0, Math.max(2, value.length - n.length))}${n}`
}

function corruptedValues(spec: ActionSpec, mutation: Mutation): Map<string, Value[]> {
	const values = new Map<string, Value[]>()
	for (const field of spec.fields) values.set(field.name, asList(field.valid).map((value) => (field.unique ? freshValue(field, value) : value)))
	const field = spec.fields.find((f) => f.name === mutation.target)
	if (!field) return values
	const current = values.get(field.name) as string[]
	const value = mutation.value
	switch (mutation.how) {
		case 'missing':
			values.delete(field.name)
			break
		case 'empty':
		case 'blank':
			values.set(field.name, [String(value)])
			break
		case 'repeated':
			values.set(field.name, [current[0] ?? '', current[0] ?? ''])
			break
		case 'control':
			values.set(field.name, [insertControl(current[0] ?? 'x', Number(value)), ...current.slice(1)])
			break
		case 'huge':
			values.set(field.name, [hugeValue(field, Number(value)), ...current.slice(1)])
			break
		case 'jsonType':
			values.set(field.name, [{ json: value }])
			break
		case 'brokenEncoding':
			values.set(field.name, [{ encoded: String(value) }])
			break
		case 'tooMany':
			values.set(
				field.name,
				field.kind === 'datetimes'
					? [...Array(Number(value)).keys()].map((i) => `${new Date().getFullYear() + 2}-0${(i % 9) + 1}-1${i % 10}T10:00`)
					: [...Array(Number(value)).keys()].map((i) => current[i % current.length] ?? ''),
			)
			break
		case 'unknownId':
		case 'invalid':
		case 'foreign':
		case 'wrongType':
		case 'outOfRange':
		case 'impossibleDate':
		case 'impossibleTime':
			// A list field keeps its valid first item, so the bad one is what is wrong.
			values.set(field.name, field.kind === 'refs' || field.kind === 'datetimes' ? [...current.slice(0, 1), String(value)] : [String(value)])
			break
		default:
			throw new Error(`unknown corruption ${mutation.how}`)
	}
	return values
}

const asText = (value: Value) => (typeof value === 'string' ? value : 'json' in value ? JSON.stringify(value.json) : value.encoded)

export function buildRequest(spec: ActionSpec, mutation: Mutation, others: Others): FuzzRequest {
	const persona = spec.as()
	const values = corruptedValues(spec, mutation)
	const headers: Record<string, string> = {}
	const dropCookies: string[] = []
	const security: Array<[string, string]> = []
	const signedInApi = spec.api === 'signed-in'

	let useCookies = true
	if (signedInApi) {
		const auth = mutation.target === '(auth)' ? mutation.how : null
		const viaCookie = auth === 'cookieWithoutCsrf' || auth === 'cookieWrongCsrf' || (!auth && mutation.encoding !== 'json')
		if (viaCookie) {
			if (auth !== 'cookieWithoutCsrf') security.push(['csrf', auth === 'cookieWrongCsrf' ? others.stranger.csrf : persona.csrf])
		} else {
			useCookies = false
			if (auth === 'unknownBearer') headers.Authorization = 'Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
			else if (auth === 'malformedBearer') headers.Authorization = 'Basic Zm9vOmJhcg=='
			else if (auth === 'longBearer') headers.Authorization = `Bearer ${'x'.repeat(8000)}`
			else if (auth !== 'none') headers.Authorization = `Bearer ${persona.bearer}`
		}
	} else if (spec.api !== 'public' && spec.csrf !== false) {
		const how = mutation.target === '(csrf)' ? mutation.how : null
		if (how === 'withoutCookie') dropCookies.push('csrf')
		if (how !== 'missing') {
			const token =
				how === 'empty' ? '' : how === 'wrong' ? 'x' : how === 'control' ? insertControl(persona.csrf, 0) : how === 'huge' ? 'x'.repeat(100_000) : how === 'anotherPersons' ? others.stranger.csrf : persona.csrf
			security.push(['csrf', token])
		}
	}
	if (spec.honeypot) security.push(...persona.honeypot)

	const slug = mutation.target === '(url)' ? String(mutation.value) : (spec.slug?.valid ?? '')
	const path = spec.path(slug)
	const pairs: Array<[string, Value]> = [...security]
	for (const [name, list] of values) for (const item of list) pairs.push([name, item])
	if (mutation.extra) pairs.push(mutation.extra)

	let body: Body
	if (mutation.encoding === 'json') {
		const object: Record<string, unknown> = {}
		for (const [name, value] of pairs) {
			const plain = typeof value === 'string' ? value : 'json' in value ? value.json : value.encoded
			if (name in object) object[name] = [...asList(object[name] as string | string[]), plain as string]
			else object[name] = plain
		}
		body = { kind: 'json', value: object }
	} else if (mutation.encoding === 'multipart') {
		body = { kind: 'multipart', parts: pairs.map(([name, value]): Part => ({ name, value: asText(value) })) }
	} else {
		const plain = pairs.filter(([, value]) => typeof value === 'string' || !('encoded' in value)).map(([name, value]): [string, string] => [name, asText(value)])
		const encoded = pairs.filter(([, value]) => typeof value !== 'string' && 'encoded' in value).map(([name, value]) => `${name}=${asText(value)}`)
		const raw = [...encoded, ...(mutation.raw ? [mutation.raw] : [])].join('&')
		body = { kind: 'urlencoded', pairs: plain, raw: raw || undefined }
	}
	return { method: spec.method ?? 'POST', path, body: spec.method === 'GET' ? undefined : body, headers, as: persona, cookies: useCookies, dropCookies }
}

// ------------------------------------------------------------------ running

/** A readable line for a request: method, path, who, and the body as sent (clipped). */
export function describeRequest(request: FuzzRequest): string {
	const lines = [`${request.method} ${clip(request.path, 200)} as ${request.as.name}${request.cookies === false ? ' (no cookies)' : ''}`]
	const auth = request.headers?.Authorization
	if (auth) lines.push(`  Authorization: ${clip(auth, 60)}`)
	if (request.headers?.['Content-Type']) lines.push(`  Content-Type: ${request.headers['Content-Type']}`)
	const body = request.body
	if (body) {
		let text: string
		if (body.kind === 'urlencoded') text = [...body.pairs.map(([k, v]) => `${k}=${v}`), ...(body.raw ? [`(raw) ${body.raw}`] : [])].join('&')
		else if (body.kind === 'json') text = `(json) ${JSON.stringify(body.value)}`
		else if (body.kind === 'multipart') text = `(multipart) ${body.parts.map((p) => ('filename' in p ? `${p.name}=<file ${p.filename}>` : `${p.name}=${p.value}`)).join(' | ')}`
		else text = `(${body.contentType ?? 'no Content-Type'}) ${typeof body.data === 'string' ? body.data : Buffer.from(body.data).toString('latin1')}`
		lines.push(`  body: ${clip(text.replace(/csrf=[^&|]+/g, 'csrf=<token>'), 700)}`)
	}
	return lines.join('\n')
}

/** What went wrong with one request: its outcome class (for grouping) and the full account. */
export class Finding extends Error {
	constructor(
		public readonly outcome: string,
		message: string,
	) {
		super(message)
	}
}

/** Sends one request, checks the answer and the rows; throws a Finding that says what went wrong. */
export async function probe(request: FuzzRequest, state: { last: Fingerprint }) {
	let answer: Answer
	try {
		answer = await send(request)
	} catch (error) {
		if (!(error instanceof NoAnswer)) throw error
		throw new Finding(error.timedOut ? 'no answer in time' : 'no answer (connection closed)', `${describeRequest(request)}\n  no answer: ${error.message}`)
	}
	const problems = answerProblems(answer)
	const now = await fingerprint()
	const changed = changedTables(state.last, now)
	state.last = now
	if (problems || changed) {
		const lines = [describeRequest(request), `  answer: ${answerSnippet(answer)}`]
		if (problems) lines.push(`  problems: ${problems}`)
		if (changed) lines.push(`  changed rows: ${changed}`)
		const outcome = answer.status >= 500 ? `answered ${answer.status}` : problems ? 'leaked internal detail' : `accepted (${answer.status}), rows changed`
		throw new Finding(outcome, lines.join('\n'))
	}
	return answer
}

class BatchAbandoned extends Error {}
const MAX_TIMEOUTS = 3

/** FUZZ_SHRINK=1: stop at the first failing input of a batch and let fast-check shrink it. */
const SHRINK = process.env.FUZZ_SHRINK === '1'
/** FUZZ_TIMING=1: print each batch's time and its slowest requests. */
const TIMING = process.env.FUZZ_TIMING === '1'

export type Grouping<T> = {
	/** The kind of input, for grouping findings (a field and its corruption, a fault, a page). */
	kindOf: (input: T) => string
	/** Inputs with extra decoration; a plainer example of the same kind replaces them. */
	isDecorated?: (input: T) => boolean
	/**
	 * Plainer inputs to try when a decorated one fails (the first that fails too is reported, under
	 * its own kind), so a fault of the decoration is not blamed on the field it happened to ride on.
	 */
	simplify?: (input: T) => Array<{ input: T; kind?: string }>
}

/**
 * Runs a property over generated inputs with a fixed seed; before and after the whole batch the
 * rows are compared too. By default every input of the batch is sent and the distinct findings
 * (kind of input × outcome) are reported together, each with its plainest example: the route, the
 * input, the request as sent, the answer and what changed. With FUZZ_SHRINK=1 the first failure
 * stops the batch and fast-check shrinks it.
 */
export async function runBatch<T>(
	name: string,
	arbitrary: fc.Arbitrary<T>,
	toRequest: (input: T) => FuzzRequest,
	weight = 1,
	grouping?: Grouping<NoInfer<T>>,
	/** Inputs sent on every run before the random ones (the classes that must never slip through). */
	examples: Array<NoInfer<T>> = [],
) {
	const before = await fingerprint()
	const state = { last: before }
	const seed = seedFor(name)
	const numRuns = examples.length + runsFor(weight)
	const findings = new Map<string, { input: T; decorated: boolean; message: string }>()
	let timeouts = 0
	let abandoned = ''
	const replay = `FUZZ_SEED=${BASE_SEED} (seed ${seed}), ${numRuns} runs`
	const timings: Array<[number, string]> = []
	const batchStarted = performance.now()
	/** The answers that were fine, for the caller's check that the inputs reached what they test. */
	const answers: Array<{ input: T; status: number; location: string | null }> = []
	try {
		await fc.assert(
			fc.asyncProperty(arbitrary, async (input) => {
				const started = performance.now()
				try {
					const answer = await probe(toRequest(input), state)
					answers.push({ input, status: answer.status, location: answer.location })
				} catch (error) {
					if (SHRINK || !(error instanceof Finding)) throw error
					let found = { input, kind: grouping?.kindOf(input) ?? 'input', error }
					// An accepted input may not be accepted twice (a taken e-mail): only failures are simplified.
					if (grouping?.simplify && !error.outcome.startsWith('accepted')) {
						for (const candidate of grouping.simplify(input)) {
							try {
								await probe(toRequest(candidate.input), state)
							} catch (simpler) {
								if (!(simpler instanceof Finding)) throw simpler
								found = { input: candidate.input, kind: candidate.kind ?? grouping.kindOf(candidate.input), error: simpler }
								break
							}
						}
					}
					const key = `${found.kind} → ${found.error.outcome}`
					const decorated = grouping?.isDecorated?.(found.input) ?? false
					const known = findings.get(key)
					if (!known || (known.decorated && !decorated)) findings.set(key, { input: found.input, decorated, message: found.error.message })
					// A server that stops answering would make the batch take minutes: three strikes end it.
					if (error.outcome === 'no answer in time' && ++timeouts >= MAX_TIMEOUTS) throw new BatchAbandoned()
				} finally {
					if (TIMING) timings.push([performance.now() - started, JSON.stringify(input).slice(0, 160)])
				}
			}),
			// Without FUZZ_SHRINK a failure here is the harness's own or an abandoned batch: no shrinking.
			{ seed, numRuns, endOnFailure: !SHRINK, examples: examples.map((example) => [example] as [T]) },
		)
	} catch (error) {
		if (error instanceof Error && error.cause instanceof BatchAbandoned) abandoned = `\nThe batch was ended after ${MAX_TIMEOUTS} requests went unanswered.`
		else throw batchFailure(error)
	}
	function batchFailure(error: unknown) {
		const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : ''
		const summary = error instanceof Error ? error.message : String(error)
		const counterexample = summary.match(/Counterexample: (.*)/)?.[1] ?? ''
		const shrinks = summary.match(/Shrunk \d+ time\(s\)/)?.[0] ?? ''
		const path = summary.match(/path: "([^"]*)"/)?.[1] ?? ''
		return new Error(`${name}\n${cause || summary}\n  input: ${clip(counterexample, 400)}\n  fast-check: ${replay}, path ${path}, ${shrinks}`)
	}
	if (TIMING) {
		const slowest = timings.sort((a, b) => b[0] - a[0]).slice(0, 3)
		const statuses = new Map<number, number>()
		for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1)
		console.log(
			`${name}: ${Math.round(performance.now() - batchStarted)} ms, ${timings.length} requests, answers ${[...statuses].map(([status, n]) => `${status}×${n}`).join(' ')}; slowest: ${slowest.map(([ms, input]) => `${Math.round(ms)} ms ${input}`).join(' | ')}`,
		)
	}
	const after = await fingerprint()
	const changed = changedTables(before, after)
	if (findings.size) {
		const list = [...findings]
			.sort(([a], [b]) => a.localeCompare(b))
			.map(([key, finding], index) => `[${index + 1}] ${key}\n  input: ${clip(JSON.stringify(finding.input), 300)}\n  ${finding.message.replace(/\n/g, '\n  ')}`)
		const rows = changed ? `\nIn all, the batch changed rows: ${changed}` : ''
		throw new Error(`${name}: ${findings.size} kind(s) of malformed input not refused cleanly (${replay})\n\n${list.join('\n\n')}${rows}${abandoned}`)
	}
	if (changed) throw new Error(`${name}: the batch of malformed requests changed rows: ${changed}`)
	return answers
}

/**
 * Mutations grouped by field and corruption (a NUL apart from the other control characters); a
 * failure that needs the decoration (a broken percent-encoding, an extra field) is its own kind.
 */
export const mutationGrouping: Grouping<Mutation> = {
	kindOf: (m) => `${m.target}: ${m.how}${m.how === 'control' ? (m.value === 0 ? ' (NUL)' : ' (other C0)') : ''}`,
	isDecorated: (m) => Boolean(m.extra || m.raw),
	simplify: (m) => {
		if (!m.extra && !m.raw) return []
		const plain: Mutation = { ...m, extra: undefined, raw: undefined }
		const candidates: Array<{ input: Mutation; kind?: string }> = [{ input: plain }]
		if (m.raw) candidates.push({ input: { ...plain, raw: m.raw }, kind: `any invalid form + broken percent-encoding in the body (${m.raw})` })
		if (m.extra) candidates.push({ input: { ...plain, extra: m.extra }, kind: `any invalid form + an extra field named ${JSON.stringify(clip(m.extra[0], 24))}` })
		return candidates
	},
}

/** The base submission must be valid, or every corruption would be refused for the base's own fault. */
export function checkBase(spec: ActionSpec) {
	if (!spec.schema) return
	const formData = new FormData()
	for (const field of spec.fields) for (const value of asList(field.valid)) formData.append(field.name, value)
	const submission = parseWithZod(formData, { schema: spec.schema })
	if (submission.status !== 'success') {
		throw new Error(`${spec.name}: the fuzz suite's base submission is not valid any more: ${JSON.stringify(submission.error)}`)
	}
}

export async function fuzzAction(spec: ActionSpec, others: Others) {
	checkBase(spec)
	const answers = await runBatch(spec.name, mutations(spec), (mutation) => buildRequest(spec, mutation, others), spec.weight, mutationGrouping, coreExamples(spec))
	checkReached(spec, answers)
}

const UNKNOWN_ID = '00000000-0000-4000-8000-0000000000ff'

/**
 * What issue 13 found, sent on every run whatever the seed: a NUL in every field, an unknown id
 * and another list's (or someone else's) id in every reference, an impossible date in every date,
 * an unknown and someone else's slug in the URL, another visitor's token.
 */
export function coreExamples(spec: ActionSpec): Mutation[] {
	const encoding = spec.encodings[0]!
	const examples: Mutation[] = []
	if (!spec.slugAndTokenOnly) {
		for (const field of spec.fields) {
			if (field.kind === 'hidden' || field.kind === 'flag') continue
			examples.push({ target: field.name, how: 'control', value: 0, encoding })
			if (field.kind === 'ref' || field.kind === 'refs' || field.kind === 'id') {
				examples.push({ target: field.name, how: 'unknownId', value: field.kind === 'refs' ? UNKNOWN_ID : idValue(field, UNKNOWN_ID), encoding })
			}
			if (field.foreign?.length) examples.push({ target: field.name, how: 'foreign', value: idValue(field, field.foreign[0]!), encoding })
			if (field.kind === 'datetime' || field.kind === 'datetimes') examples.push({ target: field.name, how: 'impossibleDate', value: '2026-02-30T10:00', encoding })
		}
	}
	if (spec.slug) {
		examples.push({ target: '(url)', how: 'unknownId', value: encodeId(UNKNOWN_ID), encoding })
		if (spec.slug.foreign?.length) examples.push({ target: '(url)', how: 'someoneElses', value: encodeId(spec.slug.foreign[0]!), encoding })
	}
	if (spec.api === 'signed-in') examples.push({ target: '(auth)', how: 'unknownBearer', encoding })
	else if (spec.api !== 'public' && spec.csrf !== false) examples.push({ target: '(csrf)', how: 'anotherPersons', encoding })
	return examples
}

/**
 * The harness's own check: the corrupted fields must reach the action's validation. If every one
 * of them was stopped before it (the token refused, the session gone, a page not found), the suite
 * would pass while testing nothing.
 */
function checkReached(spec: ActionSpec, answers: Array<{ input: Mutation; status: number; location: string | null }>) {
	if (spec.slugAndTokenOnly || spec.validates === false) return
	const fieldInputs = answers.filter(({ input }) => !input.target.startsWith('('))
	if (fieldInputs.length < 3) return
	// Refused before the form: no caller (401), the form's token (403; in the JSON API a 403 can be the
	// domain's own refusal), or the guard's redirect home or to the login.
	const stopped = (a: { status: number; location: string | null }) =>
		a.status === 401 ||
		(a.status === 403 && !spec.api) ||
		(a.status >= 300 && a.status < 400 && (a.location === '/' || a.location === '/dashboard' || a.location?.startsWith('/login') === true))
	if (fieldInputs.every(stopped)) {
		const seen = [...new Set(fieldInputs.map((a) => `${a.status}${a.location ? ` → ${a.location}` : ''}`))].join(', ')
		throw new Error(`${spec.name}: no malformed field reached the form's validation (every answer was ${seen}): the fuzz suite's token, session or address is wrong`)
	}
}

/** A batch per named action, and a test that every action described has its batch. */
export function fuzzEveryAction(title: string, names: readonly string[], specs: () => ActionSpec[], others: () => Others) {
	describe(title, () => {
		test('every action described is fuzzed', () => {
			expect(specs().map((s) => s.name).sort()).toEqual([...names].sort())
		})
		for (const name of names) {
			test(name, async () => {
				await fuzzAction(specNamed(specs(), name), others())
			})
		}
	})
}

/** The action of that name among the described ones. */
export function specNamed(specs: ActionSpec[], name: string): ActionSpec {
	const found = specs.find((s) => s.name === name)
	if (!found) throw new Error(`no action named ${name}`)
	return found
}
