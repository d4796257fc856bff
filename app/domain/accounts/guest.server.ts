import { sql } from 'drizzle-orm'
import { users } from '~/db/schema'
import { queryRows, type Tx } from '~/db/db.server'
import { type Language } from '~/i18n/config'
import { recordConsents } from '~/domain/privacy/consents.server'
import { signInMethods } from './eid.server'

/**
 * Guest accounts (issue 37, decision 0153): a customer made by opening a widget request's e-mailed
 * link, which proved the address. No password, like an account made with eID (decision 0150): the
 * person sets one by a reset link (/settings, /forget-password) or links an eID later. The widget
 * said that sending accepts the terms and the privacy policy: recorded as a registration does.
 */

export type AccountForRequest =
	| { kind: 'new'; userId: string }
	/** An account of that address already; `linkOnly`: it has no password or eID, the link is its only way in. */
	| { kind: 'existing'; userId: string; linkOnly: boolean }
	| { kind: 'notCustomer' }
	| { kind: 'blocked' }

type Person = { email: string; firstName: string; lastName: string; mobile: string }

/**
 * The customer account of the address, in the caller's transaction: a new guest when the address
 * has none, else the existing one (locked, so two links of one address opened at once make one
 * account). A workshop's or an administrator's address, or a blocked account, gets no request.
 */
export async function accountForRequest(tx: Tx, person: Person, language: Language): Promise<AccountForRequest> {
	// One address, one account: the same lock a second link of the address waits for.
	await queryRows(tx, sql`select pg_advisory_xact_lock(hashtext(${`account:${person.email.toLowerCase()}`}))`)
	const [existing] = await tx
		.select({ id: users.id, role: users.role, blocked: users.blocked, deletedAt: users.deletedAt })
		.from(users)
		.where(sql`lower(${users.email}) = ${person.email.toLowerCase()}`)
		.for('update')
	if (existing) {
		if (existing.role !== 'customer') return { kind: 'notCustomer' }
		if (existing.blocked || existing.deletedAt) return { kind: 'blocked' }
		const methods = await signInMethods(tx, existing.id)
		return { kind: 'existing', userId: existing.id, linkOnly: methods.size === 0 }
	}
	const [created] = await tx
		.insert(users)
		.values({
			email: person.email,
			passwordHash: null,
			role: 'customer',
			firstName: person.firstName,
			lastName: person.lastName,
			mobile: person.mobile,
			preferredLanguage: language,
		})
		.returning({ id: users.id })
	await recordConsents(tx, created!.id, language)
	return { kind: 'new', userId: created!.id }
}
