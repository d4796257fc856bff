import * as z from 'zod'
import { LoginSchema } from '~/domain/accounts/accounts'
import { ReviewPageSchema, WorkshopListQuerySchema } from '~/domain/directory/list-query'
import { ChatMessageSchema } from '~/domain/messaging/chat'
import { ContactSchema } from '~/domain/messaging/contact'
import { PARTNER_KEY_HEADER, PARTNER_KEY_PARAM, PARTNER_KEY_PREFIX } from '~/domain/partners/partners'
import { MAX_REQUEST_IMAGES, MAX_UNCONFIRMED_PER_DAY, WIDGET_REQUEST_HOURS, WidgetRequestSchema } from '~/domain/service-flow/widget-request'
import { supportedLanguages } from '~/i18n/config'
import { API_TOKEN_DAYS } from '~/utils/auth.server'
import { absoluteUrl } from '~/utils/seo.server'
import { responseSchemas } from './responses.server'

/**
 * The OpenAPI 3.1 document of the JSON API (docs/api.md), served at /admin/api/openapi.json.
 * Generated from the zod schemas the calls use: the forms' schemas (as input) for bodies and
 * queries, ./responses.server.ts (as output) for answers. A call is one entry of `calls`;
 * tests/integration/api-contract.test.ts fails when a route under /admin/api has none.
 */

type Status = 400 | 401 | 403 | 404 | 405 | 413 | 415 | 422 | 429 | 500 | 503
type Call = {
	method: 'get' | 'post'
	path: string
	operationId: string
	tag: 'site' | 'directory' | 'accounts' | 'messaging' | 'requests' | 'meta'
	summary: string
	description?: string
	/** bearer: `Authorization: Bearer <token>` from login (the portal's own pages use the cookie and CSRF instead). */
	auth?: 'bearer'
	/** Takes a partner's key (decision 0154): `?partner=` or `X-Partner-Key`, optional; 403 and 429 come with it. */
	partner?: true
	query?: 'list' | 'reviews'
	body?: string
	/** A form with files (multipart/form-data; urlencoded without them), never JSON. */
	files?: { field: string; max: number }
	ok: string | { description: string; schema: object }
	errors: Status[]
	cached?: boolean
}

/** What every call can meet: a method it does not take, the portal starting or its database away, a bug. */
const always: Status[] = [405, 500, 503]
const posted: Status[] = [400, 413]
/** What a partner's key can meet: an unknown, revoked or wrong-origin key (403), the partner's limit (429). */
const keyed: Status[] = [403, 429]

