import { sql, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '~/db/db.server'

/**
 * A workshop's rating as stored with it (rating_average, review_count: the directory sorts and
 * filters on them) is recomputed from its reviews here only: when a review is written
 * (review-moves.server.ts) or hidden (review-moderation.server.ts), for the demo data and for the
 * benchmark's generated data.
 */

/** The statement: the given workshops, or every workshop; one without reviews has 0 and 0. */
export function ratingRefresh(workshopIds?: string[]): SQL {
	const which = workshopIds ? sql`where w.id in (${sql.join(workshopIds.map((id) => sql`${id}::uuid`), sql`, `)})` : sql``
	return sql`
		update workshops set rating_average = coalesce(r.average, 0), review_count = r.total
		from (select w.id, avg(rv.rating)::float8 as average, count(rv.id)::int as total
		      -- A review hidden by the administrators (issue 19) does not count.
		      from workshops w left join reviews rv on rv.workshop_id = w.id and rv.hidden_at is null
		      ${which}
		      group by w.id) r
		where workshops.id = r.id`
}

/** Keeps the stored average and count of the workshops (all of them when none are named) equal to their reviews. */
export async function refreshWorkshopRatings(tx: DbOrTx, workshopIds?: string[]) {
	if (workshopIds && !workshopIds.length) return
	await tx.execute(ratingRefresh(workshopIds))
}
