import { and, eq, isNull } from 'drizzle-orm'
import { eidIdentities, users } from '~/db/schema'
import { db, isUniqueViolation, transaction, type DbOrTx } from '~/db/db.server'
import { forgetUsers } from '~/caching/user-cache.server'
import { writeAudit } from '~/domain/admin/audit.server'
import { type Language } from '~/i18n/config'
import { type VerifiedPerson } from '~/identity/oidc.server'
import { DomainError, notFound } from '~/utils/errors'
import { confirmSession, createAccount, openSession } from './accounts.server'
import { type EidRegistration, type LinkedEid, type SignInMethodKind } from './eid'

/**
 * eID accounts (issue 36, decision 0150): which account an eID opens, linking and unlinking it,
 * registering with it. An eID is its keyed hash (`eid_identities.subject_hash`, unique): one eID
 * opens one account, an account has one eID. While linked, the account's names are the verified
 * ones. The OpenID flow itself is app/identity's.
 */

type Role = 'customer' | 'workshop' | 'admin'

/** The ways this account can sign in now (a password, an eID; passkeys will join): an eID goes only while another is left. */
export async function signInMethods(tx: DbOrTx, userId: string): Promise<Set<SignInMethodKind>> {
	const [row] = await tx
		.select({ passwordHash: users.passwordHash, eid: eidIdentities.id })
		.from(users)
		.leftJoin(eidIdentities, eq(eidIdentities.userId, users.id))
		.where(eq(users.id, userId))
	const methods = new Set<SignInMethodKind>()
	// A deleted account's row keeps a hash no password matches ('!deleted'): not a way in.
	if (row?.passwordHash?.startsWith('scrypt$')) methods.add('password')
	if (row?.eid) methods.add('eid')
	return methods
}

/** The eID linked to the account, as the settings and the data export show it (never the code). */
export async function linkedEid(userId: string): Promise<LinkedEid | null> {
	const [row] = await db
		.select({ country: eidIdentities.country, createdAt: eidIdentities.createdAt, lastUsedAt: eidIdentities.lastUsedAt })
		.from(eidIdentities)
		.where(eq(eidIdentities.userId, userId))
	return row ? { country: row.country, linkedAt: row.createdAt.toISOString(), lastUsedAt: row.lastUsedAt?.toISOString() ?? null } : null
}

export type EidSignIn =
	| { outcome: 'signedIn'; userId: string; role: Role; preferredLanguage: Language | null; token: string }
	| { outcome: 'blocked' }
	/** No account has this eID yet: the person registers, or links it to their account with its password. */
	| { outcome: 'unknown' }

/**
 * Signs in the account this eID opens: a session and its audit row (method eid), the eID's last
 * use, and the account's names kept to the verified ones (a changed surname arrives with the eID).
 */
export async function signInWithEid(person: VerifiedPerson, userAgent: string | null): Promise<EidSignIn> {
	return transaction(async (tx): Promise<EidSignIn> => {
		const [row] = await tx
			.select({ identityId: eidIdentities.id, userId: users.id, role: users.role, blocked: users.blocked, preferredLanguage: users.preferredLanguage, firstName: users.firstName, lastName: users.lastName })
			.from(eidIdentities)
			.innerJoin(users, eq(users.id, eidIdentities.userId))
			.where(and(eq(eidIdentities.subjectHash, person.subjectHash), isNull(users.deletedAt)))
		if (!row) return { outcome: 'unknown' }
		if (row.blocked) return { outcome: 'blocked' }
		await tx.update(eidIdentities).set({ lastUsedAt: new Date(), lastMethod: person.method }).where(eq(eidIdentities.id, row.identityId))
		if (row.firstName !== person.firstName || row.lastName !== person.lastName) await verifiedNames(tx, row.userId, person)
		const token = await openSession({ userId: row.userId, kind: 'web', userAgent, method: 'eid' }, tx)
		return { outcome: 'signedIn', userId: row.userId, role: row.role, preferredLanguage: row.preferredLanguage, token }
	})
}

async function verifiedNames(tx: DbOrTx, userId: string, person: Pick<VerifiedPerson, 'firstName' | 'lastName'>) {
	await tx.update(users).set({ firstName: person.firstName, lastName: person.lastName }).where(eq(users.id, userId))
	await forgetUsers(tx, 'user', [userId])
}

const linkedElsewhere = () => new DomainError('auth:eid.linkedElsewhere', 409)
const anotherLinked = () => new DomainError('auth:eid.accountHasOther', 409)

/**
 * Confirms a signed-in session with the account's own eID (a step-up, decision 0156): the eID must
 * be the one linked to this account (403 otherwise); its last use and the verified names are
 * kept as at a sign-in, and the session is replaced by one with eID among its factors. Answers
 * the new token.
 */
