import { randomBytes, scryptSync } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { emailOutbox, passwordResetTokens, sessions, subscriptions, users, workshops } from '~/db/schema'
import {
	accountErrorHeaders,
	authenticate,
	changePassword,
	isResetTokenValid,
	loginSlowdownMs,
	register,
	requestPasswordReset,
	resetPassword,
} from '~/domain/accounts/accounts.server'
import { getOptionalUser, hashToken, requireUser } from '~/utils/auth.server'
import { db } from '~/db/db.server'
import { needsRehash, PRODUCTION_COST, verifyPassword } from '~/utils/password.server'
import { getSessionStorage } from '~/utils/session.server'
import { again, createCustomer, ensureFreePackage, PASSWORD, signedInRequest, uniqueEmail, workshopRegistration } from '#tests/support/accounts'

async function thrownResponse(promise: Promise<unknown>): Promise<Response> {
	const outcome = await promise.then(
		() => null,
		(error: unknown) => error,
	)
	if (!(outcome instanceof Response)) throw new Error('expected a thrown Response')
	return outcome
}

async function flashedToastKey(response: Response) {
	const cookie = response.headers.get('Set-Cookie')!.split(';')[0]!
	const session = await getSessionStorage().getSession(cookie)
	return (session.get('toast') as { key?: string } | undefined)?.key
}

describe('registration', () => {
	test('stores a customer with a slow, salted hash and queues a welcome e-mail', async () => {
		const email = uniqueEmail('new')
		const user = await createCustomer({ email })
		expect(user.role).toBe('customer')
		expect(user.passwordHash).not.toContain(PASSWORD)
		// The tests hash with a cheaper cost; the portal itself with OWASP's scrypt advice (N=2^17, r=8, p=1).
		expect(user.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$/)
		expect(PRODUCTION_COST).toEqual({ N: 131072, r: 8, p: 1 })
		expect(await verifyPassword(PASSWORD, user.passwordHash)).toBe(true)
		const mail = await db.select().from(emailOutbox).where(eq(emailOutbox.to, email))
		expect(mail).toHaveLength(1)
	})

	test('refuses an e-mail address that is already registered, in any case, and stores nothing', async () => {
		const email = uniqueEmail('taken')
		await createCustomer({ email })
		const before = (await db.select().from(users)).length
		const result = await register(
			{ role: 'customer', firstName: 'Kati', lastName: 'Karu', email: email.toUpperCase(), mobile: '+372 5555 0000', password: PASSWORD, confirmPassword: PASSWORD },
			'en',
		)
		expect(result).toEqual({ ok: false, field: 'email', key: 'auth:register.emailTaken' })
		expect((await db.select().from(users)).length).toBe(before)
	})

	test('creates a workshop owner with the workshop and the free package', async () => {
		await ensureFreePackage()
		const email = uniqueEmail('workshop')
		const result = await register(workshopRegistration(email, { companyName: 'Tamme Garaaž OÜ', workshopName: 'Tamme Garaaž' }), 'et')
		expect(result.ok).toBe(true)
		const [workshop] = await db.select().from(workshops).where(eq(workshops.email, email))
		expect(workshop).toMatchObject({ companyName: 'Tamme Garaaž OÜ', workshopName: 'Tamme Garaaž', companyId: '1234567890' })
		const [subscription] = await db.select().from(subscriptions).where(eq(subscriptions.workshopId, workshop!.id))
		expect(subscription?.status).toBe('active')
	})
})