const calls: Call[] = [
	{ method: 'get', path: '/site-settings', operationId: 'siteSettings', tag: 'site', summary: 'Site data for the header, footer and address block (spec §3).', ok: 'SiteSettings', errors: [405, 503], cached: true },
	{ method: 'get', path: '/ads-details', operationId: 'adsDetails', tag: 'site', summary: 'The active header and footer ads in the language asked for.', ok: 'Ads', errors: always, cached: true },
	{ method: 'get', path: '/visit-insert', operationId: 'visitInsert', tag: 'site', summary: 'Counts the caller as a visitor of today (once per visitor per day).', ok: 'Message', errors: always },
	{ method: 'get', path: '/workshop-list', operationId: 'workshopList', tag: 'directory', summary: 'The directory: filters, sort and paging as on /workshop-list.', description: 'Lenient like a search box: a value it cannot use is dropped, never refused.', query: 'list', partner: true, ok: 'WorkshopList', errors: [...keyed, ...always], cached: true },
	{ method: 'get', path: '/workshop-filters', operationId: 'workshopFilters', tag: 'directory', summary: "The choices of the list's filters, named in the language asked for.", partner: true, ok: 'WorkshopFilters', errors: [...keyed, ...always], cached: true },
	{ method: 'get', path: '/workshop-details/{id}', operationId: 'workshopDetails', tag: 'directory', summary: "One workshop's public profile, rating and a page of its reviews.", query: 'reviews', partner: true, ok: 'WorkshopDetails', errors: [...keyed, 404, ...always], cached: true },
	{ method: 'post', path: '/contact-us', operationId: 'contactUs', tag: 'messaging', summary: 'The contact form.', description: 'One address may send 5 messages an hour. A filled `name__confirm` (the widgets\' bot trap) is thanked and nothing is kept.', body: 'ContactInput', partner: true, ok: 'Message', errors: [...posted, 403, 422, 429, ...always] },
	{ method: 'post', path: '/login', operationId: 'login', tag: 'accounts', summary: 'Logs in and answers a Bearer token for the signed-in calls.', description: `The token is valid ${API_TOKEN_DAYS} days, until logout or until the account is blocked. A wrong e-mail or password, or a blocked account, is a 401; too many attempts a 429.`, body: 'LoginInput', ok: 'Login', errors: [...posted, 401, 422, 429, ...always] },
	{ method: 'post', path: '/logout', operationId: 'logout', tag: 'accounts', summary: 'Ends the Bearer token.', auth: 'bearer', ok: 'Message', errors: [401, ...always] },
	{ method: 'post', path: '/get-notification', operationId: 'getNotification', tag: 'messaging', summary: "The caller's newest 20 notifications and the unread count.", auth: 'bearer', ok: 'Notifications', errors: [...posted, 401, 403, ...always] },
	{ method: 'post', path: '/read-notification', operationId: 'readNotification', tag: 'messaging', summary: 'Marks one notification read; answers as get-notification.', auth: 'bearer', body: 'ReadNotificationInput', ok: 'Notifications', errors: [...posted, 401, 403, 404, ...always] },
	{ method: 'post', path: '/get-chat', operationId: 'getChat', tag: 'messaging', summary: 'The conversation with another user, oldest first (the newest 200).', description: 'Only a customer and a workshop that share a request may chat; anyone else is a 403.', auth: 'bearer', body: 'GetChatInput', ok: 'Chat', errors: [...posted, 401, 403, 404, ...always] },
	{ method: 'post', path: '/send-chat', operationId: 'sendChat', tag: 'messaging', summary: 'Sends a chat message.', description: 'More than 30 messages a minute is a 429.', auth: 'bearer', body: 'ChatMessageInput', ok: 'Message', errors: [...posted, 401, 403, 404, 422, 429, ...always] },
	{
		method: 'post',
		path: '/widget-request',
		operationId: 'widgetRequest',
		tag: 'requests',
		summary: 'The "ask for an offer" widget: keeps a request and e-mails the link that sends it.',
		description:
			`Checked with the portal's request and vehicle rules; services, brand and city are codes of /workshop-filters, \`workshopId\` a workshop's public id. ` +
			`Up to ${MAX_REQUEST_IMAGES} photos in \`images\` (PNG, JPEG or WebP, 5 MB each), checked by content. Nothing reaches a workshop until the e-mailed link (valid ${WIDGET_REQUEST_HOURS} h) is opened. ` +
			`A throwaway address is a 422; a ${MAX_UNCONFIRMED_PER_DAY + 1}th unconfirmed request of the day from one address or for one e-mail a 429. A filled \`name__confirm\` (the bot trap) is answered alike and nothing is kept.`,
		body: 'WidgetRequestInput',
		files: { field: 'images', max: MAX_REQUEST_IMAGES },
		partner: true,
		ok: 'Message',
		errors: [...posted, 403, 415, 422, 429, ...always],
	},
	{ method: 'get', path: '/openapi.json', operationId: 'openApi', tag: 'meta', summary: 'This document.', ok: { description: 'The OpenAPI 3.1 document.', schema: { type: 'object' } }, errors: [405], cached: true },
]

/** The forms' schemas, as a client sends them (zod's input side). */
function requestSchemas() {
	const registry = z.registry<{ id: string }>()
	registry.add(ContactSchema, { id: 'ContactInput' })
	registry.add(LoginSchema, { id: 'LoginInput' })
	registry.add(WidgetRequestSchema, { id: 'WidgetRequestInput' })
	registry.add(ChatMessageSchema, { id: 'ChatMessageInput' })
	registry.add(z.object({ id: z.string().min(1).meta({ description: 'A raw UUID, or its base64url form.' }) }), { id: 'ReadNotificationInput' })
	registry.add(z.object({ receiver_id: z.string().min(1).meta({ description: "The other user's id: a raw UUID, or its base64url form." }) }), { id: 'GetChatInput' })
	return convert(registry, 'input')
}

function convert(registry: z.core.$ZodRegistry<{ id: string }>, io: 'input' | 'output'): Record<string, Record<string, unknown>> {
	const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', io, unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` })
	// The document names the dialect once (jsonSchemaDialect) and the components by their place, so
	// neither `$schema` nor zod's `$id` (a fragment, not allowed as an `$id`) stays; the e-mail's
	// format is lost in zod's pipe (trim, then check).
	const result = Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _dialect, $id: _id, ...schema }]) => [id, schema as Record<string, unknown>]))
	for (const schema of io === 'input' ? Object.values(result) : []) {
		const email = (schema.properties as Record<string, Record<string, unknown>> | undefined)?.email
		if (email) email.format = 'email'
	}
	return dropSafeIntegerBounds(result)
}

