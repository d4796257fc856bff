import { desc, eq, sql } from 'drizzle-orm'
import { forgetCaches } from '~/caching/cache-bus.server'
import { db, type DbOrTx, transaction } from '~/db/db.server'
import { partners } from '~/db/schema'
import { audited, writeAudit } from '~/domain/admin/audit.server'
import { DomainError, notFound } from '~/utils/errors'
import { newPartnerKey } from './partners.server'
import { type PartnerInput } from './partners'

/**
 * The administrators' side of partner keys (/admin/partners, decision 0154): issuing a key (shown
 * once: only its hash and prefix are kept), changing a partner's name, origins and limit, revoking
 * it. Every change is in the audit log, in its own transaction, and empties the `partners` cache
 * in every process, so a revoked key or a removed origin is refused at once.
 */

export type AdminPartner = {
	id: string
	name: string
	keyPrefix: string
	allowedOrigins: string[]
	rateLimitPerMinute: number
	createdAt: Date
	revokedAt: Date | null
}

const columns = {
	id: partners.id,
	name: partners.name,
	keyPrefix: partners.keyPrefix,
	allowedOrigins: partners.allowedOrigins,
	rateLimitPerMinute: partners.rateLimitPerMinute,
	createdAt: partners.createdAt,
	revokedAt: partners.revokedAt,
}

/** Every partner: those in use first, then the revoked; the newest first in each. */
export function listPartners(): Promise<AdminPartner[]> {
	return db
		.select(columns)
		.from(partners)
		.orderBy(sql`${partners.revokedAt} is not null`, desc(partners.createdAt), desc(partners.id))
}

export async function getPartner(partnerId: string): Promise<AdminPartner | null> {
	const [row] = await db.select(columns).from(partners).where(eq(partners.id, partnerId))
	return row ?? null
}

/** What the audit log keeps of a partner: never its key, nor the key's hash. */
const snapshot = (row: Pick<AdminPartner, 'name' | 'keyPrefix' | 'allowedOrigins' | 'rateLimitPerMinute'>) => ({
	name: row.name,
	keyPrefix: row.keyPrefix,
	allowedOrigins: row.allowedOrigins,
	rateLimitPerMinute: row.rateLimitPerMinute,
})

/** Issues a key to a new partner: the key is in the answer, and nowhere else ever after. */
export async function issuePartnerKey(actorId: string, input: PartnerInput): Promise<{ id: string; key: string; keyPrefix: string }> {
	return audited(actorId, { action: 'partner.create', entityType: 'partner' }, async (tx) => {
		const { key, keyHash, keyPrefix } = newPartnerKey()
		const values = { name: input.name, allowedOrigins: input.origins, rateLimitPerMinute: input.rateLimitPerMinute, keyPrefix }
		const [row] = await tx
			.insert(partners)
			.values({ ...values, keyHash, createdBy: actorId })
			.returning({ id: partners.id })
		await forgetPartners(tx)
		return { before: null, after: snapshot(values), result: { id: row!.id, key, keyPrefix }, entityId: row!.id }
	})
}

/** Changes a partner's name, origins and limit; a revoked partner stays as it was revoked. */
export async function updatePartner(actorId: string, partnerId: string, input: PartnerInput): Promise<void> {
	await audited(actorId, { action: 'partner.update', entityType: 'partner', entityId: partnerId }, async (tx) => {
		const current = await lockedPartner(tx, partnerId)
		if (current.revokedAt) throw new DomainError('admin:partners.revokedNoChange', 409)
		const values = { name: input.name, allowedOrigins: input.origins, rateLimitPerMinute: input.rateLimitPerMinute }
		await tx.update(partners).set(values).where(eq(partners.id, partnerId))
		await forgetPartners(tx)
		return { before: snapshot(current), after: snapshot({ ...current, ...values }), result: undefined }
	})
}

/**
 * Revokes a partner's key: its calls are refused from the next one on, in every process. Revoking
 * a revoked partner changes nothing (a form sent twice). The partner and its figures stay.
 */
export async function revokePartner(actorId: string, partnerId: string): Promise<void> {
	await transaction(async (tx) => {
		const current = await lockedPartner(tx, partnerId)
		if (current.revokedAt) return
		const [row] = await tx.update(partners).set({ revokedAt: sql`now()` }).where(eq(partners.id, partnerId)).returning({ revokedAt: partners.revokedAt })
		await writeAudit(tx, actorId, { action: 'partner.revoke', entityType: 'partner', entityId: partnerId, before: { revokedAt: null }, after: { revokedAt: row!.revokedAt } })
		await forgetPartners(tx)
	})
}

async function lockedPartner(tx: DbOrTx, partnerId: string) {
	const [row] = await tx.select(columns).from(partners).where(eq(partners.id, partnerId)).for('update')
	if (!row) throw notFound()
	return row
}

/** Empties every process's cache of keys when the transaction commits. */
const forgetPartners = (tx: DbOrTx) => forgetCaches(tx, 'partners')
