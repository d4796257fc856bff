import { eq, sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { emailOutbox, passwordResetTokens, sessions, subscriptions, users, workshops } from '~/db/schema'
import {
	authenticate,
	changePassword,
	isResetTokenValid,
	register,
	requestPasswordReset,
	resetPassword,
} from '~/domain/accounts.server'
import { getOptionalUser, hashToken, requireUser } from '~/utils/auth.server'
import { db } from '~/utils/db.server'
import { verifyPassword } from '~/utils/password.server'
import { getSessionStorage } from '~/utils/session.server'
import { again, createCustomer, ensureFreePackage, PASSWORD, signedInRequest, uniqueEmail } from '#tests/support/accounts'

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
		expect(user.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/)
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
		const result = await register(
			{
				role: 'workshop',
				firstName: 'Toomas',
				lastName: 'Tamm',
				email,
				mobile: '+372 5555 1111',
				password: PASSWORD,
				confirmPassword: PASSWORD,
				companyName: 'Tamme Garaaž OÜ',
				workshopName: 'Tamme Garaaž',
				companyId: '1234567890',
			},
			'et',
		)
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

	test('20 wrong passwords in a row hit the rate limit, and then even the right one waits', async () => {
		const user = await createCustomer()
		const outcomes = []
		for (let attempt = 0; attempt < 20; attempt++) {
			outcomes.push(await authenticate({ email: user.email, password: `wrong-${attempt}`, ip: '10.0.0.3' }))
		}
		const limited = outcomes.filter((o) => !o.ok && o.error.status === 429)
		expect(limited.length).toBeGreaterThan(0)
		expect(outcomes.at(-1)).toMatchObject({ ok: false, error: { key: 'common:validation.tooManyAttempts', status: 429 } })
		// Another address: the account is still limited.
		expect(await authenticate({ email: user.email, password: PASSWORD, ip: '10.0.0.4' })).toMatchObject({ ok: false, error: { status: 429 } })
		// Another account from the first address is not.
		const other = await createCustomer()
		expect((await authenticate({ email: other.email, password: PASSWORD, ip: '10.0.0.5' })).ok).toBe(true)
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
		expect(response.headers.get('Location')).toBe('/')
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
