import { createHash, randomBytes } from 'node:crypto'
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import { eidIdentities, packages, passwordResetTokens, subscriptions, users, workshops } from '~/db/schema'
import { type Language } from '~/i18n/config'
import { getFixedT } from '~/i18n/i18n.server'
import { createSessionToken, endSessions, renewSession, type SignInFactor, type SignInMethod } from '~/utils/auth.server'
import { SIGN_IN_ACTION, STEP_UP_ACTION, writeAudit } from '~/domain/admin/audit.server'
import { db, isUniqueViolation, type DbOrTx, transaction } from '~/db/db.server'
import { forgetUsers } from '~/caching/user-cache.server'
import { sendEmail } from '~/domain/messaging/emails.server'
import { letter } from '~/domain/messaging/email-templates.server'
import { getEnv } from '~/utils/env.server'
import { hashPassword, needsRehash, verifyPassword } from '~/utils/password.server'
import { clearRateLimit, hitRateLimit, rateLimitRules, reserveTurn, undoRateLimitHit } from '~/utils/rate-limit.server'
import { message } from '~/utils/messages'
import { DomainError } from '~/utils/errors'
import { type Registration } from './accounts'
import { recordConsents } from '~/domain/privacy/consents.server'
import { retryAfterHeader } from '~/utils/http'

/**
 * Accounts: registration, authentication, password reset and change, profile and language.
 * Messages are translation keys; the routes and the JSON API show them in the reader's language.
 */

export type AccountError =
	| { key: 'auth:login.invalid'; status: 401 }
	| { key: 'auth:login.blocked'; status: 401 }
	| { key: 'common:validation.tooManyAttempts'; status: 429; minutes: number; retryAfterSeconds: number }

type UserRow = typeof users.$inferSelect

const RESET_TOKEN_MINUTES = 60

// Verifying against a fixed hash when no account matches keeps the answer time the same,
// so the timing does not tell which e-mail addresses are registered.
let dummyHash: Promise<string> | undefined
const getDummyHash = () => (dummyHash ??= hashPassword('not-a-real-password'))

const minutes = (seconds: number) => Math.max(1, Math.ceil(seconds / 60))

async function findUserByEmail(tx: DbOrTx, email: string): Promise<UserRow | undefined> {
	const [user] = await tx
		.select()
		.from(users)
		.where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
	return user
}

/**
 * How far apart attempts on an account under attack are spread: a second per failure over the
 * limit, at most five; `failures` is the count before this attempt.
 */
const MAX_SPACING_MS = 5_000
export const loginSlowdownMs = (failures: number) =>
	Math.min(MAX_SPACING_MS, Math.max(0, failures - rateLimitRules.loginFailuresPerAccount.limit + 1) * 1_000)
/** The longest an attempt waits for its turn; with more ahead of it, it is told to come back. */
const MAX_QUEUE_MS = 10_000

/**
 * Checks an e-mail and password. Only failures count (docs/decisions/0074-sign-in-limits.md): an
 * address that failed too often for this account, or for many accounts, is refused for a while
 * (429); an account failing from many addresses is never locked, its attempts are spread out in
 * time instead (one every few seconds), so nobody can lock its owner out and guessing stays slow
 * however many requests arrive at once. Every attempt is counted before the password is checked
 * (so parallel requests cannot slip past a limit) and a success takes its count back. A blocked
 * account is told so only after the right password.
 */
