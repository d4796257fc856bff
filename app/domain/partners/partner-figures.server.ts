import { and, eq, gte, inArray, lte, sql } from 'drizzle-orm'
import { db } from '~/db/db.server'
import { dailyCounts } from '~/db/schema'
import { tallinnDay } from '~/utils/time'
import { PARTNER_FIGURE_DAYS, partnerFigureKinds, type PartnerFigureKind, shiftDay } from './partners'

/** One day's figures of a partner: each kind's count (0 where nothing happened). */
export type PartnerDay = { day: string } & Record<PartnerFigureKind, number>
export type PartnerFigures = { days: PartnerDay[]; totals: Record<PartnerFigureKind, number> }

/**
 * What a partner's key brought, day by day for the last PARTNER_FIGURE_DAYS Tallinn days, newest
 * first, every day listed (one read of `daily_counts_partner_idx`): widgets shown, searches, the
 * workshops those searches showed, workshop pages opened in its widgets, contact messages, and
 * requests created through its request widget (counted when their link is opened).
 */
export async function partnerFigures(partnerId: string, today = tallinnDay()): Promise<PartnerFigures> {
	const first = shiftDay(today, 1 - PARTNER_FIGURE_DAYS)
	const rows = await db
		.select({ day: dailyCounts.day, kind: dailyCounts.kind, count: sql<number>`sum(${dailyCounts.count})::int` })
		.from(dailyCounts)
		.where(and(eq(dailyCounts.partnerId, partnerId), gte(dailyCounts.day, first), lte(dailyCounts.day, today), inArray(dailyCounts.kind, [...partnerFigureKinds])))
		.groupBy(dailyCounts.day, dailyCounts.kind)
	const empty = () => Object.fromEntries(partnerFigureKinds.map((kind) => [kind, 0])) as Record<PartnerFigureKind, number>
	const byDay = new Map<string, PartnerDay>()
	for (let offset = 0; offset < PARTNER_FIGURE_DAYS; offset++) {
		const day = shiftDay(today, -offset)
		byDay.set(day, { day, ...empty() })
	}
	const totals = empty()
	for (const row of rows) {
		const entry = byDay.get(row.day)
		const kind = row.kind as PartnerFigureKind
		if (!entry) continue
		entry[kind] += Number(row.count)
		totals[kind] += Number(row.count)
	}
	return { days: [...byDay.values()], totals }
}
