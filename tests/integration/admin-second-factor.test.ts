import { and, desc, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { auditLog, cities, eidIdentities, emailOutbox, passkeys, sessions, users } from '~/db/schema'
import { db } from '~/db/db.server'
import { confirmSession, openSession } from '~/domain/accounts/accounts.server'
import { linkEid } from '~/domain/accounts/eid.server'
import { addPasskey, passkeyAddOptions, relyingParty } from '~/domain/accounts/passkeys.server'
import { enrolmentToken, printedEnrolmentLink } from '~/domain/accounts/step-up.server'
import { subjectHash } from '~/identity/oidc.server'
import { loader as adminIndexLoader } from '~/routes/_app.admin._index'
import { action as listsAction, loader as listsLoader } from '~/routes/_app.admin.lists'
import { loader as usersLoader } from '~/routes/_app.admin.users._index'
import { action as verifyAction, loader as verifyLoader } from '~/routes/_app.admin_.verify'
import { loader as dashboardLoader } from '~/routes/_app.dashboard'
import { action as settingsAction, loader as settingsLoader } from '~/routes/_app.settings'
import { action as passkeysAction } from '~/routes/_app.settings_.passkeys'
import { action as apiLoginAction } from '~/routes/admin.api.login'
import { action as loginAction } from '~/routes/_public.login'
import { loader as startLoader } from '~/routes/eid.start'
import { action as optionsAction } from '~/routes/resources.passkey-options'
import { authenticateApiCall } from '~/utils/api-auth.server'
import { enforceRouteAccess, findUserByToken, type SignInMethod } from '~/utils/auth.server'
import { commitCsrfToken } from '~/utils/csrf.server'
import { getSessionStorage } from '~/utils/session.server'
import { adminRequest, createAdmin, createCustomer, PASSWORD, signedInRequest } from '#tests/support/accounts'
import { callback, CookieJar, refusalOf, settled, throughProvider, useTestProvider } from '#tests/support/eid-flow'
import { uniquePersonalCode } from '#tests/support/openid-provider.mjs'
import { softAuthenticator } from '#tests/support/soft-authenticator'
import { ROUTER_ARGS } from '#tests/support/router-args'

/**
 * Issue 36, part 4 (decision 0156): an administrator needs a second factor. A session opened by a
 * password alone (or an old one, whose way in is unknown) gets no administrator's page, action or
 * call: the step-up page instead, where the account's eID or passkey confirms it (the session is
 * replaced, the audit log says so). A password alone cannot add the passkey or link the eID that
 * would get past it: that takes a one-time link e-mailed to the account (or printed by
 * `npm run admin:create`), usable only in the session that asked for it. And an account without
 * a password deletes itself after confirming with its eID or a passkey.
 */

let provider: Awaited<ReturnType<typeof useTestProvider>>
beforeAll(async () => {
	provider = await useTestProvider()
})
afterAll(async () => {
	await provider?.stop()
})

const BASE = 'http://localhost:3000'
const ip = () => `10.8.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`
const origin = () => relyingParty()!.origin

/** A browser signed in as `userId` by `method`: its cookie jar and its session's token. */
async function browserOf(userId: string, method: SignInMethod = 'password') {
	const { token, request } = await signedInRequest(userId, `${BASE}/dashboard`, method)
	return { jar: new CookieJar(request.headers.get('Cookie')), token }
}

const get = (jar: CookieJar, path: string) => new Request(`${BASE}${path}`, { headers: { Cookie: jar.header(), 'User-Agent': 'vitest' } })

/** A form post from the browser holding `jar`, with its CSRF token. */
async function post(jar: CookieJar, path: string, fields: Record<string, string>) {
	const [token, csrfCookie] = await commitCsrfToken(new Request(`${BASE}/`))
	if (csrfCookie) jar.take(new Response(null, { headers: { 'Set-Cookie': csrfCookie } }))
	const body = new URLSearchParams({ csrf: token!, ...fields })
	return new Request(`${BASE}${path}`, { method: 'POST', headers: { Cookie: jar.header(), 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': 'vitest' }, body })
}

type Handler = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<unknown>

/** What a loader or action did: a Response (redirect or refusal), or the page's data. */
async function run(handler: Handler, request: Request) {
	try {
		const answer = await handler({ request, params: {}, context: { clientIp: ip() } })
		if (answer instanceof Response) return { status: answer.status, location: answer.headers.get('Location'), response: answer, data: null }
		const reply = answer as { type?: string; data?: unknown; init?: ResponseInit | null }
		if (reply?.type === 'DataWithResponseInit') return { status: reply.init?.status ?? 200, location: null, response: null, data: reply.data }
		return { status: 200, location: null, response: null, data: answer }
	} catch (thrown) {
		if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get('Location'), response: thrown, data: null }
		throw thrown
	}
}

/** The session token the browser's cookie holds now. */
async function tokenIn(jar: CookieJar) {
	return ((await getSessionStorage().getSession(jar.header())).get('token') as string | undefined) ?? null
}

const methodOf = async (token: string) => (await findUserByToken(token, 'web'))?.factors.join('+') ?? null
const stepUps = (userId: string) =>
	db
		.select({ before: auditLog.before, after: auditLog.after })
		.from(auditLog)
		.where(and(eq(auditLog.actorId, userId), eq(auditLog.action, 'user.stepUp')))
		.orderBy(auditLog.createdAt)

/** An administrator with a passkey (added as a confirmed one would) and the device holding it. */
async function adminWithPasskey() {
	const admin = await createAdmin()
	const device = softAuthenticator()
	const options = await passkeyAddOptions({ id: admin.id, mayAddWayIn: true, email: admin.email, name: 'Admin' }, ip())
	await addPasskey({ id: admin.id, mayAddWayIn: true }, device.register(options, { origin: origin() }), 'Laptop')
	return { admin, device }
}

/** The browser's answer to a confirmation with a passkey, asked for through the page's options call. */
async function passkeyAnswer(jar: CookieJar, device: ReturnType<typeof softAuthenticator>) {
	const options = await run(optionsAction as Handler, await post(jar, '/resources/passkey-options', { purpose: 'confirm' }))
	expect(options.status).toBe(200)
	return JSON.stringify(device.signIn(await options.response!.json(), { origin: origin() }))
}

describe('how a session was opened', () => {
	test('is written with it: the log-in form and the API write password, a passkey and eID their own', async () => {
		const user = await createCustomer()
		const jar = new CookieJar()
		jar.take((await run(loginAction as Handler, await post(jar, '/login', { email: user.email, password: PASSWORD }))).response!)
		expect(await methodOf((await tokenIn(jar))!)).toBe('password')
		const api = await run(apiLoginAction as Handler, new Request(`${BASE}/admin/api/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: user.email, password: PASSWORD }) }))
		const { token } = (await api.response!.json()) as { token: string }
		expect((await findUserByToken(token, 'api'))?.factors).toEqual(['password'])
		for (const method of ['passkey', 'eid'] as const) {
			const opened = await openSession({ userId: user.id, kind: 'web', method })
			expect(await methodOf(opened)).toBe(method)
		}
		const rows = await db.select({ method: sessions.signInMethod }).from(sessions).where(eq(sessions.userId, user.id))
		expect(rows.map((row) => row.method).sort()).toEqual(['eid', 'passkey', 'password', 'password'])
	})
})

describe('an administrator signed in by a password alone', () => {
	test('gets the step-up page instead of every administrator’s page and action; nothing changes', async () => {
		const admin = await createAdmin()
		const { jar } = await browserOf(admin.id)
		for (const [handler, path] of [
			[adminIndexLoader, '/admin'],
			[usersLoader, '/admin/users?q=kati'],
			[listsLoader, '/admin/lists?list=cities'],
		] as const) {
			const answer = await run(handler as Handler, get(jar, path))
			expect(answer.status, path).toBe(302)
			expect(answer.location, path).toBe(`/admin/verify?redirectTo=${encodeURIComponent(path)}`)
			// The root's guard of every path says the same.
			const guarded = await run((({ request }) => enforceRouteAccess(request)) as Handler, get(jar, path))
			expect(guarded.location).toBe(answer.location)
		}
		// A form: back to its page, never sent again.
		const sent = await run(listsAction as Handler, await post(jar, '/admin/lists', { list: 'cities', item: 'new', code: 'password-only', nameEt: 'P', nameEn: 'P', nameRu: 'P', sortOrder: '0', active: 'on', county: 'tartu' }))
		expect(sent.location).toBe('/admin/verify?redirectTo=%2Fadmin%2Flists')
		expect(await db.select().from(cities).where(eq(cities.code, 'password-only'))).toEqual([])
		// The step-up page itself opens; the dashboard shows the way to it, not the administration's figures.
		const page = await run(verifyLoader as Handler, get(jar, '/admin/verify?redirectTo=%2Fadmin%2Fusers'))
		expect(page.data).toMatchObject({ redirectTo: '/admin/users', mayAddWayIn: false, expired: false, passkeys: 0 })
		expect(await run(dashboardLoader as Handler, get(jar, '/dashboard'))).toMatchObject({ data: { confirmAdmin: true } })
		expect((await run(dashboardLoader as Handler, get(jar, '/dashboard'))).data).not.toHaveProperty('admin')
		// A customer is not sent there: it is no page of theirs.
		const customer = await createCustomer()
		expect((await run(verifyLoader as Handler, get((await browserOf(customer.id)).jar, '/admin/verify'))).location).toBe('/dashboard')
	})

	test('an old session (its way in unknown) is refused too, and a confirmation older than twelve hours', async () => {
		const admin = await createAdmin()
		const old = await browserOf(admin.id)
		await db.update(sessions).set({ signInMethod: null }).where(eq(sessions.userId, admin.id))
		expect((await run(adminIndexLoader as Handler, get(old.jar, '/admin'))).location).toBe('/admin/verify?redirectTo=%2Fadmin')

		const { jar, token } = await browserOf(admin.id, 'passkey')
		expect((await run(adminIndexLoader as Handler, get(jar, '/admin'))).status).toBe(200)
		const other = await createAdmin()
		const late = await browserOf(other.id, 'passkey')
		await db.update(sessions).set({ createdAt: new Date(Date.now() - 13 * 3600_000) }).where(eq(sessions.userId, other.id))
		expect((await run(adminIndexLoader as Handler, get(late.jar, '/admin'))).location).toBe('/admin/verify?redirectTo=%2Fadmin')
		expect((await run(verifyLoader as Handler, get(late.jar, '/admin/verify'))).data).toMatchObject({ expired: true })
		expect(await methodOf(token)).toBe('passkey')
	})

	test('an administrator’s API call refuses a token opened by a password and a password-only browser; a confirmed browser passes', async () => {
		const admin = await createAdmin()
		const api = await run(apiLoginAction as Handler, new Request(`${BASE}/admin/api/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: admin.email, password: PASSWORD }) }))
		const { token } = (await api.response!.json()) as { token: string }
		const bearer = new Request(`${BASE}/admin/api/x?lng=en`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: '{}' })
		const refused = (await authenticateApiCall(bearer, { role: 'admin' })) as Response
		expect(refused.status).toBe(403)
		expect(await refused.json()).toEqual({ status: 403, message: 'An administrator’s call needs a sign-in confirmed with eID or a passkey.' })
		// The same token still makes the calls anyone signed in makes.
		expect(await authenticateApiCall(new Request(bearer.url, { method: 'POST', headers: bearer.headers, body: '{}' }))).not.toBeInstanceOf(Response)

		const { jar } = await browserOf(admin.id)
		expect(((await authenticateApiCall(await post(jar, '/admin/api/x?lng=en', {}), { role: 'admin' })) as Response).status).toBe(403)
		const confirmed = await browserOf(admin.id, 'passkey')
		expect(await authenticateApiCall(await post(confirmed.jar, '/admin/api/x', {}), { role: 'admin' })).toMatchObject({ user: { id: admin.id } })
		const customer = await browserOf((await createCustomer()).id, 'passkey')
		expect(((await authenticateApiCall(await post(customer.jar, '/admin/api/x', {}), { role: 'admin' })) as Response).status).toBe(403)
	})

	test('an administrator’s power over files waits for the second factor too', async () => {
		const admin = await createAdmin()
		const { request } = await adminRequest(admin.id)
		const { getOptionalUser, isConfirmedAdministrator } = await import('~/utils/auth.server')
		expect(isConfirmedAdministrator((await getOptionalUser(request))!)).toBe(true)
		expect(isConfirmedAdministrator((await getOptionalUser((await signedInRequest(admin.id)).request))!)).toBe(false)
	})
})

