import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import { contactMessages } from '~/db/schema'
import { db, queryRows } from '~/db/db.server'
import { tallinnMonth } from '~/utils/time'
import { localDayStart, localMonth } from '~/db/sql'
import { ADMIN_PAGE_SIZE } from './admin'
import { audited } from './audit.server'
import { notFound } from '~/utils/errors'

/**
 * The administrator's inbox (contact messages, marked handled) and the figures: visits per day,
 * and users, requests, offers and revenue per month. Months are Estonian calendar months; visit
 * days are UTC dates as they are counted (visits.server.ts). Revenue is what paid payments brought
 * (net of refunds there are none yet); no payments means zero, not an error.
 */

// ---------------------------------------------------------------- inbox

export type InboxMessage = {
	id: string
	name: string
	email: string
	message: string
	language: string
	createdAt: Date
	handledAt: Date | null
}

export async function listContactMessages(query: { page: number; show: 'open' | 'all' }) {
	const where = query.show === 'open' ? isNull(contactMessages.handledAt) : undefined
	const [items, [count]] = await Promise.all([
		db
			.select({
				id: contactMessages.id,
				name: contactMessages.name,
				email: contactMessages.email,
				message: contactMessages.message,
				language: contactMessages.language,
				createdAt: contactMessages.createdAt,
				handledAt: contactMessages.handledAt,
			})
			.from(contactMessages)
			.where(where)
			.orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
			.limit(ADMIN_PAGE_SIZE)
			.offset((query.page - 1) * ADMIN_PAGE_SIZE),
		db.select({ total: sql<number>`count(*)::int` }).from(contactMessages).where(where),
	])
	const total = Number(count?.total ?? 0)
	return { items: items as InboxMessage[], page: query.page, totalPages: Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE)), total }
}

/** Marks a message handled (once; marking again changes nothing and writes no row). */
export async function markMessageHandled(actorId: string, messageId: string) {
	await audited(actorId, { action: 'contact.handled', entityType: 'contact_message', entityId: messageId }, async (tx) => {
		const [current] = await tx
			.select({ handledAt: contactMessages.handledAt })
			.from(contactMessages)
			.where(eq(contactMessages.id, messageId))
			.for('update')
		if (!current) throw notFound()
		const now = new Date()
		await tx
			.update(contactMessages)
			.set({ handledAt: now, handledById: actorId })
			.where(and(eq(contactMessages.id, messageId), isNull(contactMessages.handledAt)))
		return { before: { handledAt: current.handledAt }, after: { handledAt: current.handledAt ?? now }, result: undefined }
	})
}

// ---------------------------------------------------------------- figures

export type MonthFigures = { month: string; users: number; requests: number; offers: number; revenueCents: number }
export type Figures = {
	totals: { customers: number; workshops: number; requests: number; offers: number; revenueCents: number; openMessages: number }
	months: MonthFigures[]
	visits: Array<{ day: string; visitors: number }>
}

const MONTHS = 12
const VISIT_DAYS = 30

/** The last `count` months as YYYY-MM, oldest first, in Estonian time. */
function lastMonths(count: number, now = new Date()): string[] {
	const [year, month] = tallinnMonth(now).split('-').map(Number) as [number, number]
	return Array.from({ length: count }, (_, index) => {
		const date = new Date(Date.UTC(year, month - 1 - (count - 1 - index), 1))
		return date.toISOString().slice(0, 7)
	})
}

/** A figure per Estonian calendar month since the day `since`: by default how many rows were created. */
const perMonth = (table: string, since: string, { column = sql`created_at`, value = sql`count(*)::int`, where = sql`true` } = {}) =>
	queryRows<{ month: string; n: number | string }>(
		db,
		sql`select ${localMonth(column)} as month, ${value} as n
		    from ${sql.identifier(table)} where ${where} and ${column} >= ${localDayStart(since)} group by 1`,
	)

export async function getFigures(now = new Date()): Promise<Figures> {
	const months = lastMonths(MONTHS, now)
	const since = `${months[0]}-01`
	const firstVisitDay = new Date(now.getTime() - (VISIT_DAYS - 1) * 86_400_000).toISOString().slice(0, 10)
	const [totals, users, requests, offers, revenue, visitRows] = await Promise.all([
		queryRows<{ customers: number; workshops: number; requests: number; offers: number; revenue: number | string; open_messages: number }>(
			db,
			sql`select (select count(*)::int from users where role = 'customer') as customers,
			           (select count(*)::int from users where role = 'workshop') as workshops,
			           (select count(*)::int from service_requests) as requests,
			           (select count(*)::int from offers) as offers,
			           (select coalesce(sum(amount_cents), 0)::bigint from payments where status = 'paid') as revenue,
			           (select count(*)::int from contact_messages where handled_at is null) as open_messages`,
		),
		perMonth('users', since),
		perMonth('service_requests', since),
		perMonth('offers', since),
		// What paid payments brought, in the month they were paid.
		perMonth('payments', since, { column: sql`coalesce(paid_at, created_at)`, value: sql`coalesce(sum(amount_cents), 0)::bigint`, where: sql`status = 'paid'` }),
		queryRows<{ day: string; visitors: number }>(
			db,
			sql`select day::text as day, count(*)::int as visitors from visits where day >= ${firstVisitDay}::date group by day order by day`,
		),
	])
	const lookup = (rows: Array<{ month: string; n: number | string }>) => new Map(rows.map((row) => [row.month, Number(row.n)]))
	const [u, r, o, money] = [lookup(users), lookup(requests), lookup(offers), lookup(revenue)]
	const t = totals[0]
	const visitsByDay = new Map(
		visitRows.map((row) => [String(row.day).slice(0, 10), Number(row.visitors)]),
	)
	return {
		totals: {
			customers: Number(t?.customers ?? 0),
			workshops: Number(t?.workshops ?? 0),
			requests: Number(t?.requests ?? 0),
			offers: Number(t?.offers ?? 0),
			revenueCents: Number(t?.revenue ?? 0),
			openMessages: Number(t?.open_messages ?? 0),
		},
		months: months
			.map((month) => ({ month, users: u.get(month) ?? 0, requests: r.get(month) ?? 0, offers: o.get(month) ?? 0, revenueCents: money.get(month) ?? 0 }))
			.reverse(),
		visits: Array.from({ length: VISIT_DAYS }, (_, index) => {
			const day = new Date(now.getTime() - index * 86_400_000).toISOString().slice(0, 10)
			return { day, visitors: visitsByDay.get(day) ?? 0 }
		}),
	}
}