describe('logging in', () => {
	test('accepts the right password and refuses a wrong one or an unknown address alike', async () => {
		const user = await createCustomer()
		expect((await authenticate({ email: user.email, password: PASSWORD, ip: '10.0.0.1' })).ok).toBe(true)
		const wrong = await authenticate({ email: user.email, password: 'wrong-pass', ip: '10.0.0.1' })
		const unknown = await authenticate({ email: uniqueEmail('nobody'), password: PASSWORD, ip: '10.0.0.1' })
		expect(wrong).toEqual({ ok: false, error: { key: 'auth:login.invalid', status: 401 } })
		expect(unknown).toEqual(wrong)
	})

	test('tells a blocked account so only when the password is right', async () => {
		const user = await createCustomer()
		await db.update(users).set({ blocked: true }).where(eq(users.id, user.id))
		expect(await authenticate({ email: user.email, password: PASSWORD, ip: '10.0.0.2' })).toEqual({
			ok: false,
			error: { key: 'auth:login.blocked', status: 401 },
		})
		expect((await authenticate({ email: user.email, password: 'wrong-pass', ip: '10.0.0.2' })).ok).toBe(false)
	})

	test('an address that keeps failing for an account is refused for a while, with when to come back', async () => {
		const user = await createCustomer()
		const outcomes = []
		for (let attempt = 0; attempt < 12; attempt++) {
			outcomes.push(await authenticate({ email: user.email, password: `wrong-${attempt}`, ip: '10.0.0.3' }))
		}
		expect(outcomes.slice(0, 10).every((o) => !o.ok && o.error.status === 401)).toBe(true)
		const refused = outcomes.at(-1)!
		expect(refused).toMatchObject({ ok: false, error: { key: 'common:validation.tooManyAttempts', status: 429 } })
		if (refused.ok || refused.error.status !== 429) throw new Error('expected a 429')
		expect(refused.error.retryAfterSeconds).toBeGreaterThan(0)
		expect(accountErrorHeaders(refused.error)).toEqual({ 'Retry-After': String(refused.error.retryAfterSeconds) })
		// Even the right password waits at that address …
		expect(await authenticate({ email: user.email, password: PASSWORD, ip: '10.0.0.3' })).toMatchObject({ ok: false, error: { status: 429 } })
		// … but the owner elsewhere is not locked out.
		expect((await authenticate({ email: user.email, password: PASSWORD, ip: '10.0.0.4' })).ok).toBe(true)
		expect(loginSlowdownMs(9)).toBe(0)
		expect(loginSlowdownMs(10)).toBe(1000)
		expect(loginSlowdownMs(100)).toBe(5000)
	})

	test('parallel guesses cannot slip past the limit: every attempt is counted before the password is checked', async () => {
		const user = await createCustomer()
		const outcomes = await Promise.all(
			Array.from({ length: 30 }, (_, n) => authenticate({ email: user.email, password: `wrong-${n}`, ip: '10.0.0.20' })),
		)
		const statuses = outcomes.map((o) => (o.ok ? 200 : o.error.status))
		expect(statuses.filter((s) => s === 401)).toHaveLength(10)
		expect(statuses.filter((s) => s === 429)).toHaveLength(20)
	})

	test('an account under attack from many addresses has its attempts spread out in time, never locked', async () => {
		const user = await createCustomer()
		for (let n = 0; n < 11; n++) await authenticate({ email: user.email, password: 'wrong-pass', ip: `198.18.0.${n + 1}` })
		const started = Date.now()
		const attempts = await Promise.all(
			[1, 2, 3].map((n) => authenticate({ email: user.email, password: PASSWORD, ip: `198.18.1.${n}` }).then((o) => ({ ...o, at: Date.now() - started }))),
		)
		expect(attempts.every((a) => a.ok)).toBe(true)
		// One after another, seconds apart, however many arrive at once.
		expect(Math.max(...attempts.map((a) => a.at))).toBeGreaterThanOrEqual(2_000)
	})

	test('failures from many addresses never lock the owner out', async () => {
		const user = await createCustomer()
		for (let n = 0; n < 11; n++) {
			expect(await authenticate({ email: user.email, password: 'wrong-pass', ip: `192.0.2.${n + 1}` })).toMatchObject({ ok: false, error: { status: 401 } })
		}
		expect((await authenticate({ email: user.email, password: PASSWORD, ip: '192.0.2.200' })).ok).toBe(true)
	})

	test('successful sign-ins never count: an office behind one address signs in all day', async () => {
		const colleagues = await Promise.all(Array.from({ length: 4 }, () => createCustomer()))
		for (let round = 0; round < 15; round++) {
			for (const colleague of colleagues) {
				expect((await authenticate({ email: colleague.email, password: PASSWORD, ip: '10.0.0.9' })).ok).toBe(true)
			}
		}
	})

	test('one address guessing at many accounts is refused after 50 failures', async () => {
		const outcomes = []
		for (let n = 0; n < 51; n++) outcomes.push(await authenticate({ email: `nobody-${n}@example.com`, password: 'wrong-pass', ip: '10.0.0.10' }))
		expect(outcomes.at(-2)).toMatchObject({ ok: false, error: { status: 401 } })
		expect(outcomes.at(-1)).toMatchObject({ ok: false, error: { status: 429 } })
		// Someone else at another address is not affected.
		const other = await createCustomer()
		expect((await authenticate({ email: other.email, password: PASSWORD, ip: '10.0.0.11' })).ok).toBe(true)
	})

	test('a hash made with a cheaper cost is replaced at the next sign-in', async () => {
		const user = await createCustomer()
		const salt = randomBytes(16)
		const key = scryptSync(PASSWORD, salt, 32, { N: 2 ** 10, r: 8, p: 1 })
		const weak = ['scrypt', 2 ** 10, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$')
		await db.update(users).set({ passwordHash: weak }).where(eq(users.id, user.id))
		expect(needsRehash(weak)).toBe(true)
		const result = await authenticate({ email: user.email, password: PASSWORD, ip: '10.0.0.12' })
		expect(result).toMatchObject({ ok: true, rehashed: true })
		const [after] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id))
		expect(after!.hash).not.toBe(weak)
		expect(needsRehash(after!.hash)).toBe(false)
		expect(await verifyPassword(PASSWORD, after!.hash)).toBe(true)
		expect(await authenticate({ email: user.email, password: PASSWORD, ip: '10.0.0.12' })).toMatchObject({ ok: true, rehashed: false })
	})
})