export async function authenticate(input: {
	email: string
	password: string
	ip: string
}): Promise<{ ok: true; user: UserRow; rehashed: boolean } | { ok: false; error: AccountError }> {
	const email = input.email.toLowerCase()
	const keys = {
		pair: `login:fail:${email}:${input.ip}`,
		ip: `login:fail-ip:${input.ip}`,
		account: `login:fail-account:${email}`,
		turn: `login:turn:${email}`,
	}
	const [pair, ip, account] = await Promise.all([
		hitRateLimit(keys.pair, rateLimitRules.loginFailuresPerAccountAndIp),
		hitRateLimit(keys.ip, rateLimitRules.loginFailuresPerIp),
		hitRateLimit(keys.account, rateLimitRules.loginFailuresPerAccount),
	])
	const takeBack = () => Promise.all([undoRateLimitHit(keys.pair), undoRateLimitHit(keys.ip), undoRateLimitHit(keys.account)])
	if (!pair.allowed || !ip.allowed) {
		// Refused before guessing: no attempt on the account.
		await undoRateLimitHit(keys.account)
		return { ok: false, error: tooMany((pair.allowed ? ip : pair).retryAfterSeconds) }
	}
	const spacing = loginSlowdownMs(account.hits - 1)
	if (spacing) {
		const turn = await reserveTurn(keys.turn, spacing, MAX_QUEUE_MS)
		if (!turn.ok) {
			await takeBack()
			return { ok: false, error: tooMany(Math.ceil(turn.waitMs / 1000)) }
		}
		if (turn.waitMs > 0) await new Promise((resolve) => setTimeout(resolve, turn.waitMs))
	}

	const user = await findUserByEmail(db, email)
	// An account made with eID has no password until it sets one: any password is wrong for it.
	const stored = user?.passwordHash ?? (await getDummyHash())
	const valid = await verifyPassword(input.password, stored)
	if (!user || !valid) return { ok: false, error: { key: 'auth:login.invalid', status: 401 } }
	await takeBack()
	if (user.blocked) return { ok: false, error: { key: 'auth:login.blocked', status: 401 } }
	await clearRateLimit(keys.pair)
	// A hash made with an older, cheaper cost is replaced while the password is at hand, unless it
	// changed meanwhile (a reset at the same moment must not be undone).
	const rehashed = needsRehash(stored)
	if (rehashed) {
		await db
			.update(users)
			.set({ passwordHash: await hashPassword(input.password) })
			.where(and(eq(users.id, user.id), eq(users.passwordHash, stored)))
	}
	return { ok: true, user, rehashed }
}

/** The error as a message for a form or the API (with the minutes to wait when rate-limited). */
export function accountErrorMessage(error: AccountError) {
	return error.status === 429 ? message(error.key, { minutes: error.minutes }) : error.key
}

function tooMany(retryAfterSeconds: number): AccountError {
	return { key: 'common:validation.tooManyAttempts', status: 429, minutes: minutes(retryAfterSeconds), retryAfterSeconds: Math.max(1, retryAfterSeconds) }
}

/** The headers of a refusal: a 429 says when to come back. */
export function accountErrorHeaders(error: AccountError): HeadersInit | undefined {
	return error.status === 429 ? retryAfterHeader(error.retryAfterSeconds) : undefined
}

/** Whether this IP may try to register now (counts the attempt). */
export async function allowRegistration(ip: string) {
	const result = await hitRateLimit(`register:ip:${ip}`, rateLimitRules.registerPerIp)
	return result.allowed ? null : tooMany(result.retryAfterSeconds)
}

/**
 * Creates a customer, or a workshop owner with the workshop and the free package, in one
 * transaction, and queues a welcome e-mail. The e-mail address must be new.
 */
export async function register(
	input: Registration,
	language: Language,
): Promise<{ ok: true; userId: string } | { ok: false; field: 'email'; key: 'auth:register.emailTaken' }> {
	const { password, confirmPassword: _, ...account } = input
	return createAccount({ ...account, passwordHash: await hashPassword(password) }, language)
}

/** What an account is made of: the registration's fields, a password's hash or none (eID, decision 0150). */
export type NewAccount = (Registration extends infer R ? (R extends unknown ? Omit<R, 'password' | 'confirmPassword'> : never) : never) & { passwordHash: string | null }

/**
 * The account itself, for `register` and eID's registration: `alsoIn(tx, userId)` adds what the
 * way of signing up brings, in the same transaction.
 */
export async function createAccount(
	input: NewAccount,
	language: Language,
	alsoIn?: (tx: DbOrTx, userId: string) => Promise<void>,
): Promise<{ ok: true; userId: string } | { ok: false; field: 'email'; key: 'auth:register.emailTaken' }> {
	try {
		const userId = await transaction(async (tx) => {
			if (await findUserByEmail(tx, input.email)) throw new EmailTaken()
			const [user] = await tx
				.insert(users)
				.values({
					email: input.email,
					passwordHash: input.passwordHash,
					role: input.role,
					firstName: input.firstName,
					lastName: input.lastName,
					mobile: input.mobile,
					preferredLanguage: language,
				})
				.returning({ id: users.id })
			if (input.role === 'workshop') {
				const [workshop] = await tx
					.insert(workshops)
					.values({
						userId: user!.id,
						contactFirstName: input.firstName,
						contactLastName: input.lastName,
						companyName: input.companyName,
						companyId: input.companyId,
						workshopName: input.workshopName,
						phone: input.mobile,
						email: input.email,
					})
					.returning({ id: workshops.id })
				// Every workshop starts on the free package.
				const [free] = await tx.select({ id: packages.id }).from(packages).where(eq(packages.code, 'free'))
				if (free) {
					await tx.insert(subscriptions).values({ workshopId: workshop!.id, packageId: free.id, status: 'active', periodStart: new Date() })
				}
			}
			// The form says that registering accepts the terms and the privacy policy: recorded, with their versions.
			await recordConsents(tx, user!.id, language)
			await alsoIn?.(tx, user!.id)
			const t = getFixedT(language, 'auth')
			const name = input.role === 'workshop' ? input.workshopName : input.firstName
			const subject = t('email.welcome.subject')
			await sendEmail(tx, { to: input.email, language, subject, content: letter(subject, t('email.welcome.text', { name, url: `${getEnv().APP_URL}/login?lng=${language}` })) })
			return user!.id
		})
		return { ok: true, userId }
	} catch (error) {
		if (error instanceof EmailTaken || isUniqueViolation(error, 'users_email_key')) {
			return { ok: false, field: 'email', key: 'auth:register.emailTaken' }
		}
		throw error
	}
}

