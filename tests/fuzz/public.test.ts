/**
 * Issue 13, part 1: the public forms (login, registration, password reset, contact), every JSON
 * call under /admin/api, and the public pages' odd query strings and bad slugs, against the
 * production build. Each test is one action: a batch of certainly invalid inputs that must all be
 * answered below 500, without internal detail, and change no row (docs/decisions/0073).
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, test } from 'vitest'
import { ForgotPasswordSchema, LoginSchema, RegisterSchema, ResetPasswordSchema } from '~/domain/accounts/accounts'
import { ChatMessageSchema } from '~/domain/messaging/chat'
import { ContactSchema } from '~/domain/messaging/contact'
import { DEMO, DEMO_PASSWORD, slug } from './support/demo'
import { fuzzEveryAction, runBatch, specNamed, type ActionSpec, type Field } from './support/fuzz'
import { type Persona } from './support/http'
import { resetToken, separateSession, setUpWorld, type World } from './support/setup'
import { badSlugBatch, oddQueryBatch, transportBatch, type QueryPage, type SlugRoute } from './support/transport'

let world: World
let token = ''
let leaving: Persona

beforeAll(async () => {
	world = await setUpWorld()
	token = await resetToken(world.anonymous, DEMO.other)
	leaving = await separateSession(DEMO.customer, 'customer')
})
afterAll(async () => world?.server.close())

const others = () => ({ stranger: world.stranger })

const email = (name: string, valid: string, required = true): Field => ({ name, kind: 'email', valid, required, max: 254 })
const person = (name: string, valid: string): Field => ({ name, kind: 'text', valid, required: true, max: 100, invalid: ['ab', ' ab '] })
const mobile: Field = {
	name: 'mobile',
	kind: 'pattern',
	valid: '+372 5555 0013',
	required: true,
	invalid: ['abc', '12', '+372 55 55 55 55 55 55 55 55', '5555-5555-', '+-5555555'],
}
const newPassword = (name: string): Field => ({ name, kind: 'password', valid: 'Fuzz1234', required: true, max: 12, invalid: ['short', 'Fuzz1234567890'] })

const specs = (): ActionSpec[] => {
	const { demo, anonymous, customer } = world
	const anon = () => anonymous
	const forms: ActionSpec[] = [
		{
			name: 'POST /login',
			as: anon,
			path: () => '/login',
			// The right password: a corruption the server let through would sign in and add a session row.
			fields: [email('email', DEMO.customer), { name: 'password', kind: 'password', valid: DEMO_PASSWORD, required: true, max: 200 }],
			encodings: ['urlencoded', 'multipart'],
			schema: LoginSchema,
		},
		{
			name: 'POST /register (customer)',
			as: anon,
			path: () => '/register',
			honeypot: true,
			fields: [
				{ name: 'role', kind: 'enum', valid: 'customer', required: true, invalid: ['admin', 'Customer', 'workshops'] },
				person('firstName', 'Fuzz'),
				person('lastName', 'Tester'),
				email('email', 'fuzz.register@example.com'),
				mobile,
				newPassword('password'),
				{ name: 'confirmPassword', kind: 'password', valid: 'Fuzz1234', required: true, max: 200 },
			],
			encodings: ['urlencoded', 'multipart'],
			schema: RegisterSchema,
			weight: 1.5,
		},
		{
			name: 'POST /register (workshop)',
			as: anon,
			path: () => '/register',
			honeypot: true,
			fields: [
				{ name: 'role', kind: 'enum', valid: 'workshop', required: true, invalid: ['admin', 'Workshop'] },
				person('workshopName', 'Fuzz Garage'),
				person('companyName', 'Fuzz Garage OÜ'),
				// An 8-digit registry code with its check digit; the wrong check digit and other shapes are refused (decision 0120).
				{ name: 'companyId', kind: 'pattern', valid: '10137319', required: true, invalid: ['123', 'abcdefghij', '12345678901', '12345 67890', '10137318', '1013731'] },
				person('firstName', 'Fuzz'),
				person('lastName', 'Owner'),
				email('email', 'fuzz.workshop@example.com'),
				mobile,
				newPassword('password'),
				{ name: 'confirmPassword', kind: 'password', valid: 'Fuzz1234', required: true, max: 200 },
			],
			encodings: ['urlencoded', 'multipart'],
			schema: RegisterSchema,
			weight: 1.5,
		},
		{
			name: 'POST /forget-password',
			as: anon,
			path: () => '/forget-password',
			fields: [email('email', DEMO.customer)],
			encodings: ['urlencoded', 'multipart'],
			schema: ForgotPasswordSchema,
		},
		{
			name: 'POST /reset-password/{token}',
			as: anon,
			path: (s) => `/reset-password/${s}`,
			// The token is a live one: a corruption let through would change the password.
			slug: { valid: token },
			fields: [newPassword('password'), { name: 'confirmPassword', kind: 'password', valid: 'Fuzz1234', required: true, max: 200 }],
			encodings: ['urlencoded', 'multipart'],
			schema: ResetPasswordSchema,
		},
		{
			name: 'POST /contact-us',
			as: anon,
			path: () => '/contact-us',
			honeypot: true,
			fields: [
				{ name: 'name', kind: 'text', valid: 'Fuzz Tester', required: true, max: 100 },
				email('email', 'fuzz.contact@example.com'),
				{ name: 'message', kind: 'multiline', valid: 'Tere!\nKas teil on aega?', required: true, max: 5000 },
			],
			encodings: ['urlencoded', 'multipart'],
			schema: ContactSchema,
		},
		{
			name: 'POST /logout (a token that is not this visitor’s)',
			as: () => leaving,
			path: () => '/logout',
			fields: [],
			encodings: ['urlencoded', 'multipart'],
			slugAndTokenOnly: true,
		},
		{
			name: 'POST to a path that is no page',
			as: () => customer,
			path: (s) => `/no-such-page/${s}`,
			slug: { valid: 'x' },
			fields: [{ name: 'message', kind: 'multiline', valid: 'hello', required: true, max: 100 }],
			encodings: ['urlencoded', 'multipart'],
			validates: false,
		},
	]

	const api: ActionSpec[] = [
		{
			name: 'POST /admin/api/contact-us',
			as: anon,
			path: () => '/admin/api/contact-us',
			api: 'public',
			fields: [
				{ name: 'name', kind: 'text', valid: 'Fuzz Tester', required: true, max: 100 },
				email('email', 'fuzz.api@example.com'),
				{ name: 'message', kind: 'multiline', valid: 'Tere!\nKas teil on aega?', required: true, max: 5000 },
			],
			encodings: ['json', 'urlencoded', 'multipart'],
			schema: ContactSchema,
		},
		{
			name: 'POST /admin/api/login',
			as: anon,
			path: () => '/admin/api/login',
			api: 'public',
			fields: [email('email', DEMO.customer), { name: 'password', kind: 'password', valid: DEMO_PASSWORD, required: true, max: 200 }],
			encodings: ['json', 'urlencoded', 'multipart'],
			schema: LoginSchema,
		},
		tokenOnly('POST /admin/api/logout (no valid token)', '/admin/api/logout', () => leaving),
		tokenOnly('POST /admin/api/get-notification (no valid caller)', '/admin/api/get-notification', () => customer),
		{
			name: 'POST /admin/api/read-notification',
			as: () => customer,
			path: () => '/admin/api/read-notification',
			api: 'signed-in',
			fields: [{ name: 'id', kind: 'id', idForm: 'raw', valid: demo.customerNotification, required: true, foreign: [demo.workshopNotification] }],
			encodings: ['json', 'urlencoded', 'multipart'],
		},
		{
			name: 'POST /admin/api/get-chat',
			as: () => customer,
			path: () => '/admin/api/get-chat',
			api: 'signed-in',
			fields: [{ name: 'receiver_id', kind: 'id', idForm: 'raw', valid: demo.workshopUserId, required: true, foreign: [demo.otherCustomerId, demo.adminId, demo.customerId] }],
			encodings: ['json', 'urlencoded', 'multipart'],
		},
		{
			name: 'POST /admin/api/send-chat',
			as: () => customer,
			path: () => '/admin/api/send-chat',
			api: 'signed-in',
			fields: [
				{ name: 'receiver_id', kind: 'id', idForm: 'raw', valid: demo.workshopUserId, required: true, foreign: [demo.otherCustomerId, demo.adminId, demo.customerId] },
				{ name: 'message', kind: 'multiline', valid: 'Tere!\nMillal saan auto tuua?', required: true, max: 2000 },
			],
			encodings: ['json', 'urlencoded', 'multipart'],
			schema: ChatMessageSchema,
		},
		{
			name: 'POST /webhooks/stripe (not signed)',
			as: anon,
			path: () => '/webhooks/stripe',
			api: 'public',
			fields: [{ name: 'type', kind: 'enum', valid: 'checkout.session.completed', required: true }],
			encodings: ['json', 'urlencoded'],
			validates: false,
		},
	]
	return [...forms, ...api]
}

/** The actions in the order they run (their names are known before the server is up). */
const ACTIONS = [
	'POST /login',
	'POST /register (customer)',
	'POST /register (workshop)',
	'POST /forget-password',
	'POST /reset-password/{token}',
	'POST /contact-us',
	'POST to a path that is no page',
	'POST /admin/api/contact-us',
	'POST /admin/api/login',
	'POST /admin/api/read-notification',
	'POST /admin/api/get-chat',
	'POST /admin/api/send-chat',
	'POST /webhooks/stripe (not signed)',
	'POST /admin/api/get-notification (no valid caller)',
	// Last: a logout wrongly accepted ends only their own separate session, but still.
	'POST /logout (a token that is not this visitor’s)',
	'POST /admin/api/logout (no valid token)',
]

