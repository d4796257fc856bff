/**
 * Passkeys (issue 36, docs/decisions/0151): WebAuthn credentials a person adds on
 * /settings/passkeys and signs in with on /login, instead of the password. Through
 * `@simplewebauthn/server`: resident keys and user verification required, attestation not asked.
 * The relying party is the portal's own address (APP_URL): its host name is the RP ID, its origin
 * the only origin accepted; an address that is an IP has no passkeys (WebAuthn allows none).
 * A challenge is handed out for one ceremony and taken once (webauthn_challenges).
 */
import { randomUUID } from 'node:crypto'
import { isIP } from 'node:net'
import {
	generateAuthenticationOptions,
	generateRegistrationOptions,
	verifyAuthenticationResponse,
	verifyRegistrationResponse,
	type AuthenticationResponseJSON,
	type AuthenticatorTransport,
	type PublicKeyCredentialCreationOptionsJSON,
	type PublicKeyCredentialRequestOptionsJSON,
	type RegistrationResponseJSON,
} from '@simplewebauthn/server'
import { isoBase64URL } from '@simplewebauthn/server/helpers'
import { and, desc, eq, sql } from 'drizzle-orm'
import { passkeys, users, webauthnChallenges } from '~/db/schema'
import { db, isUniqueViolation, queryRows, transaction } from '~/db/db.server'
import { writeAudit } from '~/domain/admin/audit.server'
import { type Language } from '~/i18n/config'
import { type Role } from '~/utils/route-access'
import { getEnv } from '~/utils/env.server'
import { logger } from '~/utils/logger.server'
import { DomainError, notFound, tooManyAttempts } from '~/utils/errors'
import { hitRateLimit, rateLimitRules } from '~/utils/rate-limit.server'
import { type PasskeyName } from './passkeys'
import { confirmSession } from './accounts.server'

/** How long a ceremony may take, from its challenge to its answer (WebAuthn's own timeout is shorter). */
const CHALLENGE_MINUTES = 5
/** At most this many passkeys per person: enough for every device, and a list a page can show. */
export const MAX_PASSKEYS = 20

type Purpose = 'add' | 'sign-in'

/** The relying party: the portal's address, or null where passkeys cannot work (an IP address). */
export function relyingParty(): { id: string; origin: string; name: string } | null {
	const url = new URL(getEnv().APP_URL)
	const host = url.hostname.replace(/^\[|\]$/g, '')
	if (isIP(host)) return null
	return { id: host, origin: url.origin, name: 'Autohub' }
}

export const passkeysAvailable = () => relyingParty() !== null

function requireRelyingParty() {
	const rp = relyingParty()
	if (!rp) throw notFound()
	return rp
}

async function countChallenge(ip: string) {
	const hit = await hitRateLimit(`passkey:challenge:${ip}`, rateLimitRules.passkeyChallengesPerIp)
	if (!hit.allowed) throw tooManyAttempts(hit.retryAfterSeconds)
}

async function storeChallenge(challenge: string, purpose: Purpose, userId: string | null) {
	// Old unanswered challenges go as new ones come: the table holds a few minutes' worth.
	await db.execute(sql`delete from webauthn_challenges where expires_at < now()`)
	await db.insert(webauthnChallenges).values({ challenge, purpose, userId, expiresAt: sql`now() + make_interval(mins => ${CHALLENGE_MINUTES})` })
}

/** Takes a challenge once: true if it was handed out for this purpose (and person) and is still fresh. */
async function takeChallenge(challenge: string, purpose: Purpose, userId: string | null): Promise<boolean> {
	const rows = await queryRows<{ challenge: string }>(
		db,
		sql`delete from webauthn_challenges
			where challenge = ${challenge} and purpose = ${purpose} and expires_at > now()
			  and user_id is not distinct from ${userId}::uuid
			returning challenge`,
	)
	return rows.length === 1
}

// ---------------------------------------------------------------- adding a passkey

/**
 * Who adds a passkey: `mayAddWayIn` is the session's say (`mayAddWayIn` of app/utils/auth.server.ts):
 * an administrator's session without a second factor or an enrolment link may not (decision 0156).
 */
export type PasskeyOwner = { id: string; mayAddWayIn: boolean }

const adminNeedsConfirmation = () => new DomainError('auth:stepUp.addNeedsConfirmation', 403)

