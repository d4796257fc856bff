/**
 * Faults below the fields: a body the server cannot read (wrong Content-Type, a multipart without
 * its boundary, truncated, with a nameless part, broken JSON, nothing at all), odd file names on an
 * upload field, and GETs with odd query strings or bad slugs. The readable part of every body is a
 * certainly invalid submission (a required field left out, or no token), so even a server that
 * reads more than it should changes nothing.
 */
import fc from 'fast-check'
import { encodeId } from '~/utils/public-id'
import { buildRequest, runBatch, type ActionSpec, type Grouping, type Mutation, type Others } from './fuzz'
import { encodeBody, type Body, type FuzzRequest, type Part, type Persona } from './http'

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')

export const TRANSPORT_FAULTS = [
	'text/plain',
	'application/xml',
	'json type, form body',
	'no Content-Type',
	'form type, utf-16 charset',
	'multipart/mixed',
	'multipart without boundary',
	'multipart with another boundary',
	'multipart truncated',
	'multipart part without a name',
	'multipart broken part header',
	'multipart too many parts',
	'multipart huge text part',
	'broken JSON',
	'JSON array',
	'JSON string',
	'deeply nested JSON',
	'empty body',
	'empty multipart',
	'raw invalid UTF-8',
	'gzip that is not',
] as const
export type TransportFault = (typeof TRANSPORT_FAULTS)[number]

export const ODD_FILENAMES = [
	'front=left.png',
	'a"b.png',
	'../../etc/passwd.png',
	`${'x'.repeat(300)}.png`,
	'',
	'ümlaut ülevaade.png',
	'semi;colon.png',
	'new\\line.png',
	'%00.png',
]

/** The certainly invalid submission every transport fault carries. */
export function invalidBase(spec: ActionSpec): Mutation {
	const required = spec.fields.find((field) => field.required && field.kind !== 'hidden' && field.kind !== 'flag')
	if (!spec.slugAndTokenOnly && required) return { target: required.name, how: 'missing', encoding: 'urlencoded' }
	if (spec.api === 'signed-in') return { target: '(auth)', how: 'none', encoding: 'urlencoded' }
	if (spec.api === 'public' && spec.slug) return { target: '(url)', how: 'unknownId', value: encodeId('00000000-0000-4000-8000-000000000000'), encoding: 'urlencoded' }
	return { target: '(csrf)', how: 'missing', encoding: 'urlencoded' }
}

function pairsOf(body: Body | undefined): Array<[string, string]> {
	if (!body) return []
	if (body.kind === 'urlencoded') return body.pairs
	if (body.kind === 'multipart') return body.parts.filter((p): p is { name: string; value: string } => !('filename' in p)).map((p) => [p.name, p.value])
	return []
}

const multipartBytes = (parts: Part[]) => Buffer.from(encodeBody({ kind: 'multipart', parts }).data)
const boundaryOf = () => String(encodeBody({ kind: 'multipart', parts: [] }).contentType).split('boundary=')[1]!

export function transportRequest(spec: ActionSpec, fault: TransportFault, others: Others): FuzzRequest {
	const base = buildRequest(spec, invalidBase(spec), others)
	const pairs = pairsOf(base.body)
	const form = encodeBody({ kind: 'urlencoded', pairs }).data as string
	const parts: Part[] = pairs.map(([name, value]) => ({ name, value }))
	const multipart = multipartBytes(parts)
	const boundary = boundaryOf()
	const raw = (contentType: string | undefined, data: string | Uint8Array): FuzzRequest => ({ ...base, body: { kind: 'raw', contentType, data } })
	const json = JSON.stringify(Object.fromEntries(pairs))
	switch (fault) {
		case 'text/plain':
			return raw('text/plain', form)
		case 'application/xml':
			return raw('application/xml', `<?xml version="1.0"?><form>${form}</form>`)
		case 'json type, form body':
			return raw('application/json', form)
		case 'no Content-Type':
			return raw(undefined, form)
		case 'form type, utf-16 charset':
			return raw('application/x-www-form-urlencoded; charset=utf-16', Buffer.from(form, 'utf16le'))
		case 'multipart/mixed':
			return raw(`multipart/mixed; boundary=${boundary}`, multipart)
		case 'multipart without boundary':
			return raw('multipart/form-data', multipart)
		case 'multipart with another boundary':
			return raw('multipart/form-data; boundary=somethingelse', multipart)
		case 'multipart truncated':
			return raw(`multipart/form-data; boundary=${boundary}`, multipart.subarray(0, Math.floor(multipart.length * 0.6)))
		case 'multipart part without a name':
			return raw(`multipart/form-data; boundary=${boundary}`, Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data\r\n\r\nvalue\r\n`), multipart]))
		case 'multipart broken part header':
			return raw(
				`multipart/form-data; boundary=${boundary}`,
				Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="a\r\nno colon here\r\n\r\nvalue\r\n`), multipart]),
			)
		case 'multipart too many parts':
			return raw(`multipart/form-data; boundary=${boundary}`, multipartBytes([...parts, ...[...Array(80).keys()].map((i) => ({ name: `f${i}`, value: 'x' }))]))
		case 'multipart huge text part':
			return raw(`multipart/form-data; boundary=${boundary}`, multipartBytes([...parts, { name: 'notes', value: 'x'.repeat(200_000) }]))
		case 'broken JSON':
			return raw('application/json', json.slice(0, Math.max(1, Math.floor(json.length / 2))))
		case 'JSON array':
			return raw('application/json', JSON.stringify(pairs))
		case 'JSON string':
			return raw('application/json', JSON.stringify(json))
		case 'deeply nested JSON':
			return raw('application/json', `${'['.repeat(20_000)}${']'.repeat(20_000)}`)
		case 'empty body':
			return raw('application/x-www-form-urlencoded', '')
		case 'empty multipart':
			return raw(`multipart/form-data; boundary=${boundary}`, '')
		case 'raw invalid UTF-8':
			return raw('application/x-www-form-urlencoded', Buffer.concat([Buffer.from(`${form}&x=`), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80])]))
		case 'gzip that is not':
			return { ...raw('application/x-www-form-urlencoded', form), headers: { ...base.headers, 'Content-Encoding': 'gzip' } }
	}
}

