import { sql } from 'drizzle-orm'
import { valueCache } from '~/caching/value-cache.server'
import { type CountKind } from '~/counting/kinds'
import { db, queryRows } from '~/db/db.server'
import { bindingTotal, countRequestsMatchingWorkshop, localDayStart, localMonth, valueList } from '~/db/sql'
import { offerMoves, statusLists } from '~/domain/service-flow/status'
import { type PartnerFigures, type RatingMonth } from './insights'

/**
 * The growth page's figures, each one query on an index that starts with the workshop (decision
 * 0155). A period is Tallinn days: `firstDay` from its first moment (`localDayStart`), up to now.
 */

/** The kinds of `daily_counts` the page reads (app/counting/kinds.ts). */
const kinds = {
	portalViews: 'profile-view',
	widgetViews: 'widget-profile-view',
	appearances: 'search-appearance',
	widgetRequests: 'widget-request',
} as const satisfies Record<string, CountKind>

export type CountFigures = { portalViews: number; widgetViews: number; searchAppearances: number; partners: PartnerFigures[] }

/** Profile views, appearances in searches and what each partner site brought: daily_counts_workshop_idx. */
export async function countFigures(workshopId: string, firstDay: string, lastDay: string): Promise<CountFigures> {
	const rows = await queryRows<{ kind: string; partnerId: string | null; name: string | null; count: number }>(
		db,
		sql`select dc.kind, dc.partner_id as "partnerId", p.name, sum(dc.count)::int as count
		    from daily_counts dc left join partners p on p.id = dc.partner_id
		    where dc.workshop_id = ${workshopId} and dc.day >= ${firstDay}::date and dc.day <= ${lastDay}::date
		      and dc.kind in (${kinds.portalViews}, ${kinds.widgetViews}, ${kinds.appearances}, ${kinds.widgetRequests})
		    group by dc.kind, dc.partner_id, p.name`,
	)
	const sum = (kind: string) => rows.reduce((total, row) => total + (row.kind === kind ? row.count : 0), 0)
	const partners = new Map<string, PartnerFigures>()
	for (const row of rows) {
		if (!row.partnerId) continue
		const partner = partners.get(row.partnerId) ?? { partnerId: row.partnerId, name: row.name ?? '', profileViews: 0, searchAppearances: 0, requests: 0 }
		if (row.kind === kinds.portalViews || row.kind === kinds.widgetViews) partner.profileViews += row.count
		else if (row.kind === kinds.appearances) partner.searchAppearances += row.count
		else partner.requests += row.count
		partners.set(row.partnerId, partner)
	}
	const weight = (p: PartnerFigures) => p.profileViews + p.searchAppearances + p.requests
	return {
		portalViews: sum(kinds.portalViews),
		widgetViews: sum(kinds.widgetViews),
		searchAppearances: sum(kinds.appearances),
		partners: [...partners.values()].sort((a, b) => weight(b) - weight(a) || a.name.localeCompare(b.name)),
	}
}

export type OfferFigures = { made: number; won: number; waiting: number; responseMinutes: number | null }

/**
 * The offers the workshop made in the period (offers_workshop_month_idx), how many the customer
 * chose (`selected_at`: chosen, whatever became of the job), how many still wait for a choice, and
 * the mean time from the request to the offer. A reopened request's offers answer the reopening,
 * not the request's first day: left out of the time, as the public response time does.
 */
export async function offerFigures(workshopId: string, firstDay: string): Promise<OfferFigures> {
	const [row] = await queryRows<OfferFigures>(
		db,
		sql`select count(*)::int as made,
		           count(*) filter (where o.selected_at is not null)::int as won,
		           count(*) filter (where o.status in ${valueList(statusLists.undecidedOffers)})::int as waiting,
		           (avg(extract(epoch from o.created_at - r.created_at)) filter (where r.reopen_count = 0) / 60)::float8 as "responseMinutes"
		    from offers o join service_requests r on r.id = o.request_id
		    where o.workshop_id = ${workshopId} and o.created_at >= ${localDayStart(firstDay)}`,
	)
	return row ?? { made: 0, won: 0, waiting: 0, responseMinutes: null }
}

/** Jobs completed in the period and what the customers agreed to pay for them, VAT included (offers_workshop_completed_idx). */
export async function jobFigures(workshopId: string, firstDay: string): Promise<{ jobs: number; revenueCents: number }> {
	const [row] = await queryRows<{ jobs: number; revenueCents: number }>(
		db,
		sql`select count(*)::int as jobs, coalesce(sum(${bindingTotal('o')}), 0)::float8 as "revenueCents"
		    from offers o
		    where o.workshop_id = ${workshopId} and o.status = ${offerMoves.completeJob.to} and o.completed_at >= ${localDayStart(firstDay)}`,
	)
	return row ?? { jobs: 0, revenueCents: 0 }
}

/** The period's reviews by Tallinn month (reviews_workshop_idx); hidden ones do not count, as in the rating. */
export async function ratingFigures(workshopId: string, firstDay: string): Promise<RatingMonth[]> {
	return queryRows<RatingMonth>(
		db,
		sql`select ${localMonth(sql`rv.created_at`)} as month, count(*)::int as reviews, avg(rv.rating)::float8 as average
		    from reviews rv
		    where rv.workshop_id = ${workshopId} and rv.hidden_at is null and rv.created_at >= ${localDayStart(firstDay)}
		    group by 1 order by 1`,
	)
}

/**
 * Requests created in the period that reach the workshop by the matching rule. The one figure that
 * reads many rows (every request of the period), so it is kept ten minutes per workshop, period and
 * day in each process: the page is opened again and again, the figure changes slowly.
 */
export async function requestsMatched(workshopId: string, firstDay: string): Promise<number> {
	const [row] = await queryRows<{ n: number }>(db, countRequestsMatchingWorkshop(workshopId, sql`r.created_at >= ${localDayStart(firstDay)}`))
	return row?.n ?? 0
}

const MATCHED_TTL_MS = 10 * 60_000
const matched = valueCache<{ n: number }>('insights', { ttlMs: MATCHED_TTL_MS, max: 5_000, maxBytes: 1024 * 1024 })

export async function keptRequestsMatched(workshopId: string, firstDay: string, today: string): Promise<number> {
	return (await matched.get(`${workshopId} ${firstDay} ${today}`, async () => ({ n: await requestsMatched(workshopId, firstDay) }))).n
}
