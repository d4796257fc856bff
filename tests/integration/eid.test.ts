import { and, asc, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { auditLog, eidIdentities, emailOutbox, sessions, users } from '~/db/schema'
import { db } from '~/db/db.server'
import { authenticate, openSession, updateProfile } from '~/domain/accounts/accounts.server'
import { linkedEid, linkEid } from '~/domain/accounts/eid.server'
import { getWorkshopReviews } from '~/domain/directory/workshops.server'
import { deleteOwnAccount } from '~/domain/privacy/account-deletion.server'
import { collectAccountData } from '~/domain/privacy/data-export.server'
import { applyRetention } from '~/domain/privacy/retention.server'
import { completeJob } from '~/domain/service-flow/job-moves.server'
import { getRequestForWorkshop, listOffersForCustomer } from '~/domain/service-flow/requests.server'
import { addReview } from '~/domain/service-flow/review-moves.server'
import { getFixedT } from '~/i18n/i18n.server'
import { subjectHash } from '~/identity/oidc.server'
import { loader as callbackLoader } from '~/routes/_public.eid.callback'
import { action as loginAction, loader as loginLoader } from '~/routes/_public.login'
import { action as registerAction, loader as registerLoader } from '~/routes/_public.register'
import { action as settingsAction, loader as settingsLoader } from '~/routes/_app.settings'
import { loader as startLoader } from '~/routes/eid.start'
import { action as cancelAction } from '~/routes/eid.cancel'
import { action as apiLoginAction } from '~/routes/admin.api.login'
import { eidCookieHeader, readEidCookie } from '~/identity/eid-cookie.server'
import { findUserByToken } from '~/utils/auth.server'
import { commitCsrfToken } from '~/utils/csrf.server'
import { DomainError } from '~/utils/errors'
import { honeypotInputProps } from '~/utils/honeypot.server'
import { hashPassword } from '~/utils/password.server'
import { getSessionStorage } from '~/utils/session.server'
import { callback, CookieJar, EID_ENV, forgetConfiguration, refusalOf, settled, throughProvider, useTestProvider, type ProviderForm } from '#tests/support/eid-flow'
import { uniquePersonalCode } from '#tests/support/openid-provider.mjs'
import { createCustomer, PASSWORD, signedInRequest, uniqueEmail } from '#tests/support/accounts'
import { jobInProgress } from '#tests/support/flow'
import { ROUTER_ARGS } from '#tests/support/router-args'
import { demoData } from '#tests/support/demo-data'

/**
 * Issue 36, parts 1, 2 and 5 (decision 0150): eID sign-in through OpenID Connect against the
 * tests' own provider, TARA-shaped.
 */

let provider: Awaited<ReturnType<typeof useTestProvider>>
beforeAll(async () => {
	// The demo data first, from the run's template: once a test has made an account, a later load takes a minute.
	await demoData()
	provider = await useTestProvider()
})
afterAll(async () => {
	await provider?.stop()
})

/** The session token the answer put into the browser's cookie, if any. */
async function signedInToken(jar: CookieJar) {
	const session = await getSessionStorage().getSession(jar.header())
	return (session.get('token') as string | undefined) ?? null
}

/** A form post from the browser holding `jar`, with its CSRF token. */
async function post(jar: CookieJar, url: string, fields: Record<string, string>) {
	const [token, csrfCookie] = await commitCsrfToken(new Request('http://localhost:3000/'))
	if (csrfCookie) jar.take(new Response(null, { headers: { 'Set-Cookie': csrfCookie } }))
	const body = new URLSearchParams({ csrf: token!, ...fields })
	return new Request(url, { method: 'POST', headers: { Cookie: jar.header(), 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': 'vitest' }, body })
}

describe('signing up with eID', () => {
	test('a new eID leads to the registration with the verified names; the account is made without a password, the eID kept as a keyed hash only', async () => {
		const code = uniquePersonalCode()
		const jar = new CookieJar()
		const back = await throughProvider(jar, 'purpose=register&role=customer', { code, given_name: 'MARY ÄNN', family_name: 'O’CONNEŽ-ŠUSLIK', method: 'mID' })
		const answer = await callback(jar, back)
		expect(answer.status).toBe(302)
		expect(answer.headers.get('Location')).toBe('/register?role=customer')
		expect(await signedInToken(jar)).toBeNull()

		const page = (await registerLoader({ request: new Request('http://localhost:3000/register?role=customer', { headers: { Cookie: jar.header() } }), params: {}, ...ROUTER_ARGS, context: {} })) as {
			pendingEid: { firstName: string; lastName: string } | null
			eid: boolean
		}
		expect(page.eid).toBe(true)
		expect(page.pendingEid).toEqual({ firstName: 'Mary Änn', lastName: 'O’Connež-Šuslik' })

		const email = uniqueEmail('eid')
		const honeypot = honeypotInputProps()
		const request = await post(jar, 'http://localhost:3000/register', {
			intent: 'eid',
			role: 'customer',
			email,
			mobile: '+372 5555 1234',
			// The names typed into a forged form do not count: the eID's do.
			firstName: 'Someone',
			lastName: 'Else',
			[honeypot.nameFieldName]: '',
			[honeypot.validFromFieldName!]: honeypot.encryptedValidFrom!,
		})
		const registered = jar.take(await settled(() => registerAction({ request, params: {}, ...ROUTER_ARGS, context: { clientIp: '10.9.0.1' } })))
		expect(registered.status).toBe(302)
		expect(await signedInToken(jar)).not.toBeNull()
		expect(jar.has('__eid')).toBe(false)

		const [user] = await db.select().from(users).where(eq(users.email, email))
		expect(user).toMatchObject({ firstName: 'Mary Änn', lastName: 'O’Connež-Šuslik', passwordHash: null, role: 'customer' })
		const [identity] = await db.select().from(eidIdentities).where(eq(eidIdentities.userId, user!.id))
		expect(identity).toMatchObject({ country: 'EE', lastMethod: 'mID' })
		expect(identity!.subjectHash).toMatch(/^[0-9a-f]{64}$/)
		expect(JSON.stringify(identity)).not.toContain(code)
		const signIns = await db.select().from(auditLog).where(and(eq(auditLog.actorId, user!.id), eq(auditLog.action, 'user.signIn')))
		expect(signIns.map((row) => row.after)).toEqual([{ method: 'eid', via: 'web' }])
		expect(await db.select().from(emailOutbox).where(eq(emailOutbox.to, email))).toHaveLength(1)

		// The next time, the same eID signs the account in.
		const jar2 = new CookieJar()
		const again = await callback(jar2, await throughProvider(jar2, 'purpose=login', { code }))
		expect(again.status).toBe(302)
		expect(again.headers.get('Location')).toBe('/dashboard')
		const token = await signedInToken(jar2)
		expect(token).not.toBeNull()
		expect(await db.select().from(sessions).where(eq(sessions.userId, user!.id))).toHaveLength(2)
	})
})

/** A fresh browser signing in at the provider as `form` says; answers the callback's Response and the jar. */
async function eidAnswer(query: string, form: ProviderForm, jar = new CookieJar()) {
	const answer = await callback(jar, await throughProvider(jar, query, form))
	return { answer, jar }
}

async function sessionCount() {
	return (await db.select({ id: sessions.id }).from(sessions)).length
}

describe('the registration with eID, refused', () => {
	test('after the verified person is gone (forgotten, or fifteen minutes on): the form says so and nothing is made', async () => {
		const jar = new CookieJar()
		await callback(jar, await throughProvider(jar, 'purpose=register&role=customer', { code: uniquePersonalCode() }))
		const forgotten = jar.take(await settled(async () => cancelAction({ request: await post(jar, 'http://localhost:3000/eid/cancel', { back: '/register' }), params: {}, ...ROUTER_ARGS, context: {} })))
		expect(forgotten.headers.get('Location')).toBe('/register')
		expect(jar.has('__eid')).toBe(false)
		const email = uniqueEmail('eid-late')
		const honeypot = honeypotInputProps()
		const request = await post(jar, 'http://localhost:3000/register', { intent: 'eid', role: 'customer', email, mobile: '+372 5555 1234', [honeypot.nameFieldName]: '', [honeypot.validFromFieldName!]: honeypot.encryptedValidFrom! })
		const answer = await settled(() => registerAction({ request, params: {}, ...ROUTER_ARGS, context: { clientIp: '10.9.5.1' } }))
		expect(answer.status).toBe(400)
		expect(JSON.stringify(await answer.json())).toContain('auth:eid.pendingExpired')
		expect(await db.select().from(users).where(eq(users.email, email))).toEqual([])
	})

	test('an eID that opened an account meanwhile (another tab) is not registered twice', async () => {
		const code = uniquePersonalCode()
		const first = await eidOnlyAccountWith(code)
		const jar = new CookieJar()
		// A verified person kept from before the first registration: the same eID.
		const pending = await readEidCookie(new Request('http://localhost:3000/', { headers: { Cookie: first.pendingCookie } }))
		expect(pending.pending).toBeDefined()
		jar.take(new Response(null, { headers: { 'Set-Cookie': await eidCookieHeader({ pending: pending.pending }) } }))
		const email = uniqueEmail('eid-twice')
		const honeypot = honeypotInputProps()
		const request = await post(jar, 'http://localhost:3000/register', { intent: 'eid', role: 'customer', email, mobile: '+372 5555 1234', [honeypot.nameFieldName]: '', [honeypot.validFromFieldName!]: honeypot.encryptedValidFrom! })
		const answer = await settled(() => registerAction({ request, params: {}, ...ROUTER_ARGS, context: { clientIp: '10.9.6.1' } }))
		expect(answer.status).toBe(409)
		expect(JSON.stringify(await answer.json())).toContain('auth:eid.linkedElsewhere')
		expect(await db.select().from(users).where(eq(users.email, email))).toEqual([])
	})
})

describe('the audit log', () => {
	test('every sign-in records its method: the log-in form and the API (password), eID', async () => {
		const { userId } = await eidOnlyAccount()
		const user = await createCustomer()
		const jar = new CookieJar()
		await settled(async () => loginAction({ request: await post(jar, 'http://localhost:3000/login', { email: user.email, password: PASSWORD }), params: {}, ...ROUTER_ARGS, context: { clientIp: '10.9.7.1' } }))
		const api = await apiLoginAction({ request: new Request('http://localhost:3000/admin/api/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: user.email, password: PASSWORD }) }), params: {}, ...ROUTER_ARGS, context: { clientIp: '10.9.7.2' } })
		expect((api as Response).status).toBe(200)
		const methods = async (id: string) =>
			(await db.select({ after: auditLog.after }).from(auditLog).where(and(eq(auditLog.actorId, id), eq(auditLog.action, 'user.signIn'))).orderBy(asc(auditLog.createdAt))).map((row) => row.after)
		expect(await methods(user.id)).toEqual([
			{ method: 'password', via: 'web' },
			{ method: 'password', via: 'api' },
		])
		expect(await methods(userId)).toEqual([{ method: 'eid', via: 'web' }])
	})
})

describe('refusals: nobody is signed in, and the page says why, with a 4xx', () => {
	const spoilt = [
		['audience', 'an ID token for another audience'],
		['expired', 'an expired ID token'],
		['nonce', 'another nonce'],
		['issuer', 'another issuer'],
		['unknown-key', 'a signature by a key not in the JWKS'],
		['at-hash', 'an at_hash that is not the access token’s'],
	] as const
	for (const [answerKind, what] of spoilt) {
		test(`${what}`, async () => {
			const before = await sessionCount()
			const { answer, jar } = await eidAnswer('purpose=login', { code: uniquePersonalCode(), answer: answerKind })
			const reason = answerKind === 'unknown-key' || answerKind === 'at-hash' ? 'signature' : answerKind
			expect(await refusalOf(answer)).toEqual({ status: 400, key: `auth:eid.refused.${reason}` })
			expect(await signedInToken(jar)).toBeNull()
			expect(jar.has('__eid')).toBe(false)
			expect(await sessionCount()).toBe(before)
		})
	}

	test('key rotation: a token signed by a key the provider published since is checked against its JWKS read again', async () => {
		// The portal has read the provider's keys with a sign-in.
		expect((await eidAnswer('purpose=login', { code: uniquePersonalCode() })).answer.status).toBe(302)
		provider.rotate()
		// A minute on (keys are read again for an unknown kid at most once a minute), the new key's token is good.
		vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000, shouldAdvanceTime: true })
		try {
			const { answer } = await eidAnswer('purpose=login', { code: uniquePersonalCode() })
			expect(answer.status).toBe(302)
			expect(answer.headers.get('Location')).toBe('/register?role=customer')
		} finally {
			vi.useRealTimers()
		}
	})

	test('below the required level of assurance (acr low): 403', async () => {
		const { answer, jar } = await eidAnswer('purpose=login', { code: uniquePersonalCode(), acr: 'low' })
		expect(await refusalOf(answer)).toEqual({ status: 403, key: 'auth:eid.refused.assurance' })
		expect(await signedInToken(jar)).toBeNull()
	})

	test('substantial is enough', async () => {
		const { answer } = await eidAnswer('purpose=login', { code: uniquePersonalCode(), acr: 'substantial' })
		expect(answer.status).toBe(302)
		expect(answer.headers.get('Location')).toBe('/register?role=customer')
	})

	test('a wrong state, a reused one, and an answer in a browser that started no flow', async () => {
		const jar = new CookieJar()
		const back = new URL(await throughProvider(jar, 'purpose=login', { code: uniquePersonalCode() }))
		const forged = new URL(back)
		forged.searchParams.set('state', 'someone-elses-state')
		const copy = new CookieJar(jar.header())
		expect(await refusalOf(await callback(jar, forged.toString()))).toEqual({ status: 400, key: 'auth:eid.refused.state' })
		// The same answer again, with the flow's cookie as it was (a replay): used up.
		const first = await callback(new CookieJar(copy.header()), back.toString())
		expect(first.status).toBe(302)
		expect(await refusalOf(await callback(new CookieJar(copy.header()), back.toString()))).toEqual({ status: 400, key: 'auth:eid.refused.state' })
		// Without the flow's cookie (another browser).
		expect(await refusalOf(await callback(new CookieJar(), back.toString()))).toEqual({ status: 400, key: 'auth:eid.refused.state' })
	})

	test('cancelled at the provider: back to the page the button was on, saying so', async () => {
		const { answer, jar } = await eidAnswer('purpose=register&role=workshop', { code: uniquePersonalCode(), action: 'cancel' })
		expect(answer.status).toBe(302)
		expect(answer.headers.get('Location')).toBe('/register?role=workshop')
		const session = await getSessionStorage().getSession(jar.header())
		expect(session.get('toast')).toMatchObject({ type: 'info', key: 'auth:eid.refused.cancelled' })
		expect(await signedInToken(jar)).toBeNull()
	})

	test('a provider that cannot be reached: the button leads back with a message, not a 500', async () => {
		const issuer = process.env.OIDC_ISSUER
		process.env.OIDC_ISSUER = 'http://127.0.0.1:9/'
		forgetConfiguration()
		try {
			const start = await settled(() => startLoader({ request: new Request('http://localhost:3000/eid/start?purpose=login'), params: {}, ...ROUTER_ARGS, context: {} }))
			expect(start.status).toBe(302)
			expect(start.headers.get('Location')).toBe('/login')
		} finally {
			process.env.OIDC_ISSUER = issuer
			forgetConfiguration()
		}
	})
})

describe('linking an existing account', () => {
	test('after that account’s password: the eID is linked, the names become the verified ones, and it signs in next time', async () => {
		const user = await createCustomer()
		const code = uniquePersonalCode()
		const { answer, jar } = await eidAnswer('purpose=login', { code, given_name: 'KATI', family_name: 'KARU-TAMM' })
		expect(answer.headers.get('Location')).toBe('/register?role=customer')
		const page = (await loginLoader({ request: new Request('http://localhost:3000/login', { headers: { Cookie: jar.header() } }), params: {}, ...ROUTER_ARGS, context: {} })) as { pendingEid: unknown }
		expect(page.pendingEid).toEqual({ firstName: 'Kati', lastName: 'Karu-Tamm', role: 'customer' })

		const loggedIn = jar.take(await settled(async () => loginAction({ request: await post(jar, 'http://localhost:3000/login', { email: user.email, password: PASSWORD }), params: {}, ...ROUTER_ARGS, context: { clientIp: '10.9.1.1' } })))
		expect(loggedIn.status).toBe(302)
		expect(await signedInToken(jar)).not.toBeNull()
		expect(jar.has('__eid')).toBe(false)
		const session = await getSessionStorage().getSession(jar.header())
		expect(session.get('toast')).toMatchObject({ type: 'success', key: 'auth:eid.linkedAfterPassword' })
		const [after] = await db.select().from(users).where(eq(users.id, user.id))
		expect(after).toMatchObject({ firstName: 'Kati', lastName: 'Karu-Tamm' })
		const audit = await db.select({ action: auditLog.action, after: auditLog.after }).from(auditLog).where(eq(auditLog.actorId, user.id)).orderBy(asc(auditLog.createdAt))
		expect(audit).toEqual([
			{ action: 'user.signIn', after: { method: 'password', via: 'web' } },
			{ action: 'user.eidLink', after: { country: 'EE', method: 'smartid' } },
		])

		const next = await eidAnswer('purpose=login', { code })
		expect(next.answer.headers.get('Location')).toBe('/dashboard')
		expect((await findUserByToken((await signedInToken(next.jar))!, 'web'))?.id).toBe(user.id)
	})

	test('from /settings while signed in; an eID already linked to another account is refused (409), and the database holds it once', async () => {
		const first = await createCustomer()
		const second = await createCustomer()
		const code = uniquePersonalCode()
		const signedIn = await signedInRequest(first.id, 'http://localhost:3000/settings')
		const jar = new CookieJar(signedIn.request.headers.get('Cookie'))
		const linked = await callback(jar, await throughProvider(jar, 'purpose=link', { code }))
		expect(linked.status).toBe(302)
		expect(linked.headers.get('Location')).toBe('/settings#eid')
		expect(await linkedEid(first.id)).toMatchObject({ country: 'EE' })

		const other = await signedInRequest(second.id, 'http://localhost:3000/settings')
		const otherJar = new CookieJar(other.request.headers.get('Cookie'))
		const refused = await callback(otherJar, await throughProvider(otherJar, 'purpose=link', { code }))
		expect(await refusalOf(refused)).toEqual({ status: 409, key: 'auth:eid.linkedElsewhere' })
		expect(await linkedEid(second.id)).toBeNull()
		// The unique constraint holds it even against a write that skips the checks.
		const [identity] = await db.select().from(eidIdentities).where(eq(eidIdentities.userId, first.id))
		await expect(db.insert(eidIdentities).values({ userId: second.id, subjectHash: identity!.subjectHash, country: 'EE' })).rejects.toThrow()
	})

	test('a link started by one account is not completed for another one signed in meanwhile', async () => {
		const first = await createCustomer()
		const second = await createCustomer()
		const signedIn = await signedInRequest(first.id, 'http://localhost:3000/settings')
		const jar = new CookieJar(signedIn.request.headers.get('Cookie'))
		const back = await throughProvider(jar, 'purpose=link', { code: uniquePersonalCode() })
		const other = await signedInRequest(second.id)
		const swapped = new CookieJar(`${jar.header()}; ${other.request.headers.get('Cookie')}`)
		expect(await refusalOf(await callback(swapped, back))).toEqual({ status: 400, key: 'auth:eid.refused.state' })
		expect(await linkedEid(first.id)).toBeNull()
		expect(await linkedEid(second.id)).toBeNull()
	})
})

describe('unlinking', () => {
	test('refused while the eID is the only way to sign in; allowed once the account has a password', async () => {
		const { jar, userId } = await eidOnlyAccount()
		const refused = await settled(async () => settingsAction({ request: await post(jar, 'http://localhost:3000/settings', { intent: 'eid-unlink' }), params: {}, ...ROUTER_ARGS, context: {} }))
		expect(refused.status).toBe(302)
		const toast = (await getSessionStorage().getSession(refused.headers.get('Set-Cookie'))).get('toast')
		expect(toast).toMatchObject({ type: 'error', key: 'account:eid.unlinkNeedsPassword' })
		expect(await linkedEid(userId)).not.toBeNull()
		const settings = (await settingsLoader({ request: new Request('http://localhost:3000/settings', { headers: { Cookie: jar.header() } }), params: {}, ...ROUTER_ARGS, context: {} })) as { hasPassword: boolean }
		expect(settings.hasPassword).toBe(false)

		await db.update(users).set({ passwordHash: await hashPassword(PASSWORD) }).where(eq(users.id, userId))
		const done = await settled(async () => settingsAction({ request: await post(jar, 'http://localhost:3000/settings', { intent: 'eid-unlink' }), params: {}, ...ROUTER_ARGS, context: {} }))
		expect((await getSessionStorage().getSession(done.headers.get('Set-Cookie'))).get('toast')).toMatchObject({ type: 'success', key: 'account:eid.unlinked' })
		expect(await linkedEid(userId)).toBeNull()
		expect((await db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.actorId, userId))).map((row) => row.action)).toContain('user.eidUnlink')
	})

	test('an account without a password gets one by a reset link to its address', async () => {
		const { jar, email } = await eidOnlyAccount()
		const sent = await settled(async () => settingsAction({ request: await post(jar, 'http://localhost:3000/settings', { intent: 'set-password' }), params: {}, ...ROUTER_ARGS, context: { clientIp: '10.9.2.1' } }))
		expect((await getSessionStorage().getSession(sent.headers.get('Set-Cookie'))).get('toast')).toMatchObject({ key: 'account:eid.passwordLinkSent' })
		const mail = await db.select().from(emailOutbox).where(eq(emailOutbox.to, email))
		// In the account's language (it registered in Estonian, the default).
		expect(mail.map((row) => row.subject)).toContain(getFixedT('et', 'auth')('email.reset.subject'))
		// No password logs it in meanwhile.
		expect((await authenticate({ email, password: 'anything1', ip: '10.9.2.2' })).ok).toBe(false)
	})

	test('the profile keeps the verified names while the eID is linked', async () => {
		const { userId } = await eidOnlyAccount()
		await updateProfile(userId, { firstName: 'Other', lastName: 'Name', mobile: '+372 5000 0001' })
		const [user] = await db.select().from(users).where(eq(users.id, userId))
		expect(user).toMatchObject({ firstName: 'Mari', lastName: 'Maasikas', mobile: '+372 5000 0001' })
	})
})

/** A customer who registered with eID (no password), signed in in `jar`. */
async function eidOnlyAccount() {
	return eidOnlyAccountWith(uniquePersonalCode())
}

async function eidOnlyAccountWith(code: string) {
	const { jar } = await eidAnswer('purpose=register&role=customer', { code })
	const pendingCookie = jar.header()
	const email = uniqueEmail('eid-only')
	const honeypot = honeypotInputProps()
	const request = await post(jar, 'http://localhost:3000/register', {
		intent: 'eid',
		role: 'customer',
		email,
		mobile: '+372 5555 1234',
		[honeypot.nameFieldName]: '',
		[honeypot.validFromFieldName!]: honeypot.encryptedValidFrom!,
	})
	jar.take(await settled(() => registerAction({ request, params: {}, ...ROUTER_ARGS, context: { clientIp: '10.9.3.1' } })))
	const userId = (await findUserByToken((await signedInToken(jar))!, 'web'))!.id
	return { jar, userId, email, code, pendingCookie }
}

describe('privacy', () => {
	test('the export says "linked on" and each sign-in’s method, never the code; deleting the account removes the eID, so it can open a new one', async () => {
		const user = await createCustomer()
		const code = uniquePersonalCode()
		const signedIn = await signedInRequest(user.id, 'http://localhost:3000/settings')
		const jar = new CookieJar(signedIn.request.headers.get('Cookie'))
		await callback(jar, await throughProvider(jar, 'purpose=link', { code }))
		await eidAnswer('purpose=login', { code })
		const { data } = await collectAccountData(user.id)
		const text = JSON.stringify(data)
		expect(text).not.toContain(code)
		expect(data.eid).toMatchObject({ country: 'EE', lastMethod: 'smartid' })
		expect(new Date((data.eid as { linkedOn: Date }).linkedOn).getTime()).toBeGreaterThan(Date.now() - 60_000)
		// The link from /settings confirmed that session with the eID (decision 0156); then a sign-in with it.
		expect(data.signIns).toMatchObject([{ confirmed: { method: 'password+eid', factor: 'eid' } }, { method: 'eid', via: 'web' }])

		await deleteOwnAccount({ userId: user.id, password: PASSWORD })
		expect(await db.select().from(eidIdentities).where(eq(eidIdentities.userId, user.id))).toEqual([])
		expect(await db.select().from(auditLog).where(and(eq(auditLog.actorId, user.id), inArray(auditLog.action, ['user.signIn', 'user.stepUp'])))).toEqual([])
		// The eID is free again: it leads to a new registration.
		const { answer } = await eidAnswer('purpose=login', { code })
		expect(answer.headers.get('Location')).toBe('/register?role=customer')
	})

	test('sign-in records go after twelve months, with the other log-in records', async () => {
		const user = await createCustomer()
		await openSession({ userId: user.id, kind: 'web', method: 'password' })
		const rows = () => db.select().from(auditLog).where(and(eq(auditLog.actorId, user.id), eq(auditLog.action, 'user.signIn')))
		expect(await rows()).toHaveLength(1)
		await applyRetention(new Date(Date.now() + 11 * 31 * 24 * 3600 * 1000))
		expect(await rows()).toHaveLength(1)
		await applyRetention(new Date(Date.now() + 13 * 31 * 24 * 3600 * 1000))
		expect(await rows()).toEqual([])
	})
})

describe('the verified person mark', () => {
	test('on the request the workshop sees, the offers the customer compares and the reviews', async () => {
		const job = await jobInProgress()
		const customer = (await db.select().from(users).where(eq(users.id, job.customerId)))[0]!
		expect((await getRequestForWorkshop(job.workshop.workshopId, job.requestId, 'en')).customerVerified).toBe(false)
		await linkEid(job.customerId, { subjectHash: subjectHash('EE', uniquePersonalCode()), country: 'EE', firstName: customer.firstName, lastName: customer.lastName, method: 'idcard' })
		expect((await getRequestForWorkshop(job.workshop.workshopId, job.requestId, 'en')).customerVerified).toBe(true)

		expect((await listOffersForCustomer(job.customerId, job.requestId, 'en', 'price'))[0]!.workshopVerified).toBe(false)
		await linkEid(job.workshop.userId, { subjectHash: subjectHash('EE', uniquePersonalCode()), country: 'EE', firstName: 'Toomas', lastName: 'Tamm', method: 'smartid' })
		expect((await listOffersForCustomer(job.customerId, job.requestId, 'en', 'price'))[0]!.workshopVerified).toBe(true)

		await completeJob(job.workshop, job.offerId, 15000, { mileage: 61000 })
		await addReview(job.customerId, job.requestId, { rating: 5, title: 'Hea', body: 'Kiire töö.' })
		const reviews = await getWorkshopReviews(job.workshop.workshopId, 1, 1, 'en')
		expect(reviews.items[0]).toMatchObject({ reviewer: `${customer.firstName} ${customer.lastName[0]}.`, reviewerVerified: true })
	})
})

describe('without OIDC configuration', () => {
	test('nothing of eID is shown and its addresses are not there; the password log-in works as before', async () => {
		const saved = Object.fromEntries(EID_ENV.map((name) => [name, process.env[name]]))
		for (const name of EID_ENV) delete process.env[name]
		forgetConfiguration()
		try {
			const login = (await loginLoader({ request: new Request('http://localhost:3000/login'), params: {}, ...ROUTER_ARGS, context: {} })) as { eid: boolean; pendingEid: unknown }
			expect(login).toMatchObject({ eid: false, pendingEid: null })
			const register = (await registerLoader({ request: new Request('http://localhost:3000/register'), params: {}, ...ROUTER_ARGS, context: {} })) as { eid: boolean }
			expect(register.eid).toBe(false)
			for (const run of [
				() => startLoader({ request: new Request('http://localhost:3000/eid/start?purpose=login'), params: {}, ...ROUTER_ARGS, context: {} }),
				() => callbackLoader({ request: new Request('http://localhost:3000/eid/callback?code=x&state=y'), params: {}, ...ROUTER_ARGS, context: {} }),
			]) {
				expect(await run().then(() => 'answered', (error: unknown) => (error instanceof DomainError ? error.status : error))).toBe(404)
			}
			const user = await createCustomer()
			const signedIn = await signedInRequest(user.id, 'http://localhost:3000/settings')
			const settings = (await settingsLoader({ request: signedIn.request, params: {}, ...ROUTER_ARGS, context: {} })) as { eid: unknown; hasPassword: boolean }
			expect(settings).toMatchObject({ eid: null, hasPassword: true })
			const jar = new CookieJar()
			const loggedIn = await settled(async () => loginAction({ request: await post(jar, 'http://localhost:3000/login', { email: user.email, password: PASSWORD }), params: {}, ...ROUTER_ARGS, context: { clientIp: '10.9.4.1' } }))
			expect(loggedIn.status).toBe(302)
			expect(loggedIn.headers.get('Location')).toBe('/dashboard')
		} finally {
			for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value
			forgetConfiguration()
		}
	})
})
