import { and, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm'
import { users, workshops } from '~/db/schema'
import { endSessions } from '~/utils/auth.server'
import { db, isUniqueViolation } from '~/db/db.server'
import { forgetUsers } from '~/caching/user-cache.server'
import { ADMIN_PAGE_SIZE, type UserSearch } from './admin'
import { audited } from './audit.server'
import { DomainError, notFound } from '~/utils/errors'
import { forgetWorkshopCounts } from '~/domain/directory/workshops.server'

/**
 * Accounts in the administration area: search, block and unblock, the e-mail address (only an
 * administrator may change it, spec §5) and the workshop fields only customer service may change.
 * Every change is audited in its own transaction (admin-audit.server.ts).
 */

export type AdminUserRow = {
	id: string
	email: string
	role: 'customer' | 'workshop' | 'admin'
	name: string
	workshopName: string | null
	blocked: boolean
	/** Deleted (issue 21): no name left; the list says so. */
	deleted: boolean
	createdAt: Date
}

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

export async function searchUsers(query: UserSearch): Promise<{ items: AdminUserRow[]; page: number; totalPages: number; total: number }> {
	const conditions: SQL[] = []
	if (query.role) conditions.push(eq(users.role, query.role))
	if (query.q) {
		const pattern = like(query.q)
		conditions.push(
			or(
				sql`(${users.firstName} || ' ' || ${users.lastName}) ilike ${pattern}`,
				ilike(users.email, pattern),
				ilike(workshops.workshopName, pattern),
			)!,
		)
	}
	const where = conditions.length ? and(...conditions) : undefined
	const [rows, [count]] = await Promise.all([
		db
			.select({
				id: users.id,
				email: users.email,
				role: users.role,
				firstName: users.firstName,
				lastName: users.lastName,
				workshopName: workshops.workshopName,
				blocked: users.blocked,
				deletedAt: users.deletedAt,
				createdAt: users.createdAt,
			})
			.from(users)
			.leftJoin(workshops, eq(workshops.userId, users.id))
			.where(where)
			.orderBy(desc(users.createdAt), desc(users.id))
			.limit(ADMIN_PAGE_SIZE)
			.offset((query.page - 1) * ADMIN_PAGE_SIZE),
		db
			.select({ total: sql<number>`count(*)::int` })
			.from(users)
			.leftJoin(workshops, eq(workshops.userId, users.id))
			.where(where),
	])
	const total = Number(count?.total ?? 0)
	return {
		items: rows.map((row) => ({
			id: row.id,
			email: row.email,
			role: row.role,
			name: `${row.firstName} ${row.lastName}`,
			workshopName: row.workshopName,
			blocked: row.blocked,
			deleted: row.deletedAt !== null,
			createdAt: row.createdAt,
		})),
		page: query.page,
		totalPages: Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE)),
		total,
	}
}

export type AdminUserDetails = AdminUserRow & {
	mobile: string
	blockedAt: Date | null
	/** Deleted (issue 21): nothing left to change. */
	deletedAt: Date | null
	workshop: { id: string; companyName: string; companyId: string; workshopName: string } | null
}

export async function getUserForAdmin(userId: string): Promise<AdminUserDetails | null> {
	const [row] = await db
		.select({ user: users, workshop: workshops })
		.from(users)
		.leftJoin(workshops, eq(workshops.userId, users.id))
		.where(eq(users.id, userId))
	if (!row) return null
	const { user, workshop } = row
	return {
		id: user.id,
		email: user.email,
		role: user.role,
		name: `${user.firstName} ${user.lastName}`,
		workshopName: workshop?.workshopName ?? null,
		blocked: user.blocked,
		blockedAt: user.blockedAt,
		deleted: user.deletedAt !== null,
		deletedAt: user.deletedAt,
		createdAt: user.createdAt,
		mobile: user.mobile,
		workshop: workshop
			? { id: workshop.id, companyName: workshop.companyName, companyId: workshop.companyId, workshopName: workshop.workshopName }
			: null,
	}
}

/**
 * Blocks or unblocks an account. Blocking ends every browser session and API token of the account
 * in the same transaction, so the next request of that user is signed out; the login then says
 * the account is blocked. An administrator cannot block their own account.
 */
export async function setBlocked(actorId: string, userId: string, blocked: boolean) {
	if (blocked && actorId === userId) throw new DomainError('admin:users.cannotBlockSelf', 409)
	await audited(actorId, { action: blocked ? 'user.block' : 'user.unblock', entityType: 'user', entityId: userId }, async (tx) => {
		const [current] = await tx.select({ blocked: users.blocked }).from(users).where(eq(users.id, userId)).for('update')
		if (!current) throw notFound()
		await tx
			.update(users)
			.set({ blocked, blockedAt: blocked ? new Date() : null })
			.where(eq(users.id, userId))
		if (blocked) await endSessions(tx, userId)
		// A blocked workshop leaves the directory: its remembered counts are stale.
		await forgetWorkshopCounts(tx)
		return { before: { blocked: current.blocked }, after: { blocked }, result: undefined }
	})
}

/** Changes a user's e-mail address; it must stay unique (case-insensitively). */
export async function changeEmail(actorId: string, userId: string, email: string) {
	try {
		await audited(actorId, { action: 'user.email', entityType: 'user', entityId: userId }, async (tx) => {
			const [current] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId)).for('update')
			if (!current) throw notFound()
			// The unique index on lower(email) decides, so two changes at once cannot both win.
			await tx.update(users).set({ email }).where(eq(users.id, userId))
			await forgetUsers(tx, 'user', [userId])
			return { before: { email: current.email }, after: { email }, result: undefined }
		})
	} catch (error) {
		if (isUniqueViolation(error, 'users_email_key')) throw new DomainError('auth:register.emailTaken', 409)
		throw error
	}
}

/** The workshop fields only customer service may change: company name and company ID. */
export async function updateCompanyFields(actorId: string, userId: string, input: { companyName: string; companyId: string }) {
	await audited(actorId, { action: 'workshop.company', entityType: 'workshop', entityId: userId }, async (tx) => {
		const [current] = await tx
			.select({ id: workshops.id, companyName: workshops.companyName, companyId: workshops.companyId })
			.from(workshops)
			.where(eq(workshops.userId, userId))
			.for('update')
		if (!current) throw notFound()
		await tx.update(workshops).set(input).where(eq(workshops.id, current.id))
		return {
			before: { companyName: current.companyName, companyId: current.companyId },
			after: { ...input },
			result: undefined,
		}
	})
}