/** A file with an odd name (and image or non-image bytes) on the action's upload field, the rest certainly invalid. */
export function uploadRequest(spec: ActionSpec, field: string, filename: string, png: boolean, others: Others): FuzzRequest {
	const base = buildRequest(spec, { ...invalidBase(spec), encoding: 'multipart' }, others)
	const parts: Part[] = [
		...pairsOf(base.body).map(([name, value]) => ({ name, value })),
		{ name: field, filename, contentType: png ? 'image/png' : 'text/plain', data: png ? PNG : 'not an image' },
	]
	return { ...base, body: { kind: 'multipart', parts } }
}

export type TransportInput = { fault: TransportFault } | { file: string; png: boolean }

export const transportGrouping: Grouping<TransportInput> = {
	kindOf: (input) => ('fault' in input ? input.fault : `file named ${JSON.stringify(input.file.length > 40 ? `${input.file.slice(0, 12)}…` : input.file)}`),
}

/** Every fault once, and on an upload field the file name issue 13 found. */
export function transportExamples(uploadField?: string): TransportInput[] {
	return [...TRANSPORT_FAULTS.map((fault) => ({ fault })), ...(uploadField ? [{ file: 'front=left.png', png: true }] : [])]
}

export function transportArbitrary(spec: ActionSpec, uploadField?: string): fc.Arbitrary<TransportInput> {
	const faults = fc.constantFrom(...TRANSPORT_FAULTS).map((fault): TransportInput => ({ fault }))
	if (!uploadField) return faults
	return fc.oneof(faults, fc.record({ file: fc.constantFrom(...ODD_FILENAMES), png: fc.boolean() }))
}

// ------------------------------------------------------------------ GETs

/** Values of a query parameter: NUL and broken encodings first, then numbers and lists. */
const TEXT_VALUES = [
	'%00',
	'a%00b',
	'%01',
	'%1F',
	'%ZZ',
	'%',
	'%E0%A4%A',
	'%F0%9F%98',
	'%C3%28',
	'%ED%A0%80',
	`${'a'.repeat(5000)}`,
	'%E2%80%AE',
	'%0d%0aSet-Cookie:%20x=1',
	'%27%20or%201%3D1--',
	'..%2F..%2F',
]
const NUMBER_VALUES = ['-1', '0', '1e309', 'NaN', '99999999999999999999', '1.5', '%20', '0x10', 'Infinity', '-0']
/** Whole query strings that are odd in themselves. */
const ODD_SHAPES = [
	'?{key}[]=1',
	'?{key}=1&{key}=2',
	'?{key}[a]=b',
	'?__proto__[x]=1',
	'?constructor[prototype][x]=1',
	'?=',
	'?&&&',
	`?${[...Array(500).keys()].map((i) => `p${i}=${i}`).join('&')}`,
]

/** The parameters every page reads, and those some do. */
const COMMON_KEYS = ['lng', 'page', 'q']

export type QueryPage = { path: string; keys?: string[]; as: Persona }