/** How a person signed in: recorded in the audit log with every sign-in and on the session (issue 36). */
export type { SignInMethod }

/**
 * Starts a session (a browser's or an API token) and records the sign-in and its method in the
 * audit log, in one transaction: every sign-in has its row. The session remembers its method
 * (`sessions.sign_in_method`): an administrator's needs more than a password (decision 0156).
 * Answers the session's token.
 */
export async function openSession(input: { userId: string; kind: 'web' | 'api'; userAgent?: string | null; method: SignInMethod }, database?: DbOrTx): Promise<string> {
	const open = async (tx: DbOrTx) => {
		const token = await createSessionToken(tx, input)
		await writeAudit(tx, input.userId, { action: SIGN_IN_ACTION, entityType: 'user', entityId: input.userId, before: null, after: { method: input.method, via: input.kind } })
		return token
	}
	return database ? open(database) : transaction(open)
}

/**
 * Confirms a browser's session by another factor (a step-up, decision 0156): the session is
 * replaced by a new one whose method gains the factor, and the audit log gets `user.stepUp` with
 * the method before and after, in one transaction (the caller's, when given). Answers the new
 * token for the cookie; refused (401) when the session ended meanwhile.
 */
export async function confirmSession(session: { userId: string; sessionId: string }, factor: SignInFactor, database?: DbOrTx): Promise<string> {
	const confirm = async (tx: DbOrTx) => {
		const renewed = await renewSession(tx, { ...session, factor })
		if (!renewed) throw new DomainError('auth:guard.loginRequired', 401)
		await writeAudit(tx, session.userId, { action: STEP_UP_ACTION, entityType: 'user', entityId: session.userId, before: { method: renewed.before }, after: { method: renewed.method, factor } })
		return renewed.token
	}
	return database ? confirm(database) : transaction(confirm)
}

class EmailTaken extends Error {}

const hashResetToken = (token: string) => createHash('sha256').update(token).digest('hex')

/**
 * Sends a reset link if the address has an account. The answer is the same either way, so the
 * form does not reveal who is registered; only the per-IP limit is ever reported.
 */
export async function requestPasswordReset(input: { email: string; ip: string; language: Language }): Promise<AccountError | null> {
	const perIp = await hitRateLimit(`reset:ip:${input.ip}`, rateLimitRules.resetPerIp)
	if (!perIp.allowed) return tooMany(perIp.retryAfterSeconds)
	const user = await findUserByEmail(db, input.email)
	if (!user || user.blocked) return null
	const perAccount = await hitRateLimit(`reset:account:${user.id}`, rateLimitRules.resetPerAccount)
	if (!perAccount.allowed) return null

	const token = randomBytes(32).toString('base64url')
	const language = user.preferredLanguage ?? input.language
	const t = getFixedT(language, 'auth')
	await transaction(async (tx) => {
		// Only the newest link works.
		await tx.delete(passwordResetTokens).where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)))
		await tx.insert(passwordResetTokens).values({
			userId: user.id,
			tokenHash: hashResetToken(token),
			expiresAt: new Date(Date.now() + RESET_TOKEN_MINUTES * 60 * 1000),
		})
		const url = `${getEnv().APP_URL}/reset-password/${token}?lng=${language}`
		const subject = t('email.reset.subject')
		await sendEmail(tx, { to: user.email, language, subject, content: letter(subject, t('email.reset.text', { name: user.firstName, url, minutes: RESET_TOKEN_MINUTES })) })
	})
	return null
}

