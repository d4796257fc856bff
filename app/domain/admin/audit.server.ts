import { desc, eq, sql } from 'drizzle-orm'
import { auditLog, users } from '~/db/schema'
import { db, type DbOrTx, transaction } from '~/db/db.server'
import { ADMIN_PAGE_SIZE } from './admin'

/**
 * The audit log of administrator changes (issue 10): who, what, when, before and after. Every
 * change goes through `audited`, which runs it and writes its row in ONE transaction, so a change
 * that fails leaves no row and a change that is saved always has one. Every sign-in has a row too,
 * with its method (`user.signIn`, issue 36), kept as long as log-in records are (privacy/retention.ts).
 */

/** A sign-in's row: `after` is { method: 'password' | 'eid' | 'passkey', via: 'web' | 'api' }. */
export const SIGN_IN_ACTION = 'user.signIn'
/**
 * A session confirmed by another factor (decision 0156): `before` { method } and `after`
 * { method, factor }, e.g. "password" → "password+passkey".
 */
export const STEP_UP_ACTION = 'user.stepUp'
/** The log-in records: kept 12 months, in the person's data export, and deleted with the account. */
export const LOG_IN_ACTIONS = [SIGN_IN_ACTION, STEP_UP_ACTION] as const

export type AuditEntry = {
	action: string
	entityType: string
	entityId: string | null
	before: unknown
	after: unknown
}

type Snapshot = Record<string, unknown> | null

/** Runs `change` in a transaction and records what it returns; returns the change's result. */
export async function audited<T>(
	actorId: string,
	what: { action: string; entityType: string; entityId?: string | null },
	change: (tx: DbOrTx) => Promise<{ before: Snapshot; after: Snapshot; result: T; entityId?: string }>,
): Promise<T> {
	return transaction(async (tx) => {
		const { before, after, result, entityId } = await change(tx)
		// A created item's id is known only after the change.
		await writeAudit(tx, actorId, { ...what, entityId: entityId ?? what.entityId, before, after })
		return result
	})
}

/** Writes one audit row inside the caller's transaction. */
export async function writeAudit(
	tx: DbOrTx,
	actorId: string,
	entry: { action: string; entityType: string; entityId?: string | null; before: Snapshot; after: Snapshot },
) {
	await tx.insert(auditLog).values({
		actorId,
		action: entry.action,
		entityType: entry.entityType,
		entityId: entry.entityId ?? null,
		before: entry.before,
		after: entry.after,
	})
}

export type AuditRow = {
	id: string
	createdAt: Date
	actorName: string | null
	actorEmail: string | null
	action: string
	entityType: string
	entityId: string | null
	before: string
	after: string
}

const show = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value, null, 1))

/** A page of the log, newest first (served by audit_log_created_idx). */
export async function listAudit(page: number): Promise<{ items: AuditRow[]; page: number; totalPages: number }> {
	const [rows, [count]] = await Promise.all([
		db
			.select({
				id: auditLog.id,
				createdAt: auditLog.createdAt,
				firstName: users.firstName,
				lastName: users.lastName,
				actorEmail: users.email,
				action: auditLog.action,
				entityType: auditLog.entityType,
				entityId: auditLog.entityId,
				before: auditLog.before,
				after: auditLog.after,
			})
			.from(auditLog)
			.leftJoin(users, eq(users.id, auditLog.actorId))
			.orderBy(desc(auditLog.createdAt), desc(auditLog.id))
			.limit(ADMIN_PAGE_SIZE)
			.offset((page - 1) * ADMIN_PAGE_SIZE),
		db.select({ total: sql<number>`count(*)::int` }).from(auditLog),
	])
	return {
		items: rows.map((row) => ({
			id: row.id,
			createdAt: row.createdAt,
			actorName: row.firstName ? `${row.firstName} ${row.lastName}` : null,
			actorEmail: row.actorEmail,
			action: row.action,
			entityType: row.entityType,
			entityId: row.entityId,
			before: show(row.before),
			after: show(row.after),
		})),
		page,
		totalPages: Math.max(1, Math.ceil(Number(count?.total ?? 0) / ADMIN_PAGE_SIZE)),
	}
}