describe('sessions', () => {
	test('are stored as hashes and open the account', async () => {
		const user = await createCustomer()
		const { token, request } = await signedInRequest(user.id)
		expect((await getOptionalUser(request))?.id).toBe(user.id)
		const rows = await db.select().from(sessions).where(eq(sessions.userId, user.id))
		expect(rows.map((r) => r.tokenHash)).toEqual([hashToken(token)])
		expect(JSON.stringify(rows)).not.toContain(token)
	})

	test("a blocked user's open session stops working at once", async () => {
		const user = await createCustomer()
		const { request } = await signedInRequest(user.id)
		expect((await getOptionalUser(request))?.id).toBe(user.id)

		await db.update(users).set({ blocked: true }).where(eq(users.id, user.id))

		const next = again(request)
		expect(await getOptionalUser(next)).toBeNull()
		const response = await thrownResponse(requireUser(again(request)))
		expect(response.status).toBe(302)
		expect(response.headers.get('Location')).toBe('/?redirectTo=%2Fdashboard')
		expect(await flashedToastKey(response)).toBe('auth:guard.loginRequired')
	})

	test('the wrong role is sent to the dashboard with "You do not have permission."', async () => {
		const user = await createCustomer()
		const { request } = await signedInRequest(user.id)
		const response = await thrownResponse(requireUser(request, { role: 'workshop' }))
		expect(response.headers.get('Location')).toBe('/dashboard')
		expect(await flashedToastKey(response)).toBe('auth:guard.noPermission')
	})

	test('an expired session is no session', async () => {
		const user = await createCustomer()
		const { request } = await signedInRequest(user.id)
		await db.update(sessions).set({ expiresAt: sql`now() - interval '1 minute'` }).where(eq(sessions.userId, user.id))
		expect(await getOptionalUser(again(request))).toBeNull()
	})
})

describe('password reset', () => {
	async function resetLink(email: string) {
		await requestPasswordReset({ email, ip: `10.1.${Math.floor(Math.random() * 250)}.1`, language: 'en' })
		const [mail] = await db
			.select()
			.from(emailOutbox)
			.where(sql`${emailOutbox.to} = ${email} and ${emailOutbox.subject} like '%password%'`)
		const url = /https?:\/\/\S+\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail!.text)
		return url![1]!
	}

	test('e-mails a single-use link, stored only as a hash, that sets a new password and ends every session', async () => {
		const user = await createCustomer()
		const { request } = await signedInRequest(user.id)
		const token = await resetLink(user.email)
		const stored = await db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id))
		expect(stored).toHaveLength(1)
		expect(stored[0]!.tokenHash).not.toBe(token)
		expect(await isResetTokenValid(token)).toBe(true)

		expect(await resetPassword({ token, password: 'brand-new-1', ip: '10.2.0.1' })).toBe('ok')
		expect((await authenticate({ email: user.email, password: 'brand-new-1', ip: '10.2.0.1' })).ok).toBe(true)
		expect(await getOptionalUser(again(request))).toBeNull()

		// A used link is refused.
		expect(await isResetTokenValid(token)).toBe(false)
		expect(await resetPassword({ token, password: 'another-one', ip: '10.2.0.1' })).toBe('invalid')
	})

	test('refuses an expired link and a made-up one', async () => {
		const user = await createCustomer()
		const token = await resetLink(user.email)
		await db.update(passwordResetTokens).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(passwordResetTokens.userId, user.id))
		expect(await resetPassword({ token, password: 'brand-new-1', ip: '10.2.0.2' })).toBe('invalid')
		expect(await resetPassword({ token: 'made-up-token-0000000000', password: 'brand-new-1', ip: '10.2.0.2' })).toBe('invalid')
	})

	test('answers the same for an unknown address and sends nothing', async () => {
		const email = uniqueEmail('ghost')
		expect(await requestPasswordReset({ email, ip: '10.2.0.3', language: 'et' })).toBeNull()
		expect(await db.select().from(emailOutbox).where(eq(emailOutbox.to, email))).toEqual([])
	})
})

describe('changing the password', () => {
	test('needs the old password, a different new one, and keeps only this session', async () => {
		const user = await createCustomer()
		const here = await signedInRequest(user.id)
		const elsewhere = await signedInRequest(user.id)
		const current = (await getOptionalUser(here.request))!

		expect(await changePassword({ userId: user.id, sessionId: current.sessionId, oldPassword: 'not-my-pass', password: 'brand-new-1' })).toEqual({
			field: 'oldPassword',
			key: 'auth:settings.oldMismatch',
		})
		expect(await changePassword({ userId: user.id, sessionId: current.sessionId, oldPassword: PASSWORD, password: PASSWORD })).toEqual({
			field: 'password',
			key: 'auth:settings.sameAsOld',
		})
		expect(await changePassword({ userId: user.id, sessionId: current.sessionId, oldPassword: PASSWORD, password: 'brand-new-1' })).toBe('ok')
		expect((await getOptionalUser(again(here.request)))?.id).toBe(user.id)
		expect(await getOptionalUser(again(elsewhere.request))).toBeNull()
	})
})
