import { readdirSync } from 'node:fs'
import path from 'node:path'
import { type RouteConfigEntry } from '@react-router/dev/routes'
import { Validator } from '@seriousme/openapi-schema-validator'
import { matchRoutes, type RouteObject } from 'react-router'
import { beforeAll, describe, expect, test } from 'vitest'
import * as z from 'zod'
import { openApiDocument } from '~/domain/api/openapi.server'
import * as schemas from '~/domain/api/responses.server'
import { makeOffer } from '~/domain/service-flow/offer-moves.server'
import { loader as unknownPath, action as unknownPathAction } from '~/routes/admin.api.$'
import { loader as adsDetails } from '~/routes/admin.api.ads-details'
import { action as contactUs } from '~/routes/admin.api.contact-us'
import { action as getChat } from '~/routes/admin.api.get-chat'
import { action as getNotification } from '~/routes/admin.api.get-notification'
import { action as login } from '~/routes/admin.api.login'
import { action as logout } from '~/routes/admin.api.logout'
import { action as openApiAction, loader as openApi } from '~/routes/admin.api.openapi[.]json'
import { action as sendChat } from '~/routes/admin.api.send-chat'
import { loader as siteSettings } from '~/routes/admin.api.site-settings'
import { loader as visitInsert } from '~/routes/admin.api.visit-insert'
import { action as workshopDetailsAction, loader as workshopDetails } from '~/routes/admin.api.workshop-details.$id'
import { loader as workshopFilters } from '~/routes/admin.api.workshop-filters'
import { loader as workshopList } from '~/routes/admin.api.workshop-list'
import { createSessionToken } from '~/utils/auth.server'
import { db } from '~/db/db.server'
import { PASSWORD } from '#tests/support/accounts'
import { demoData } from '#tests/support/demo-data'
import { customerWithVehicle, openRequest, referenceData, workshopOffering } from '#tests/support/flow'

/**
 * The API's contract (docs/api.md, decision 0145): the OpenAPI document is valid, names every
 * route under /admin/api, and real answers have the documented shapes; an unknown path is a JSON
 * 404, never the portal's redirect.
 */
type Handler = (args: never) => Promise<Response> | Response
type Init = { method?: string; headers?: Record<string, string>; body?: BodyInit; params?: Record<string, string> }
async function call(handler: Handler, url: string, init: Init = {}) {
	const request = new Request(`http://localhost${url}`, { method: init.method ?? 'GET', headers: init.headers, body: init.body })
	const response = await handler({ request, params: init.params ?? {}, context: { clientIp: '198.51.100.7' } } as never)
	return { response, body: (await response.json()) as unknown }
}
const postJson = (body: unknown, headers: Record<string, string> = {}): Init => ({
	method: 'POST',
	headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
	body: JSON.stringify(body),
})
/**
 * Parses an answer twice: with the strict zod schema the document is generated from, and with the
 * document's own JSON Schema for it (read back by zod's fromJSONSchema), so neither the source nor
 * the generated text can disagree with the server. A field missing, added or retyped fails.
 */
function conforms(schema: z.ZodType, body: unknown) {
	const id = schemas.responseSchemas.get(schema)?.id
	expect(id, 'a named response schema').toBeDefined()
	const shown = JSON.stringify(body).slice(0, 400)
	expect(schema.safeParse(body).error?.issues ?? [], `${id}: ${shown}`).toEqual([])
	expect(documented(id!).safeParse(body).error?.issues ?? [], `${id} (document): ${shown}`).toEqual([])
}
const defs = JSON.parse(JSON.stringify(openApiDocument().components.schemas).replaceAll('#/components/schemas/', '#/$defs/')) as Record<string, unknown>
const documented = (id: string) => z.fromJSONSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', $defs: defs, $ref: `#/$defs/${id}` } as never)

type Document = ReturnType<typeof openApiDocument>
const document: Document = openApiDocument()