export async function confirmWithEid(session: { userId: string; sessionId: string }, person: VerifiedPerson): Promise<string> {
	return transaction(async (tx) => {
		const [row] = await tx
			.select({ identityId: eidIdentities.id, firstName: users.firstName, lastName: users.lastName })
			.from(eidIdentities)
			.innerJoin(users, eq(users.id, eidIdentities.userId))
			.where(and(eq(eidIdentities.subjectHash, person.subjectHash), eq(eidIdentities.userId, session.userId), isNull(users.deletedAt), eq(users.blocked, false)))
		if (!row) throw new DomainError('auth:eid.notThisAccount', 403)
		await tx.update(eidIdentities).set({ lastUsedAt: new Date(), lastMethod: person.method }).where(eq(eidIdentities.id, row.identityId))
		if (row.firstName !== person.firstName || row.lastName !== person.lastName) await verifiedNames(tx, session.userId, person)
		return confirmSession(session, 'eid', tx)
	})
}

/**
 * Links the eID to an account: from /settings while signed in, or right after the account's
 * password on the login page. Refused when it opens another account already (the unique hash
 * holds even against two at once) or the account has another eID. The account takes the verified
 * names. An administrator's account takes an eID only from a session that may add a way in
 * (`mayAddWayIn`: confirmed by a second factor or an enrolment link, decision 0156), never right
 * after its password: a leaked password must not let someone link their own eID and reach /admin.
 * Answers whether it was linked now or was already.
 */
export async function linkEid(userId: string, person: VerifiedPerson, options: { mayAddWayIn?: boolean } = {}): Promise<'linked' | 'already'> {
	try {
		return await transaction(async (tx) => {
			const [user] = await tx.select({ id: users.id, role: users.role, blocked: users.blocked, deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId)).for('update')
			if (!user || user.blocked || user.deletedAt) throw notFound()
			if (user.role === 'admin' && !options.mayAddWayIn) throw new DomainError('auth:stepUp.linkNeedsConfirmation', 403)
			const [own] = await tx.select({ subjectHash: eidIdentities.subjectHash }).from(eidIdentities).where(eq(eidIdentities.userId, userId))
			if (own) {
				if (own.subjectHash === person.subjectHash) return 'already'
				throw anotherLinked()
			}
			const [other] = await tx.select({ id: eidIdentities.id }).from(eidIdentities).where(eq(eidIdentities.subjectHash, person.subjectHash))
			if (other) throw linkedElsewhere()
			await tx.insert(eidIdentities).values({ userId, subjectHash: person.subjectHash, country: person.country, lastMethod: person.method, lastUsedAt: new Date() })
			await verifiedNames(tx, userId, person)
			await writeAudit(tx, userId, { action: 'user.eidLink', entityType: 'user', entityId: userId, before: null, after: { country: person.country, method: person.method } })
			return 'linked'
		})
	} catch (error) {
		if (isUniqueViolation(error, 'eid_identities_subject_key')) throw linkedElsewhere()
		if (isUniqueViolation(error, 'eid_identities_user_key')) throw anotherLinked()
		throw error
	}
}

/** Unlinks the account's eID, only while it has another way to sign in (a password): never locks its owner out. */
export async function unlinkEid(userId: string): Promise<void> {
	await transaction(async (tx) => {
		await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update')
		const methods = await signInMethods(tx, userId)
		if (!methods.has('eid')) throw new DomainError('account:eid.notLinked', 404)
		if (methods.size < 2) throw new DomainError('account:eid.unlinkNeedsPassword', 409)
		const [removed] = await tx.delete(eidIdentities).where(eq(eidIdentities.userId, userId)).returning({ country: eidIdentities.country })
		await writeAudit(tx, userId, { action: 'user.eidUnlink', entityType: 'user', entityId: userId, before: { country: removed?.country ?? null }, after: null })
	})
}

/**
 * A new account for a verified person: the form's e-mail, number (and workshop), the eID's names,
 * no password; the eID linked in the same transaction. Refused like a registration when the
 * e-mail address is taken, and when the eID opened an account meanwhile.
 */
export async function registerWithEid(
	input: EidRegistration,
	person: VerifiedPerson,
	language: Language,
): Promise<{ ok: true; userId: string } | { ok: false; field: 'email' | null; key: string }> {
	try {
		return await createAccount({ ...input, firstName: person.firstName, lastName: person.lastName, passwordHash: null }, language, async (tx, userId) => {
			await tx.insert(eidIdentities).values({ userId, subjectHash: person.subjectHash, country: person.country, lastMethod: person.method, lastUsedAt: new Date() })
			await writeAudit(tx, userId, { action: 'user.eidLink', entityType: 'user', entityId: userId, before: null, after: { country: person.country, method: person.method } })
		})
	} catch (error) {
		if (isUniqueViolation(error, 'eid_identities_subject_key')) return { ok: false, field: null, key: 'auth:eid.linkedElsewhere' }
		throw error
	}
}