/** A JSON call that reads nothing but the caller's token: a bad token is all there is to send. */
function tokenOnly(name: string, path: string, as: () => Persona): ActionSpec {
	return { name, as, path: () => path, api: 'signed-in', fields: [], encodings: ['json', 'urlencoded'], slugAndTokenOnly: true }
}

const spec = (name: string) => specNamed(specs(), name)

fuzzEveryAction('public forms and the JSON API: malformed fields', ACTIONS, specs, others)

describe('public forms and the JSON API: unreadable bodies', () => {
	const sample = [
		'POST /login',
		'POST /register (customer)',
		'POST /contact-us',
		'POST /logout (a token that is not this visitor’s)',
		'POST /admin/api/contact-us',
		'POST /admin/api/send-chat',
		'POST /admin/api/get-notification (no valid caller)',
	]
	for (const name of sample) {
		test(`${name}: transport faults`, async () => {
			await transportBatch(name, spec(name), others)
		})
	}
})

describe('public pages and JSON GETs', () => {
	test('GET public pages and JSON lists with odd query strings', async () => {
		const as = world.anonymous
		const workshop = slug(world.demo.workshopId)
		const list = ['q', 'city', 'service', 'brand', 'sort', 'page', 'free']
		const pages: QueryPage[] = [
			{ path: '/', as },
			{ path: '/workshop-list', keys: list, as },
			{ path: `/workshop-details/${workshop}`, as },
			{ path: '/contact-us', as },
			{ path: '/login', keys: ['returnTo'], as },
			{ path: '/register', keys: ['role'], as },
			{ path: '/forget-password', as },
			{ path: '/about', as },
			{ path: '/thank-you', as },
			{ path: `/reset-password/${token}`, as },
			{ path: '/admin/api/workshop-list', keys: list, as },
			{ path: `/admin/api/workshop-details/${workshop}`, as },
			{ path: '/admin/api/workshop-filters', as },
			{ path: '/admin/api/site-settings', as },
			{ path: '/admin/api/ads-details', as },
			{ path: '/admin/api/visit-insert', as },
			{ path: '/resources/locales/en', as },
			{ path: '/sitemap.xml', as },
			{ path: '/uploads/x', keys: ['variant'], as },
		]
		await oddQueryBatch('GET public pages with odd query strings', pages)
	})

	test('GET public pages with bad slugs', async () => {
		const { anonymous, demo } = world
		const routes: SlugRoute[] = [
			{ path: (s) => `/workshop-details/${s}`, as: anonymous, foreign: [demo.customerId, demo.vehicle] },
			{ path: (s) => `/admin/api/workshop-details/${s}`, as: anonymous, foreign: [demo.customerId, demo.vehicle] },
			{ path: (s) => `/reset-password/${s}`, as: anonymous },
			{ path: (s) => `/unsubscribe/${s}`, as: anonymous },
			{ path: (s) => `/uploads/${s}`, as: anonymous, foreign: [demo.workshopId] },
			{ path: (s) => `/resources/locales/${s}`, as: anonymous },
			{ path: (s) => `/sitemap.${s}.xml`, as: anonymous },
			{ path: (s) => `/${s}`, as: anonymous },
		]
		await badSlugBatch('GET public pages with bad slugs', routes)
	})

	test('other methods on pages and JSON calls', async () => {
		const paths = ['/', '/login', '/workshop-list', '/admin/api/workshop-list', '/admin/api/contact-us', '/admin/api/login', '/admin/api/get-notification', '/contact-us']
		await runBatch(
			'other methods on pages and JSON calls',
			fc.record({ path: fc.constantFrom(...paths), method: fc.constantFrom('PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND') }),
			({ path, method }) => ({ method, path, as: world.anonymous }),
			1,
			{ kindOf: ({ path, method }) => `${method} ${path}` },
		)
	})
})