/** Whether a reset link is still good: known, unused and less than an hour old. */
export async function isResetTokenValid(token: string): Promise<boolean> {
	const [row] = await db
		.select({ id: passwordResetTokens.id })
		.from(passwordResetTokens)
		.where(
			and(
				eq(passwordResetTokens.tokenHash, hashResetToken(token)),
				isNull(passwordResetTokens.usedAt),
				gt(passwordResetTokens.expiresAt, new Date()),
			),
		)
	return Boolean(row)
}

/**
 * Sets a new password through a reset link, once: the link is used up in the same transaction,
 * and every session of the account ends.
 */
export async function resetPassword(input: { token: string; password: string; ip: string }): Promise<'ok' | 'invalid' | AccountError> {
	const perIp = await hitRateLimit(`reset-form:ip:${input.ip}`, rateLimitRules.resetFormPerIp)
	if (!perIp.allowed) return tooMany(perIp.retryAfterSeconds)
	const passwordHash = await hashPassword(input.password)
	return transaction(async (tx) => {
		// Marking it used first makes two submissions of one link race safely: one wins.
		const [used] = await tx
			.update(passwordResetTokens)
			.set({ usedAt: new Date() })
			.where(
				and(
					eq(passwordResetTokens.tokenHash, hashResetToken(input.token)),
					isNull(passwordResetTokens.usedAt),
					gt(passwordResetTokens.expiresAt, new Date()),
				),
			)
			.returning({ userId: passwordResetTokens.userId })
		if (!used) return 'invalid'
		await tx.update(users).set({ passwordHash }).where(eq(users.id, used.userId))
		await endSessions(tx, used.userId)
		return 'ok'
	})
}

/** Spec §5: the old password must match and the new one must differ; other sessions end. */
export async function changePassword(input: {
	userId: string
	sessionId: string
	oldPassword: string
	password: string
}): Promise<'ok' | { field: 'oldPassword' | 'password'; key: string }> {
	const [user] = await db.select().from(users).where(eq(users.id, input.userId))
	if (!user?.passwordHash || !(await verifyPassword(input.oldPassword, user.passwordHash))) {
		return { field: 'oldPassword', key: 'auth:settings.oldMismatch' }
	}
	// Compared as the hash sees them (NFKC), so no second hash is spent on the question.
	if (input.password.normalize('NFKC') === input.oldPassword.normalize('NFKC')) {
		return { field: 'password', key: 'auth:settings.sameAsOld' }
	}
	const passwordHash = await hashPassword(input.password)
	await transaction(async (tx) => {
		await tx.update(users).set({ passwordHash }).where(eq(users.id, input.userId))
		await endSessions(tx, input.userId, input.sessionId)
	})
	return 'ok'
}

/**
 * Name and mobile number; the e-mail address is for an administrator to change. While an eID is
 * linked the names are the verified ones and stay (decision 0150): only the number changes.
 */
export async function updateProfile(userId: string, input: { firstName?: string; lastName?: string; mobile: string }) {
	const [linked] = await db.select({ id: eidIdentities.id }).from(eidIdentities).where(eq(eidIdentities.userId, userId))
	const names = !linked && input.firstName && input.lastName ? { firstName: input.firstName, lastName: input.lastName } : {}
	await db
		.update(users)
		.set({ ...names, mobile: input.mobile })
		.where(eq(users.id, userId))
	await forgetUsers(undefined, 'user', [userId])
}

export async function setPreferredLanguage(userId: string, language: Language) {
	await db.update(users).set({ preferredLanguage: language }).where(eq(users.id, userId))
	await forgetUsers(undefined, 'user', [userId])
}

/** `npm run admin:create`: promotes an account, or creates one with a generated password. */
export async function createOrPromoteAdmin(email: string): Promise<{ userId: string; created: boolean; password?: string }> {
	const existing = await findUserByEmail(db, email)
	if (existing) {
		await db.update(users).set({ role: 'admin' }).where(eq(users.id, existing.id))
		await forgetUsers(undefined, 'user', [existing.id])
		return { userId: existing.id, created: false }
	}
	// 12 characters: the longest a password may be (spec §5).
	const password = randomBytes(9).toString('base64url')
	const [created] = await db
		.insert(users)
		.values({
			email: email.toLowerCase(),
			passwordHash: await hashPassword(password),
			role: 'admin',
			firstName: 'Admin',
			lastName: 'Autohub',
		})
		.returning({ id: users.id })
	return { userId: created!.id, created: true, password }
}