/** zod writes `z.int()`'s implicit bounds (±2^53−1) into every integer: noise for a reader. */
function dropSafeIntegerBounds<T>(value: T): T {
	if (Array.isArray(value)) return value.map(dropSafeIntegerBounds) as T
	if (!value || typeof value !== 'object') return value
	const entries = Object.entries(value)
		.filter(([key, item]) => !((key === 'maximum' || key === 'minimum') && Math.abs(item as number) === Number.MAX_SAFE_INTEGER))
		.map(([key, item]) => [key, dropSafeIntegerBounds(item)])
	return Object.fromEntries(entries) as T
}

/** Query parameters from a query schema's input side: every one optional. */
function queryParameters(schema: z.core.$ZodType): object[] {
	const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, object> }
	return Object.entries(json.properties ?? {}).map(([name, property]) => ({ name, in: 'query', required: false, schema: property }))
}

const statusTexts: Record<Status, { name: string; description: string; schema?: string; headers?: string[] }> = {
	400: { name: 'BadRequest', description: 'The body cannot be read (broken JSON is read as empty; a broken form is 400).' },
	401: { name: 'Unauthorized', description: 'No caller, or the token has ended (logout, blocked account, expiry); at login a wrong e-mail or password. "Please login to continue!", translated.' },
	403: { name: 'Forbidden', description: "The session cookie without the page's CSRF token, a caller who may not do this (a chat with a stranger), or a partner key that is unknown, revoked or used from an origin its partner did not list." },
	404: { name: 'NotFound', description: 'An id that does not decode or names nothing the caller may see; any unknown path under /admin/api.' },
	405: { name: 'MethodNotAllowed', description: 'A method the call does not take; `Allow` lists the ones it does.', headers: ['Allow'] },
	413: { name: 'PayloadTooLarge', description: 'A body over the size limit.' },
	415: { name: 'UnsupportedMediaType', description: 'A body that is not a form where a form (with files) is read.' },
	422: { name: 'ValidationFailed', description: 'A body that does not validate: one text per field in `errors`, in the language asked for.', schema: 'ValidationError' },
	429: { name: 'TooManyRequests', description: "A rate limit (an address's, an account's, or a partner key's calls a minute); `Retry-After` says when to try again (seconds).", headers: ['Retry-After'] },
	500: { name: 'ServerError', description: 'Anything unexpected (logged on the server).' },
	503: { name: 'Unavailable', description: 'The portal is starting or its database is out of reach; `Retry-After` says when to try again (seconds).', headers: ['Retry-After'] },
}

const headerObjects = {
	'Allow': { description: 'The methods the call takes.', schema: { type: 'string' } },
	'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer', minimum: 1 } },
	'Cache-Control': {
		description: 'Public for 30–60 s when the address names the language with ?lng= (or has none), private otherwise; `private, no-cache` for a call with a partner key (every answer varies with X-Partner-Key).',
		schema: { type: 'string' },
	},
}

const ref = (kind: 'schemas' | 'responses' | 'parameters', name: string) => ({ $ref: `#/components/${kind}/${name}` })
const json = (schema: object) => ({ 'application/json': { schema } })

function operation(call: Call) {
	const parameters: object[] = [ref('parameters', 'lng')]
	if (call.path.includes('{id}')) parameters.unshift({ name: 'id', in: 'path', required: true, description: "The workshop's public id (base64url of its UUID).", schema: { type: 'string' } })
	if (call.query === 'list') parameters.push(...queryParameters(WorkshopListQuerySchema))
	if (call.query === 'reviews') parameters.push(...queryParameters(ReviewPageSchema))
	if (call.partner) parameters.push(ref('parameters', 'partner'))
	const ok =
		typeof call.ok === 'string'
			? { description: 'Success.', content: json(ref('schemas', call.ok)) }
			: { description: call.ok.description, content: json(call.ok.schema) }
	if (call.cached) Object.assign(ok, { headers: { 'Cache-Control': headerObjects['Cache-Control'] } })
	const responses: Record<string, object> = { 200: ok }
	for (const status of call.errors) responses[status] = ref('responses', statusTexts[status].name)
	if (call.path === '/site-settings') responses[500] = { description: "The spec's own envelope on failure.", content: json(ref('schemas', 'SiteSettingsFailure')) }
	return {
		operationId: call.operationId,
		tags: [call.tag],
		summary: call.summary,
		...(call.description ? { description: call.description } : {}),
		parameters,
		...(call.body
			? {
					requestBody: {
						required: true,
						content: call.files
							? {
									'multipart/form-data': {
										schema: {
											allOf: [
												ref('schemas', call.body),
												{ type: 'object', properties: { [call.files.field]: { type: 'array', maxItems: call.files.max, items: { type: 'string', contentMediaType: 'application/octet-stream' } } } },
											],
										},
									},
									'application/x-www-form-urlencoded': { schema: ref('schemas', call.body) },
								}
							: {
									'application/json': { schema: ref('schemas', call.body) },
									'application/x-www-form-urlencoded': { schema: ref('schemas', call.body) },
									'multipart/form-data': { schema: ref('schemas', call.body) },
								},
					},
				}
			: {}),
		// A partner's key is optional: without it (`{}`) the call works as it always did.
		security: call.auth ? [{ bearerAuth: [] }] : call.partner ? [{}, { partnerKey: [] }] : [],
		responses,
	}
}

