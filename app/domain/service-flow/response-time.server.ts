import { sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '~/db/db.server'

/**
 * A workshop's response time as the public sees it (issue 15): the median time from a request it
 * could answer to its offer, over the last 90 days, stored with the workshop (response_minutes)
 * so that the directory, the public page and the offer cards read it for free. Below five offers
 * there is nothing to say yet (null). Refreshed when the workshop makes an offer, and for every
 * workshop by a background job as old offers leave the 90 days.
 */
export const RESPONSE_WINDOW_DAYS = 90
export const RESPONSE_MIN_OFFERS = 5

export function responseTimeRefresh(workshopIds?: string[]): SQL {
	const which = workshopIds ? sql`where w.id in (${sql.join(workshopIds.map((id) => sql`${id}::uuid`), sql`, `)})` : sql``
	return sql`
		update workshops set response_minutes = t.minutes
		from (select w.id,
		             case when count(o.id) >= ${RESPONSE_MIN_OFFERS}
		                  then round(percentile_cont(0.5) within group (order by extract(epoch from o.created_at - r.created_at)) / 60)::int
		             end as minutes
		      from workshops w
		      -- A reopened request's offers answer the reopening, not the request's first day: left out.
		      left join (offers o join service_requests r on r.id = o.request_id and r.reopen_count = 0)
		             on o.workshop_id = w.id and o.created_at > now() - make_interval(days => ${RESPONSE_WINDOW_DAYS})
		      ${which}
		      group by w.id) t
		where workshops.id = t.id and workshops.response_minutes is distinct from t.minutes`
}

/** Keeps the stored response time of the workshops (all of them when none are named) true to their offers. */
export async function refreshResponseTimes(tx: DbOrTx, workshopIds?: string[]) {
	if (workshopIds && !workshopIds.length) return
	await tx.execute(responseTimeRefresh(workshopIds))
}
