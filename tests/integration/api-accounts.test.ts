import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { sessions, users } from '~/db/schema'
import { languageCookie } from '~/i18n/i18n.server'
import { action as loginAction } from '~/routes/admin.api.login'
import { action as logoutAction } from '~/routes/admin.api.logout'
import { getApiUser, hashToken } from '~/utils/auth.server'
import { db } from '~/db/db.server'
import { createCustomer, PASSWORD } from '#tests/support/accounts'
import { ROUTER_ARGS } from '#tests/support/router-args'

const context = (ip: string) => ({ clientIp: ip })
const call = (handler: typeof loginAction, request: Request, ip = '10.9.0.1') =>
	handler({ request, params: {}, ...ROUTER_ARGS, context: context(ip) }) as Promise<Response>

function jsonLogin(body: unknown, lng = 'en') {
	return new Request(`http://localhost/admin/api/login?lng=${lng}`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
		body: JSON.stringify(body),
	})
}

describe('POST /admin/api/login', () => {
	test('answers { status, message, token, data } with the user record of spec §3', async () => {
		const user = await createCustomer()
		const response = await call(loginAction, jsonLogin({ email: user.email, password: PASSWORD }))
		expect(response.status).toBe(200)
		expect(response.headers.get('Content-Type')).toContain('application/json')
		expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*')
		const body = await response.json()
		expect(Object.keys(body).sort()).toEqual(['data', 'message', 'status', 'token'])
		expect(body.status).toBe(200)
		expect(body.message).toBe('logged in successfully')
		expect(typeof body.token).toBe('string')
		expect(body.data).toEqual({ id: user.id, roles_slug: 'customer', first_name: 'Kati', last_name: 'Karu', workshop_name: null })
		// The token is a working Bearer token, stored only as a hash.
		const bearer = new Request('http://localhost/x', { headers: { Authorization: `Bearer ${body.token}` } })
		expect((await getApiUser(bearer))?.id).toBe(user.id)
		const [row] = await db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(body.token)))
		expect(row?.kind).toBe('api')
	})

	test('accepts a form body too', async () => {
		const user = await createCustomer()
		const form = new URLSearchParams({ email: user.email, password: PASSWORD })
		const request = new Request('http://localhost/admin/api/login', {
			method: 'POST',
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
			body: form,
		})
		expect((await call(loginAction, request)).status).toBe(200)
	})

	test('answers a bad login with { status: 401, message } in the language asked for', async () => {
		const user = await createCustomer()
		const english = await call(loginAction, jsonLogin({ email: user.email, password: 'wrong-pass' }))
		expect(english.status).toBe(401)
		expect(await english.json()).toEqual({ status: 401, message: 'Invalid email or password' })
		const estonian = await call(loginAction, jsonLogin({ email: user.email, password: 'wrong-pass' }, 'et'))
		expect(await estonian.json()).toEqual({ status: 401, message: 'Vale e-post või parool' })
	})

	test('tells a blocked account so', async () => {
		const user = await createCustomer()
		await db.update(users).set({ blocked: true }).where(eq(users.id, user.id))
		const response = await call(loginAction, jsonLogin({ email: user.email, password: PASSWORD }))
		expect(await response.json()).toEqual({ status: 401, message: 'Your account is blocked. Please contact the admin.' })
	})

	test('answers missing fields with 422 and field errors', async () => {
		const response = await call(loginAction, jsonLogin({ email: 'not-an-email' }))
		expect(response.status).toBe(422)
		expect(await response.json()).toEqual({
			status: 422,
			message: 'Please correct the marked fields.',
			errors: { email: ['Enter a valid e-mail address.'], password: ['This field is required.'] },
		})
	})

	test('blocking revokes API tokens at once', async () => {
		const user = await createCustomer()
		const { token } = await (await call(loginAction, jsonLogin({ email: user.email, password: PASSWORD }))).json()
		const bearer = () => new Request('http://localhost/x', { headers: { Authorization: `Bearer ${token}` } })
		expect(await getApiUser(bearer())).not.toBeNull()
		await db.update(users).set({ blocked: true }).where(eq(users.id, user.id))
		expect(await getApiUser(bearer())).toBeNull()
	})
})

describe('POST /admin/api/logout', () => {
	test('ends that token and answers { status: 200, message }', async () => {
		const user = await createCustomer()
		const { token } = await (await call(loginAction, jsonLogin({ email: user.email, password: PASSWORD }))).json()
		const logout = () =>
			new Request('http://localhost/admin/api/logout?lng=en', { method: 'POST', headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } })
		const response = await call(logoutAction, logout())
		expect(response.status).toBe(200)
		expect(await response.json()).toEqual({ status: 200, message: 'logged out successfully' })
		expect(await getApiUser(new Request('http://localhost/x', { headers: { Authorization: `Bearer ${token}` } }))).toBeNull()
		// The token is gone: a second logout is refused.
		const again = await call(logoutAction, logout())
		expect(again.status).toBe(401)
		expect(await again.json()).toEqual({ status: 401, message: 'Please login to continue!' })
	})
})

describe('the language of an API answer', () => {
	const login = (headers: Record<string, string>, query = '') =>
		call(
			loginAction,
			new Request(`http://localhost/admin/api/login${query}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', ...headers },
				body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong-pass' }),
			}),
			'10.9.0.50',
		).then((response) => response.json() as Promise<{ message: string }>)

	test('follows ?lng=, then Accept-Language, then the portal cookie, then Estonian', async () => {
		const russianCookie = (await languageCookie.serialize('ru')).split(';')[0]!
		expect((await login({ 'Accept-Language': 'en-GB,en;q=0.9' })).message).toBe('Invalid email or password')
		expect((await login({ 'Accept-Language': 'ru' })).message).toBe('Неверный e-mail или пароль')
		expect((await login({ 'Accept-Language': 'en' }, '?lng=ru')).message).toBe('Неверный e-mail или пароль')
		expect((await login({ 'Accept-Language': 'en', 'Cookie': russianCookie })).message).toBe('Invalid email or password')
		expect((await login({ 'Accept-Language': 'de-DE', 'Cookie': russianCookie })).message).toBe('Неверный e-mail или пароль')
		expect((await login({})).message).toBe('Vale e-post või parool')
	})
})