function buildDocument() {
	const paths: Record<string, Record<string, object>> = {}
	for (const call of calls) (paths[call.path] ??= {})[call.method] = operation(call)
	const responses = Object.fromEntries(
		Object.values(statusTexts).map(({ name, description, schema, headers }) => [
			name,
			{
				description,
				content: json(ref('schemas', schema ?? 'Error')),
				...(headers ? { headers: Object.fromEntries(headers.map((header) => [header, headerObjects[header as keyof typeof headerObjects]])) } : {}),
			},
		]),
	)
	return {
		openapi: '3.1.1',
		jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
		info: {
			title: 'Autohub JSON API',
			version: '1',
			description:
				'The public JSON API of the Autohub portal (docs/api.md). Public calls need no token and answer CORS requests from any origin (no credentials). ' +
				`Signed-in calls take \`Authorization: Bearer <token>\` from POST /login (valid ${API_TOKEN_DAYS} days). ` +
				`Partner sites add their key (\`${PARTNER_KEY_HEADER}\` or \`?${PARTNER_KEY_PARAM}=\`) to the directory and contact calls. ` +
				'Every error is JSON `{ status, message }` with the HTTP status repeated; an unknown path is a JSON 404.',
		},
		servers: [{ url: absoluteUrl('/admin/api')! }],
		tags: [
			{ name: 'site', description: 'Site data, ads, visit counting.' },
			{ name: 'directory', description: 'The public workshop directory.' },
			{ name: 'accounts', description: 'Login and logout of API clients.' },
			{ name: 'messaging', description: 'Contact form, notifications, chat.' },
			{ name: 'requests', description: 'Asking for offers from partner sites (the request widget).' },
			{ name: 'meta', description: 'This document.' },
		],
		paths,
		components: {
			schemas: { ...convert(responseSchemas, 'output'), ...requestSchemas() },
			responses,
			parameters: {
				lng: { name: 'lng', in: 'query', required: false, description: 'The language of texts; else the `lng` cookie (same-site callers), else Estonian.', schema: { type: 'string', enum: [...supportedLanguages] } },
				partner: {
					name: PARTNER_KEY_PARAM,
					in: 'query',
					required: false,
					description: `A partner's key (${PARTNER_KEY_PREFIX}…), as an alternative to the ${PARTNER_KEY_HEADER} header that keeps a GET a simple CORS request. The call is then attributed to the partner, checked against the origins its key may be used from, and limited to its calls a minute.`,
					schema: { type: 'string', pattern: `^${PARTNER_KEY_PREFIX}` },
				},
			},
			securitySchemes: {
				bearerAuth: { type: 'http', scheme: 'bearer', description: `The \`token\` of POST /login; valid ${API_TOKEN_DAYS} days, until logout or the account is blocked.` },
				partnerKey: {
					type: 'apiKey',
					in: 'header',
					name: PARTNER_KEY_HEADER,
					description: `A partner site's key (docs/api.md, "Partner keys"), issued by the portal's administrators; or \`?${PARTNER_KEY_PARAM}=\`. Publishable: valid only from the origins listed for it (the browser's \`Origin\`), refused when unknown or revoked (403), limited to its calls a minute (429 with Retry-After).`,
				},
			},
		},
	}
}

let built: ReturnType<typeof buildDocument> | undefined

/** The document, built once per process (it changes only with the code). */
export function openApiDocument() {
	return (built ??= buildDocument())
}
