import { sql } from 'drizzle-orm'
import { type Language } from '~/i18n/config'
import { db, queryRows } from '~/db/db.server'
import { localizedName } from '~/db/sql'

/**
 * What a workshop's subscription cost over some days (the growth page, issue 37, decision 0155):
 * each paid invoice counts for the part of its period that falls within them, so that 30 days
 * cost about one month whichever day the month was paid on. With VAT, as it was paid.
 */

export type PaidPeriod = { totalCents: number; periodStart: Date; periodEnd: Date }

/** The part of a paid period's amount that falls between `from` and `to`, in cents (not rounded). */
export function shareOf(paid: PaidPeriod, from: Date, to: Date): number {
	const length = paid.periodEnd.getTime() - paid.periodStart.getTime()
	if (length <= 0) return paid.periodStart >= from && paid.periodStart < to ? paid.totalCents : 0
	const overlap = Math.min(paid.periodEnd.getTime(), to.getTime()) - Math.max(paid.periodStart.getTime(), from.getTime())
	return overlap > 0 ? (paid.totalCents * overlap) / length : 0
}

export type SubscriptionCost = { costCents: number; packages: string[]; current: { name: string; free: boolean } | null }

/**
 * The invoices whose periods meet [from, to), their share of it and their packages' names, and the
 * package the workshop is on now. Two indexed reads (invoices_workshop_idx, the one active subscription).
 */
export async function subscriptionCost(workshopId: string, from: Date, to: Date, language: Language): Promise<SubscriptionCost> {
	const [paid, [current]] = await Promise.all([
		queryRows<PaidPeriod & { name: string }>(
			db,
			sql`select i.total_cents as "totalCents", i.period_start as "periodStart", i.period_end as "periodEnd",
			           coalesce(${localizedName('k', language)}, i.package_name) as name
			    from invoices i
			    join payments p on p.id = i.payment_id
			    left join packages k on k.id = p.package_id
			    where i.workshop_id = ${workshopId} and i.period_end > ${from} and i.period_start < ${to}
			    order by i.period_start`,
		),
		queryRows<{ name: string; free: boolean }>(
			db,
			sql`select ${localizedName('k', language)} as name, k.price_cents = 0 as free
			    from subscriptions s join packages k on k.id = s.package_id
			    where s.workshop_id = ${workshopId} and s.status = 'active'
			    limit 1`,
		),
	])
	const periods = paid.map((row) => ({ ...row, periodStart: new Date(row.periodStart), periodEnd: new Date(row.periodEnd) }))
	const costCents = Math.round(periods.reduce((sum, row) => sum + shareOf(row, from, to), 0))
	return {
		costCents,
		packages: [...new Set(periods.filter((row) => shareOf(row, from, to) > 0).map((row) => row.name))],
		current: current ?? null,
	}
}