describe('the step-up', () => {
	test('with a passkey of the account: the session is replaced by a confirmed one, the audit log says so, and the page asked for opens', async () => {
		const { admin, device } = await adminWithPasskey()
		const { jar, token: before } = await browserOf(admin.id)
		expect((await run(verifyLoader as Handler, get(jar, '/admin/verify'))).data).toMatchObject({ passkeys: 1 })
		const credential = await passkeyAnswer(jar, device)
		const answer = await run(verifyAction as Handler, await post(jar, '/admin/verify', { intent: 'passkey', credential, redirectTo: '/admin/users' }))
		expect(answer.status).toBe(302)
		expect(answer.location).toBe('/admin/users')
		jar.take(answer.response!)
		const after = (await tokenIn(jar))!
		expect(after).not.toBe(before)
		// The old token opens nothing any more (a new session id at the change of privilege).
		expect(await findUserByToken(before, 'web')).toBeNull()
		expect(await methodOf(after)).toBe('password+passkey')
		expect(await db.select().from(sessions).where(eq(sessions.userId, admin.id))).toHaveLength(1)
		expect(await stepUps(admin.id)).toEqual([{ before: { method: 'password' }, after: { method: 'password+passkey', factor: 'passkey' } }])
		expect((await run(usersLoader as Handler, get(jar, '/admin/users'))).status).toBe(200)
		// Confirmed, the step-up page has nothing to ask: on to the page.
		expect((await run(verifyLoader as Handler, get(jar, '/admin/verify?redirectTo=%2Fadmin%2Faudit'))).location).toBe('/admin/audit')
	})

	test('another person’s passkey, a replayed answer or no answer confirm nothing', async () => {
		const { admin, device } = await adminWithPasskey()
		const other = await adminWithPasskey()
		const { jar, token } = await browserOf(admin.id)
		// The other administrator's device answering this session's challenge.
		const foreign = await run(verifyAction as Handler, await post(jar, '/admin/verify', { intent: 'passkey', credential: await passkeyAnswer(jar, other.device) }))
		expect(foreign.status).toBe(401)
		const credential = await passkeyAnswer(jar, device)
		jar.take((await run(verifyAction as Handler, await post(jar, '/admin/verify', { intent: 'passkey', credential }))).response!)
		const replayed = await browserOf(admin.id)
		expect((await run(verifyAction as Handler, await post(replayed.jar, '/admin/verify', { intent: 'passkey', credential }))).status).toBe(401)
		// Without JavaScript there is no answer: the page says a passkey needs it.
		const bare = await run(verifyAction as Handler, await post(replayed.jar, '/admin/verify', { intent: 'passkey' }))
		expect(bare).toMatchObject({ status: 400, data: { passkey: 'auth:stepUp.passkeyNeedsJavaScript' } })
		expect(await methodOf(replayed.token)).toBe('password')
		expect(await findUserByToken(token, 'web')).toBeNull()
	})

	test('with the account’s eID, through the provider; another eID is refused and changes nothing', async () => {
		const admin = await createAdmin()
		const code = uniquePersonalCode()
		await linkEid(admin.id, { subjectHash: subjectHash('EE', code), country: 'EE', firstName: 'Admin', lastName: 'Autohub', method: 'smartid' }, { mayAddWayIn: true })
		const { jar, token } = await browserOf(admin.id)
		expect((await run(verifyLoader as Handler, get(jar, '/admin/verify'))).data).toMatchObject({ eid: { linked: true } })

		const wrong = await callback(jar, await throughProvider(jar, 'purpose=confirm&redirectTo=%2Fadmin%2Fusers', { code: uniquePersonalCode() }))
		expect(await refusalOf(wrong)).toEqual({ status: 403, key: 'auth:eid.notThisAccount' })
		expect(await tokenIn(jar)).toBe(token)
		expect(await methodOf(token)).toBe('password')

		const right = await callback(jar, await throughProvider(jar, 'purpose=confirm&redirectTo=%2Fadmin%2Fusers', { code, given_name: 'ADMIN', family_name: 'AUTOHUB' }))
		expect(right.status).toBe(302)
		expect(right.headers.get('Location')).toBe('/admin/users')
		const after = (await tokenIn(jar))!
		expect(await methodOf(after)).toBe('password+eid')
		expect(await findUserByToken(token, 'web')).toBeNull()
		expect(await stepUps(admin.id)).toEqual([{ before: { method: 'password' }, after: { method: 'password+eid', factor: 'eid' } }])
		expect((await run(usersLoader as Handler, get(jar, '/admin/users'))).status).toBe(200)
	})

	test('a session signed in with eID or a passkey needs none', async () => {
		const admin = await createAdmin()
		for (const method of ['eid', 'passkey'] as const) {
			const { jar } = await browserOf(admin.id, method)
			expect((await run(adminIndexLoader as Handler, get(jar, '/admin'))).status).toBe(200)
			expect((await run(listsLoader as Handler, get(jar, '/admin/lists?list=cities'))).status).toBe(200)
		}
		expect(await stepUps(admin.id)).toEqual([])
	})
})