/** A page and one odd parameter (a key it reads, mostly), or an odd query shape. */
export function oddQueryArbitrary(pages: QueryPage[]) {
	const value = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...TEXT_VALUES) }, { weight: 2, arbitrary: fc.constantFrom(...NUMBER_VALUES) })
	return fc
		.record({ page: fc.integer({ min: 0, max: pages.length - 1 }), keyIndex: fc.nat(), value, shape: fc.option(fc.constantFrom(...ODD_SHAPES), { freq: 4, nil: undefined }) })
		.map(({ page, keyIndex, value, shape }) => {
			const target = pages[page]!
			const keys = [...COMMON_KEYS, ...(target.keys ?? [])]
			const key = keys[keyIndex % keys.length]!
			return { page: target, query: shape ? shape.replace(/\{key\}/g, key) : `?${key}=${value}`, kind: shape ? `shape ${shape.slice(0, 30)}` : `?${key}=${value.slice(0, 20)}` }
		})
}

/** Every page with a NUL in every parameter it reads, and with numbers out of range. */
export function queryExamples(pages: QueryPage[]) {
	return pages.flatMap((page) => {
		const keys = [...new Set([...COMMON_KEYS, ...(page.keys ?? [])])]
		return [
			{ page, query: `?${keys.map((key) => `${key}=a%00b`).join('&')}`, kind: 'every parameter with a NUL' },
			{ page, query: `?${keys.map((key) => `${key}=1e309`).join('&')}`, kind: 'every parameter 1e309' },
		]
	})
}

export const queryGrouping: Grouping<{ page: QueryPage; query: string; kind: string }> = { kindOf: ({ page, kind }) => `GET ${page.path} as ${page.as.name} ${kind}` }

export const BAD_PATH_SLUGS = [
	'abc',
	'%00',
	'a%00b',
	'%ZZ',
	'%E0%A4%A',
	'x'.repeat(3000),
	'====',
	'..%2F..%2Fetc%2Fpasswd',
	'00000000-0000-4000-8000-000000000000',
	'%F0%9F%98%80',
	'null',
]

/** A route with a slug, someone else's items for it, and who asks. */
export type SlugRoute = { path: (slug: string) => string; as: Persona; foreign?: string[] }

export function badSlugArbitrary(routes: SlugRoute[]) {
	return fc.record({
		route: fc.integer({ min: 0, max: routes.length - 1 }),
		slug: fc.oneof(fc.constantFrom(...BAD_PATH_SLUGS), fc.uuid({ version: 4 }).map(encodeId), fc.constant('(foreign)')),
		foreignIndex: fc.nat(),
	})
}

/** Every route with an unknown id, a NUL, and someone else's id. */
export function badSlugExamples(routes: SlugRoute[]) {
	return routes.flatMap((route, index) => [
		{ route: index, slug: encodeId('00000000-0000-4000-8000-0000000000ff'), foreignIndex: 0 },
		{ route: index, slug: '%00', foreignIndex: 0 },
		...(route.foreign?.length ? [{ route: index, slug: '(foreign)', foreignIndex: 0 }] : []),
	])
}

export function badSlugGrouping(routes: SlugRoute[]): Grouping<{ route: number; slug: string; foreignIndex: number }> {
	return {
		kindOf: ({ route, slug }) => {
			const kind = slug === '(foreign)' ? "someone else's id" : BAD_PATH_SLUGS.includes(slug) ? JSON.stringify(slug.length > 20 ? `${slug.slice(0, 8)}…` : slug) : 'unknown id'
			return `GET ${routes[route]!.path(':slug')} ${kind}`
		},
	}
}

export function badSlugRequest(routes: SlugRoute[], input: { route: number; slug: string; foreignIndex: number }): FuzzRequest {
	const route = routes[input.route]!
	let slug = input.slug
	if (slug === '(foreign)') {
		const foreign = route.foreign ?? []
		slug = foreign.length ? encodeId(foreign[input.foreignIndex % foreign.length]!) : encodeId('00000000-0000-4000-8000-000000000000')
	}
	return { method: 'GET', path: route.path(slug), as: route.as }
}

/** Transport faults (and, with `uploadField`, odd file names) on one action: the batch both suites run. */
export function transportBatch(name: string, action: ActionSpec, others: () => Others, uploadField?: string) {
	return runBatch(
		`${name}: transport faults`,
		transportArbitrary(action, uploadField),
		(input) => ('fault' in input ? transportRequest(action, input.fault, others()) : uploadRequest(action, uploadField ?? 'file', input.file, input.png, others())),
		0.25,
		transportGrouping,
		transportExamples(uploadField),
	)
}

/** GETs of the given pages with odd query strings. */
export function oddQueryBatch(name: string, pages: QueryPage[]) {
	return runBatch(name, oddQueryArbitrary(pages), ({ page, query }) => ({ method: 'GET', path: `${page.path}${query}`, as: page.as }), 3, queryGrouping, queryExamples(pages))
}

/** GETs of the given routes with malformed slugs and other owners' ids. */
export function badSlugBatch(name: string, routes: SlugRoute[]) {
	return runBatch(name, badSlugArbitrary(routes), (input) => badSlugRequest(routes, input), 2, badSlugGrouping(routes), badSlugExamples(routes))
}