beforeAll(async () => {
	await demoData()
})

describe('the OpenAPI document', () => {
	test('is a valid OpenAPI 3.1 document', async () => {
		const validator = new Validator()
		const result = await validator.validate(structuredClone(document) as never)
		expect(result.errors ?? []).toEqual([])
		expect(result.valid).toBe(true)
		expect(validator.version).toBe('3.1')
	})

	test('documents every route under /admin/api (a new route without documentation fails here)', () => {
		const files = readdirSync(path.resolve('app/routes')).filter((file) => file.startsWith('admin.api.') && file !== 'admin.api.$.ts')
		expect(files.length).toBeGreaterThan(10)
		for (const file of files) {
			// admin.api.workshop-details.$id.ts → /workshop-details/{id}; a `[.]` is a dot of the path.
			const segments = file.replace(/^admin\.api\./, '').replace(/\.tsx?$/, '').split(/\.(?![^[]*\])/)
			const documented = '/' + segments.map((segment) => segment.replace('[.]', '.').replace(/^\$(\w+)$/, '{$1}')).join('/')
			expect(Object.keys(document.paths), file).toContain(documented)
		}
	})

	test('documents every call of spec §7 and docs/api.md, the Bearer scheme, and the error answers', () => {
		const operations = Object.entries(document.paths).flatMap(([route, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${route}`))
		for (const expected of [
			'GET /site-settings',
			'GET /ads-details',
			'GET /visit-insert',
			'POST /logout',
			'POST /get-notification',
			'POST /read-notification',
			'POST /get-chat',
			'POST /send-chat',
			'POST /login',
			'POST /contact-us',
			'GET /workshop-list',
			'GET /workshop-filters',
			'GET /workshop-details/{id}',
			'GET /openapi.json',
		])
			expect(operations).toContain(expected)
		expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
		const statuses = new Set(Object.values(document.paths).flatMap((methods) => Object.values(methods).flatMap((op) => Object.keys((op as { responses: object }).responses))))
		for (const status of ['400', '401', '403', '404', '405', '413', '422', '429', '503']) expect(statuses).toContain(status)
		// Bodies come from the forms' own schemas.
		expect(document.components.schemas.ContactInput).toMatchObject({ required: ['name', 'email', 'message'] })
		expect(document.components.schemas.LoginInput).toMatchObject({ required: ['email', 'password'] })
	})

	test('documents partner keys: the X-Partner-Key scheme, the ?partner= parameter, and 403 and 429 on the calls that take one (decision 0154)', () => {
		expect(document.components.securitySchemes.partnerKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Partner-Key' })
		expect(document.components.parameters.partner).toMatchObject({ name: 'partner', in: 'query', required: false })
		type Operation = { parameters: object[]; security: object[]; responses: Record<string, unknown> }
		const keyedCalls = Object.entries(document.paths).flatMap(([route, methods]) =>
			Object.entries(methods as Record<string, Operation>)
				.filter(([, operation]) => operation.security.some((entry) => 'partnerKey' in entry))
				.map(([method, operation]) => [`${method.toUpperCase()} ${route}`, operation] as const),
		)
		expect(keyedCalls.map(([name]) => name).sort()).toEqual(['GET /workshop-details/{id}', 'GET /workshop-filters', 'GET /workshop-list', 'POST /contact-us', 'POST /widget-request'])
		for (const [name, operation] of keyedCalls) {
			// Optional: without a key the call works as it always did.
			expect(operation.security, name).toEqual([{}, { partnerKey: [] }])
			expect(operation.parameters, name).toContainEqual({ $ref: '#/components/parameters/partner' })
			expect(operation.responses, name).toMatchObject({ 403: { $ref: '#/components/responses/Forbidden' }, 429: { $ref: '#/components/responses/TooManyRequests' } })
		}
	})

	test('is served at /admin/api/openapi.json: public, cacheable, with CORS; GET only', async () => {
		const { response, body } = await call(openApi, '/admin/api/openapi.json')
		expect(response.status).toBe(200)
		expect(response.headers.get('Content-Type')).toBe('application/json; charset=utf-8')
		expect(response.headers.get('Cache-Control')).toMatch(/^public, max-age=3600/)
		expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*')
		expect(body).toMatchObject({ openapi: '3.1.1', servers: [{ url: 'http://localhost:3000/admin/api' }] })
		const post = await call(openApiAction, '/admin/api/openapi.json', { method: 'POST' })
		expect(post.response.status).toBe(405)
		expect(post.response.headers.get('Allow')).toBe('GET, OPTIONS')
	})
})

describe('real answers have their documented shapes', () => {
	test('the public calls', async () => {
		conforms(schemas.SiteSettingsResponseSchema, (await call(siteSettings, '/admin/api/site-settings')).body)
		conforms(schemas.AdsResponseSchema, (await call(adsDetails, '/admin/api/ads-details?lng=et')).body)
		conforms(schemas.MessageResponseSchema, (await call(visitInsert, '/admin/api/visit-insert')).body)
		conforms(schemas.WorkshopFiltersResponseSchema, (await call(workshopFilters, '/admin/api/workshop-filters?lng=en')).body)
		const list = (await call(workshopList, '/admin/api/workshop-list?lng=en&sort=name&city=tallinn')).body as { data: { items: Array<{ id: string }> } }
		conforms(schemas.WorkshopListResponseSchema, list)
		expect(list.data.items.length).toBeGreaterThan(0)
		for (const { id } of list.data.items.slice(0, 3)) {
			conforms(schemas.WorkshopDetailsResponseSchema, (await call(workshopDetails, `/admin/api/workshop-details/${id}?lng=ru`, { params: { id } })).body)
		}
	})

	test('the errors: 404, 405, 422, 401 and 403', async () => {
		const missing = await call(workshopDetails, '/admin/api/workshop-details/nope?lng=en', { params: { id: 'nope' } })
		expect(missing.response.status).toBe(404)
		conforms(schemas.ErrorBodySchema, missing.body)
		const wrongMethod = await call(workshopDetailsAction, '/admin/api/workshop-details/x', { method: 'DELETE', params: { id: 'x' } })
		expect(wrongMethod.response.status).toBe(405)
		expect(wrongMethod.response.headers.get('Allow')).toBe('GET, OPTIONS')
		conforms(schemas.ErrorBodySchema, wrongMethod.body)
		const invalid = await call(contactUs, '/admin/api/contact-us?lng=en', postJson({ name: 'Mari', email: 'not-an-address', message: 'Tere' }))
		expect(invalid.response.status).toBe(422)
		conforms(schemas.ValidationErrorBodySchema, invalid.body)
		const noCaller = await call(getNotification, '/admin/api/get-notification?lng=en', postJson({}))
		expect(noCaller.response.status).toBe(401)
		conforms(schemas.ErrorBodySchema, noCaller.body)
		// A partner key that is no key of ours (decision 0154).
		const unknownKey = await call(workshopList, '/admin/api/workshop-list?lng=en&partner=pk_nobodys', { headers: { Origin: 'https://partner.example' } })
		expect(unknownKey.response.status).toBe(403)
		conforms(schemas.ErrorBodySchema, unknownKey.body)
	})

	test('contact, login, notifications, chat and logout', async () => {
		conforms(schemas.MessageResponseSchema, (await call(contactUs, '/admin/api/contact-us?lng=en', postJson({ name: 'Mari Tamm', email: 'mari@example.com', message: 'Tere!' }))).body)

		const refs = await referenceData()
		const { customer, vehicleId } = await customerWithVehicle()
		const workshop = await workshopOffering([refs.tyres])
		const requestId = await openRequest(customer.id, vehicleId, [refs.tyres])
		await makeOffer(workshop, requestId, { price: 18500, notes: '', description: 'New tyres' }, null)

		const signedIn = await call(login, '/admin/api/login?lng=en', postJson({ email: customer.email, password: PASSWORD }))
		expect(signedIn.response.status).toBe(200)
		conforms(schemas.LoginResponseSchema, signedIn.body)
		const auth = { Authorization: `Bearer ${(signedIn.body as { token: string }).token}` }

		const notifications = await call(getNotification, '/admin/api/get-notification?lng=en', postJson({}, auth))
		conforms(schemas.NotificationsResponseSchema, notifications.body)
		expect((notifications.body as { notifications: unknown[] }).notifications.length).toBeGreaterThan(0)

		const workshopAuth = { Authorization: `Bearer ${await createSessionToken(db, { userId: workshop.userId, kind: 'api', method: 'password' })}` }
		conforms(schemas.MessageResponseSchema, (await call(sendChat, '/admin/api/send-chat?lng=en', postJson({ receiver_id: customer.id, message: 'Tere!' }, workshopAuth))).body)
		const chat = await call(getChat, '/admin/api/get-chat?lng=en', postJson({ receiver_id: workshop.userId }, auth))
		conforms(schemas.ChatResponseSchema, chat.body)
		expect((chat.body as { chats: unknown[] }).chats).toHaveLength(1)

		conforms(schemas.MessageResponseSchema, (await call(logout, '/admin/api/logout?lng=en', postJson({}, auth))).body)
	})
})

describe('an unknown path under /admin/api', () => {
	const variants: Array<[string, Init]> = [
		['GET', {}],
		['GET with a token', { headers: { Authorization: 'Bearer not-a-token' } }],
		['POST', postJson({ a: 1 })],
		['POST with a token', postJson({}, { Authorization: 'Bearer not-a-token' })],
		['PUT', { method: 'PUT' }],
		['DELETE', { method: 'DELETE' }],
	]
	for (const [name, init] of variants) {
		test(`${name} answers the API's JSON 404 with CORS, not a redirect`, async () => {
			const handler = (init.method ?? 'GET') === 'GET' ? unknownPath : unknownPathAction
			const { response, body } = await call(handler, '/admin/api/nope?lng=en', init)
			expect(response.status).toBe(404)
			expect(response.headers.get('Content-Type')).toBe('application/json; charset=utf-8')
			expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*')
			expect(response.headers.get('Cache-Control')).toBe('no-store')
			expect(body).toEqual({ status: 404, message: 'Not found.' })
		})
	}

	test('reaches the splat route, while every call keeps its own route', async () => {
		// The portal's own route list (app/routes.ts), as the build reads it.
		;(globalThis as { __reactRouterAppDirectory?: string }).__reactRouterAppDirectory = path.resolve('app')
		const config: RouteConfigEntry[] = await (await import('~/routes')).default
		const toObject = (route: RouteConfigEntry): RouteObject =>
			({ id: route.id, path: route.path, index: route.index as false, children: (route.children ?? []).map(toObject) }) as RouteObject
		const routes = config.map(toObject)
		const leaf = (pathname: string) => matchRoutes([{ id: 'root', path: '', children: routes }], pathname)?.at(-1)?.route.id
		for (const unknown of ['/admin/api', '/admin/api/', '/admin/api/nope', '/admin/api/workshop-list/extra', '/admin/api/workshop-details/a/b', '/admin/api/openapi', '/admin/api/login/x'])
			expect(leaf(unknown), unknown).toBe('routes/admin.api.$')
		expect(leaf('/admin/api/workshop-list')).toBe('routes/admin.api.workshop-list')
		expect(leaf('/admin/api/workshop-details/abc')).toBe('routes/admin.api.workshop-details.$id')
		expect(leaf('/admin/api/openapi.json')).toBe('routes/admin.api.openapi[.]json')
		expect(leaf('/admin/apix')).toBe('routes/$')
	})
})