describe('the first passkey or eID of an administrator', () => {
	test('a password alone cannot add a passkey nor link an eID: the options, the form and the domain refuse, the login page links nothing', async () => {
		const admin = await createAdmin()
		const { jar } = await browserOf(admin.id)
		const options = await run(optionsAction as Handler, await post(jar, '/resources/passkey-options', { purpose: 'add' }))
		expect(options.status).toBe(403)
		// A forged answer to options asked elsewhere is refused before it is looked at.
		const device = softAuthenticator()
		const elsewhere = await passkeyAddOptions({ id: admin.id, mayAddWayIn: true, email: admin.email, name: '' }, ip())
		const form = await run(passkeysAction as Handler, await post(jar, '/settings/passkeys', { intent: 'add', name: 'Thief', credential: JSON.stringify(device.register(elsewhere, { origin: origin() })) }))
		expect(form.status).toBe(403)
		await expect(addPasskey({ id: admin.id, mayAddWayIn: false }, device.register(elsewhere, { origin: origin() }), 'Thief')).rejects.toMatchObject({ status: 403 })
		expect(await db.select().from(passkeys).where(eq(passkeys.userId, admin.id))).toEqual([])

		// eID: the settings' button leads to the step-up page; the password right after an unknown eID links nothing.
		const start = await settled(() => startLoader({ request: get(jar, '/eid/start?purpose=link'), params: {}, ...ROUTER_ARGS, context: {} }))
		expect(start.headers.get('Location')).toBe('/admin/verify')
		const eidJar = new CookieJar()
		const code = uniquePersonalCode()
		const unknown = await callback(eidJar, await throughProvider(eidJar, 'purpose=login', { code }))
		expect(unknown.headers.get('Location')).toMatch(/^\/register/)
		const login = await run(loginAction as Handler, await post(eidJar, '/login', { email: admin.email, password: PASSWORD }))
		expect(login.status).toBe(302)
		expect(await db.select().from(eidIdentities).where(eq(eidIdentities.userId, admin.id))).toEqual([])
		expect(await db.select().from(eidIdentities).where(eq(eidIdentities.subjectHash, subjectHash('EE', code)))).toEqual([])
		await expect(linkEid(admin.id, { subjectHash: subjectHash('EE', code), country: 'EE', firstName: 'A', lastName: 'B', method: 'smartid' })).rejects.toMatchObject({ status: 403 })

		// Anyone else's password-only session adds passkeys as before.
		const customer = await browserOf((await createCustomer()).id)
		expect((await run(optionsAction as Handler, await post(customer.jar, '/resources/passkey-options', { purpose: 'add' }))).status).toBe(200)
	})

	test('a one-time link e-mailed to the account, opened in the same browser, lets it add a passkey; then the passkey confirms the session', async () => {
		const admin = await createAdmin()
		const { jar } = await browserOf(admin.id)
		const sent = await run(verifyAction as Handler, await post(jar, '/admin/verify', { intent: 'send-link', redirectTo: '/admin/users' }))
		expect(sent.location).toBe('/admin/verify?redirectTo=%2Fadmin%2Fusers')
		const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.to, admin.email)).orderBy(desc(emailOutbox.createdAt))
		expect(mail?.subject).toBe('Your one-time link to add a second way to sign in')
		const link = new URL(/http:\/\/localhost:3000\/admin\/verify\?link=[^\s)]+/.exec(mail!.text)![0])
		const token = link.searchParams.get('link')!

		// Opened in another browser of the same account (the owner clicking a link a thief asked for): nothing.
		const elsewhere = await browserOf(admin.id)
		expect((await run(verifyLoader as Handler, get(elsewhere.jar, `/admin/verify?link=${encodeURIComponent(token)}`))).data).toMatchObject({ link: { problem: 'auth:stepUp.linkOtherBrowser' } })
		expect((await run(verifyAction as Handler, await post(elsewhere.jar, '/admin/verify', { intent: 'use-link', link: token }))).location).toBe('/admin/verify')
		expect(await methodOf(elsewhere.token)).toBe('password')
		// Another administrator's, or a link changed by a character: nothing either.
		const stranger = await browserOf((await createAdmin()).id)
		expect((await run(verifyLoader as Handler, get(stranger.jar, `/admin/verify?link=${encodeURIComponent(token)}`))).data).toMatchObject({ link: { problem: 'auth:stepUp.linkOtherAccount' } })
		const forged = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`
		expect((await run(verifyLoader as Handler, get(jar, `/admin/verify?link=${encodeURIComponent(forged)}`))).data).toMatchObject({ link: { problem: 'auth:stepUp.linkInvalid' } })

		// In the browser that asked: the page offers it, and using it confirms the session with the link (not a second factor).
		expect((await run(verifyLoader as Handler, get(jar, `/admin/verify?link=${encodeURIComponent(token)}`))).data).toMatchObject({ link: { token, problem: null } })
		const used = await run(verifyAction as Handler, await post(jar, '/admin/verify', { intent: 'use-link', link: token, redirectTo: '/admin/users' }))
		expect(used.location).toBe('/admin/verify?redirectTo=%2Fadmin%2Fusers')
		jar.take(used.response!)
		expect(await methodOf((await tokenIn(jar))!)).toBe('password+link')
		expect((await run(usersLoader as Handler, get(jar, '/admin/users'))).location).toBe('/admin/verify?redirectTo=%2Fadmin%2Fusers')
		expect((await run(verifyLoader as Handler, get(jar, '/admin/verify'))).data).toMatchObject({ mayAddWayIn: true })
		// Used once: again, even in this browser, it does nothing.
		expect((await run(verifyAction as Handler, await post(jar, '/admin/verify', { intent: 'use-link', link: token }))).status).toBe(302)
		expect(await methodOf((await tokenIn(jar))!)).toBe('password+link')

		// The passkey is added now, and the page goes on to confirm with it.
		const device = softAuthenticator()
		const options = await run(optionsAction as Handler, await post(jar, '/resources/passkey-options', { purpose: 'add' }))
		expect(options.status).toBe(200)
		const added = await run(passkeysAction as Handler, await post(jar, '/settings/passkeys', { intent: 'add', name: 'Laptop', credential: JSON.stringify(device.register(await options.response!.json(), { origin: origin() })) }))
		expect(added.location).toBe('/admin/verify')
		const confirmed = await run(verifyAction as Handler, await post(jar, '/admin/verify', { intent: 'passkey', credential: await passkeyAnswer(jar, device) }))
		expect(confirmed.location).toBe('/admin')
		jar.take(confirmed.response!)
		expect(await methodOf((await tokenIn(jar))!)).toBe('password+link+passkey')
		expect((await run(usersLoader as Handler, get(jar, '/admin/users'))).status).toBe(200)

		const rows = await db.select({ action: auditLog.action, after: auditLog.after }).from(auditLog).where(and(eq(auditLog.actorId, admin.id), inArray(auditLog.action, ['user.stepUp', 'user.passkeyAdd']))).orderBy(auditLog.createdAt)
		expect(rows.map((row) => [row.action, (row.after as { factor?: string }).factor ?? null])).toEqual([
			['user.stepUp', 'link'],
			['user.passkeyAdd', null],
			['user.stepUp', 'passkey'],
		])
	})

	test('three links an hour; `npm run admin:create`’s printed link works in any of the account’s browsers, once, and a stale one never', async () => {
		const admin = await createAdmin()
		const { jar } = await browserOf(admin.id)
		for (let i = 0; i < 3; i++) await run(verifyAction as Handler, await post(jar, '/admin/verify', { intent: 'send-link' }))
		const fourth = await run(verifyAction as Handler, await post(jar, '/admin/verify', { intent: 'send-link' }))
		expect(fourth.location).toBe('/admin/verify')
		const links = await db.select().from(emailOutbox).where(and(eq(emailOutbox.to, admin.email), eq(emailOutbox.subject, 'Your one-time link to add a second way to sign in')))
		expect(links).toHaveLength(3)

		const printed = new URL(printedEnrolmentLink(admin.id)).searchParams.get('link')!
		jar.take((await run(verifyAction as Handler, await post(jar, '/admin/verify', { intent: 'use-link', link: printed }))).response!)
		expect(await methodOf((await tokenIn(jar))!)).toBe('password+link')
		const second = await browserOf(admin.id)
		await run(verifyAction as Handler, await post(second.jar, '/admin/verify', { intent: 'use-link', link: printed }))
		expect(await methodOf(second.token)).toBe('password')

		const stale = enrolmentToken({ userId: admin.id, sessionId: null, expiresAt: Date.now() - 1000 })
		expect((await run(verifyLoader as Handler, get(second.jar, `/admin/verify?link=${encodeURIComponent(stale)}`))).data).toMatchObject({ link: { problem: 'auth:stepUp.linkInvalid' } })
	})

	test('a link lets the session link an eID, which confirms it at once', async () => {
		const admin = await createAdmin()
		const { jar } = await browserOf(admin.id)
		const printed = new URL(printedEnrolmentLink(admin.id)).searchParams.get('link')!
		jar.take((await run(verifyAction as Handler, await post(jar, '/admin/verify', { intent: 'use-link', link: printed }))).response!)
		const code = uniquePersonalCode()
		const linked = await callback(jar, await throughProvider(jar, 'purpose=link&redirectTo=%2Fadmin', { code, given_name: 'ADMIN', family_name: 'AUTOHUB' }))
		expect(linked.headers.get('Location')).toBe('/admin')
		expect(await db.select({ country: eidIdentities.country }).from(eidIdentities).where(eq(eidIdentities.userId, admin.id))).toEqual([{ country: 'EE' }])
		expect(await methodOf((await tokenIn(jar))!)).toBe('password+link+eid')
		expect((await run(adminIndexLoader as Handler, get(jar, '/admin'))).status).toBe(200)
	})
})

describe('deleting an account that has no password', () => {
	/** An account made with eID (no password), signed in with it `minutesAgo`. */
	async function eidOnlyAccount(minutesAgo: number) {
		const user = await createCustomer()
		const code = uniquePersonalCode()
		await db.update(users).set({ passwordHash: null }).where(eq(users.id, user.id))
		await linkEid(user.id, { subjectHash: subjectHash('EE', code), country: 'EE', firstName: 'Kati', lastName: 'Karu', method: 'smartid' })
		const { jar } = await browserOf(user.id, 'password')
		await db.update(sessions).set({ signInMethod: 'eid', createdAt: new Date(Date.now() - minutesAgo * 60_000) }).where(eq(sessions.userId, user.id))
		return { user, code, jar }
	}

	test('is confirmed with the eID a moment before, then asks for nothing more', async () => {
		const { user, code, jar } = await eidOnlyAccount(30)
		// Signed in half an hour ago: the form asks for a confirmation first, and nothing is deleted without it.
		expect((await run(settingsLoader as Handler, get(jar, '/settings'))).data).toMatchObject({ hasPassword: false, deletion: { confirmed: false, withEid: true } })
		const refused = await run(settingsAction as Handler, await post(jar, '/settings', { intent: 'delete-account' }))
		expect(refused.status).toBe(400)
		expect((await db.select().from(users).where(eq(users.id, user.id)))[0]?.deletedAt).toBeNull()

		const confirmed = await callback(jar, await throughProvider(jar, 'purpose=confirm&redirectTo=%2Fsettings%23delete-account', { code, given_name: 'KATI', family_name: 'KARU' }))
		expect(confirmed.headers.get('Location')).toBe('/settings#delete-account')
		expect((await run(settingsLoader as Handler, get(jar, '/settings'))).data).toMatchObject({ deletion: { confirmed: true } })
		const deleted = await run(settingsAction as Handler, await post(jar, '/settings', { intent: 'delete-account' }))
		expect(deleted.status).toBe(302)
		expect((await db.select().from(users).where(eq(users.id, user.id)))[0]?.deletedAt).not.toBeNull()
		expect(await db.select().from(auditLog).where(and(eq(auditLog.actorId, user.id), inArray(auditLog.action, ['user.signIn', 'user.stepUp'])))).toEqual([])
	})

	test('is confirmed with a passkey; a confirmation older than ten minutes is not enough', async () => {
		const { user, jar } = await eidOnlyAccount(11)
		expect((await run(settingsLoader as Handler, get(jar, '/settings'))).data).toMatchObject({ deletion: { confirmed: false } })
		const device = softAuthenticator()
		const options = await passkeyAddOptions({ id: user.id, mayAddWayIn: true, email: user.email, name: '' }, ip())
		await addPasskey({ id: user.id, mayAddWayIn: true }, device.register(options, { origin: origin() }), 'Phone')
		const answer = await run(settingsAction as Handler, await post(jar, '/settings', { intent: 'confirm-passkey', credential: await passkeyAnswer(jar, device) }))
		expect(answer.location).toBe('/settings#delete-account')
		jar.take(answer.response!)
		expect(await methodOf((await tokenIn(jar))!)).toBe('eid+passkey')
		expect((await run(settingsAction as Handler, await post(jar, '/settings', { intent: 'delete-account' }))).status).toBe(302)
		expect((await db.select().from(users).where(eq(users.id, user.id)))[0]?.deletedAt).not.toBeNull()
	})

	test('a confirmed session of an account with a password deletes it without the password; the domain refuses anything else', async () => {
		const user = await createCustomer()
		const session = await browserOf(user.id)
		const { deleteOwnAccount } = await import('~/domain/privacy/account-deletion.server')
		await expect(deleteOwnAccount({ userId: user.id, confirmed: false as unknown as true })).rejects.toMatchObject({ key: 'account:deletion.wrongPassword' })
		// Confirmed as the step-up does it once a passkey's answer is checked.
		const token = await confirmSession({ userId: user.id, sessionId: (await findUserByToken(session.token, 'web'))!.sessionId }, 'passkey')
		const jar = new CookieJar()
		const cookie = await getSessionStorage().getSession()
		cookie.set('token', token)
		jar.take(new Response(null, { headers: { 'Set-Cookie': await getSessionStorage().commitSession(cookie) } }))
		expect((await run(settingsAction as Handler, await post(jar, '/settings', { intent: 'delete-account' }))).status).toBe(302)
		expect((await db.select().from(users).where(eq(users.id, user.id)))[0]?.deletedAt).not.toBeNull()
	})
})