/** The options for adding a passkey to `user`'s account (its existing ones excluded). */
export async function passkeyAddOptions(user: PasskeyOwner & { email: string; name: string }, ip: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
	const rp = requireRelyingParty()
	if (!user.mayAddWayIn) throw adminNeedsConfirmation()
	await countChallenge(ip)
	const existing = await db.select({ credentialId: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, user.id))
	if (existing.length >= MAX_PASSKEYS) throw new DomainError('account:passkeys.tooMany', 409, { max: MAX_PASSKEYS })
	const options = await generateRegistrationOptions({
		rpName: rp.name,
		rpID: rp.id,
		userName: user.email,
		userDisplayName: user.name || user.email,
		// The WebAuthn user handle: the account's id, so a passkey found by the browser names its account.
		userID: new TextEncoder().encode(user.id),
		attestationType: 'none',
		excludeCredentials: existing.map((each) => ({ id: each.credentialId, transports: each.transports as AuthenticatorTransport[] })),
		authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
		timeout: 120_000,
	})
	await storeChallenge(options.challenge, 'add', user.id)
	return options
}

/** Checks the browser's answer to the add options and keeps the passkey under `name`; the audit log says it was added. */
export async function addPasskey(owner: PasskeyOwner, response: RegistrationResponseJSON, name: PasskeyName): Promise<void> {
	const rp = requireRelyingParty()
	if (!owner.mayAddWayIn) throw adminNeedsConfirmation()
	const userId = owner.id
	let verification
	try {
		verification = await verifyRegistrationResponse({
			response,
			expectedChallenge: (challenge) => takeChallenge(challenge, 'add', userId),
			expectedOrigin: rp.origin,
			expectedRPID: rp.id,
			requireUserVerification: true,
		})
	} catch {
		throw new DomainError('account:passkeys.notAdded', 400)
	}
	if (!verification.verified) throw new DomainError('account:passkeys.notAdded', 400)
	const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo
	try {
		await transaction(async (tx) => {
			const id = randomUUID()
			await tx.insert(passkeys).values({
				id,
				userId,
				credentialId: credential.id,
				publicKey: isoBase64URL.fromBuffer(credential.publicKey),
				counter: credential.counter,
				transports: credential.transports ?? [],
				multiDevice: credentialDeviceType === 'multiDevice',
				backedUp: credentialBackedUp,
				name,
			})
			// A new way in is worth a line in the log (its name is the person's own: not there).
			await writeAudit(tx, userId, { action: 'user.passkeyAdd', entityType: 'user', entityId: userId, before: null, after: { passkey: id } })
		})
	} catch (error) {
		if (isUniqueViolation(error)) throw new DomainError('account:passkeys.alreadyAdded', 409)
		throw error
	}
}

// ---------------------------------------------------------------- signing in

/** The options for signing in with any passkey of this site (the browser offers the person's own). */
export async function passkeySignInOptions(ip: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
	const rp = requireRelyingParty()
	await countChallenge(ip)
	const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'required', allowCredentials: [], timeout: 120_000 })
	await storeChallenge(options.challenge, 'sign-in', null)
	return options
}

/**
 * The browser's answer to a sign-in or confirmation, as its form posts it (the `credential` field,
 * JSON); null when there is none (sent without JavaScript) or it is not an object.
 */
export function passkeyAnswerOf(formData: FormData): AuthenticationResponseJSON | null {
	try {
		const answer: unknown = JSON.parse(String(formData.get('credential') ?? ''))
		return answer && typeof answer === 'object' ? (answer as AuthenticationResponseJSON) : null
	} catch {
		return null
	}
}

/**
 * Checks a passkey sign-in and returns the account it opens. Refused (401, one message for all,
 * so nothing tells which part failed): an unknown passkey, a challenge not handed out, used or
 * stale, another origin or RP ID, no user verification, a bad signature, a counter not above
 * the stored one (a cloned authenticator), a blocked account. Failures from one address are
 * limited like password failures.
 */
export async function signInWithPasskey(response: AuthenticationResponseJSON, ip: string): Promise<{ id: string; role: Role; preferredLanguage: Language | null }> {
	const stored = await verifiedAnswer(response, ip, null)
	if (stored.blocked) throw new DomainError('auth:login.blocked', 401)
	return { id: stored.userId, role: stored.role, preferredLanguage: stored.preferredLanguage }
}

/**
 * The options for confirming a signed-in session with one of the person's own passkeys (a step-up,
 * decision 0156): their passkeys allowed, the challenge tied to them. None to offer: 409.
 */
