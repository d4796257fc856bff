import { sql, type SQL } from 'drizzle-orm'
import { valueList } from '~/db/sql'
import { imageSourcesFor } from '~/uploads/access.server'
import { db, queryRows } from '~/db/db.server'
import { type ExtraWorkItem } from './extra-work'
import { statusLists } from './status'

/**
 * The requests for extra work on an offer, oldest first, with their lines and photos (issue 19).
 * The caller has already found the offer as its workshop's or its customer's (ownership is in that
 * query): this one reads by the offer alone.
 */
export async function listExtraWork(offerId: string): Promise<ExtraWorkItem[]> {
	const rows = await queryRows<Omit<ExtraWorkItem, 'images'> & { imageIds: string[] }>(
		db,
		sql`select e.id, e.reason, e.status, e.vat_mode as "vatMode", e.price_cents as "priceCents", e.labour_cents as "labourCents",
		           e.parts_cents as "partsCents", e.fees_cents as "feesCents", e.vat_cents as "vatCents",
		           e.created_at as "createdAt", e.answered_at as "answeredAt",
		           coalesce((select json_agg(json_build_object('kind', l.kind, 'description', l.description, 'reference', l.reference,
		                                                       'quantity', l.quantity_hundredths, 'unitPriceCents', l.unit_price_cents,
		                                                       'totalCents', l.total_cents) order by l.position)
		                     from extra_work_lines l where l.extra_work_id = e.id), '[]'::json) as lines,
		           coalesce((select array_agg(i.upload_id::text order by i.position) from extra_work_images i where i.extra_work_id = e.id), '{}') as "imageIds"
		    from extra_work e
		    where e.offer_id = ${offerId}
		    order by e.created_at, e.id`,
	)
	const sources = await imageSourcesFor(rows.flatMap((row) => row.imageIds))
	return rows.map(({ imageIds, ...row }) => ({
		...row,
		images: imageIds.map((id) => ({ id, source: sources.get(id) ?? null })),
	}))
}

/** How many requests for extra work on the offer `offerId` (an SQL expression) wait for the customer's answer. */
export const waitingExtraWork = (offerId: SQL) =>
	sql`(select count(*)::int from extra_work e where e.offer_id = ${offerId} and e.status in ${valueList(statusLists.openExtraWork)})`