export async function passkeyConfirmOptions(userId: string, ip: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
	const rp = requireRelyingParty()
	const own = await db.select({ credentialId: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, userId))
	if (!own.length) throw new DomainError('auth:stepUp.noPasskey', 409)
	await countChallenge(ip)
	const options = await generateAuthenticationOptions({
		rpID: rp.id,
		userVerification: 'required',
		allowCredentials: own.map((each) => ({ id: each.credentialId, transports: each.transports as AuthenticatorTransport[] })),
		timeout: 120_000,
	})
	await storeChallenge(options.challenge, 'sign-in', userId)
	return options
}

/**
 * Confirms this session with one of the person's own passkeys, answering the challenge handed out
 * to them: the session is replaced by one that has the passkey among its factors (`confirmSession`),
 * and the new token is answered. Refused as a sign-in is, and for another person's passkey.
 */
export async function confirmWithPasskey(session: { userId: string; sessionId: string }, response: AuthenticationResponseJSON, ip: string): Promise<string> {
	await verifiedAnswer(response, ip, session.userId)
	return confirmSession(session, 'passkey')
}

/**
 * The stored passkey a WebAuthn answer proves, its counter moved forwards: for signing in
 * (`userId` null: any person's passkey, a challenge handed out to nobody) or for confirming a
 * person's session (their own passkey, their challenge). Every refusal is the same 401.
 */
async function verifiedAnswer(response: AuthenticationResponseJSON, ip: string, userId: string | null) {
	const rp = requireRelyingParty()
	const refused = async (reason: string) => {
		// Why, for the operator (no one's data: the reason is the library's or ours).
		logger.info('passkey answer refused', { reason: reason.slice(0, 200), purpose: userId ? 'confirm' : 'sign-in' })
		const hit = await hitRateLimit(`passkey:fail:${ip}`, rateLimitRules.passkeyFailuresPerIp)
		if (!hit.allowed) return tooManyAttempts(hit.retryAfterSeconds)
		return new DomainError('auth:passkey.refused', 401)
	}
	const credentialId = typeof response?.id === 'string' ? response.id : ''
	const [stored] = await db
		.select({ id: passkeys.id, userId: passkeys.userId, publicKey: passkeys.publicKey, counter: passkeys.counter, transports: passkeys.transports, blocked: users.blocked, role: users.role, preferredLanguage: users.preferredLanguage })
		.from(passkeys)
		.innerJoin(users, eq(users.id, passkeys.userId))
		.where(userId ? and(eq(passkeys.credentialId, credentialId), eq(passkeys.userId, userId)) : eq(passkeys.credentialId, credentialId))
	if (!stored) throw await refused(userId ? 'not a passkey of this person' : 'unknown passkey')
	let verification
	try {
		verification = await verifyAuthenticationResponse({
			response,
			expectedChallenge: (challenge) => takeChallenge(challenge, 'sign-in', userId),
			expectedOrigin: rp.origin,
			expectedRPID: rp.id,
			credential: { id: response.id, publicKey: isoBase64URL.toBuffer(stored.publicKey), counter: stored.counter, transports: stored.transports as AuthenticatorTransport[] },
			requireUserVerification: true,
		})
	} catch (error) {
		throw await refused(error instanceof Error ? error.message : 'not verified')
	}
	if (!verification.verified) throw await refused('not verified')
	// The counter moves only forwards: of two answers with one counter value, one wins.
	const { newCounter, credentialBackedUp } = verification.authenticationInfo
	const moved = await queryRows<{ id: string }>(
		db,
		sql`update passkeys set counter = ${newCounter}, backed_up = ${credentialBackedUp}, last_used_at = now()
			where id = ${stored.id}::uuid and (counter = ${stored.counter} and (${newCounter} > counter or ${newCounter} = 0))
			returning id`,
	)
	if (!moved.length) throw await refused('counter did not move forwards')
	return stored
}

// ---------------------------------------------------------------- the person's list

export type PasskeyRow = { id: string; name: string; createdAt: Date; lastUsedAt: Date | null; multiDevice: boolean }

export async function listPasskeys(userId: string): Promise<PasskeyRow[]> {
	return db
		.select({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt, multiDevice: passkeys.multiDevice })
		.from(passkeys)
		.where(eq(passkeys.userId, userId))
		.orderBy(desc(passkeys.createdAt))
}

/** Removes one of the person's passkeys (another's id is "not found"). The password or eID remains the way in. */
export async function removePasskey(userId: string, passkeyId: string): Promise<void> {
	await transaction(async (tx) => {
		const removed = await tx
			.delete(passkeys)
			.where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, userId)))
			.returning({ id: passkeys.id })
		if (!removed.length) throw notFound()
		await writeAudit(tx, userId, { action: 'user.passkeyRemove', entityType: 'user', entityId: userId, before: { passkey: passkeyId }, after: null })
	})
}
