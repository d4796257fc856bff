import { sql, type SQL } from 'drizzle-orm'
import { customerName, serviceNames, valueList } from '~/db/sql'
import { type Language } from '~/i18n/config'
import { db, queryRows } from '~/db/db.server'
import { encodeId } from '~/utils/public-id'
import { type BillDisputeItem } from './final-bill'
import { offerMoves } from './status'

/** How many disputes the administrators' page lists at most, open and settled each. */
const DISPUTES_SHOWN = 50

/** Disputes with what both sides said and how they were settled; `where` picks them (alias d). */
async function disputes(where: SQL, order: SQL, language: Language): Promise<BillDisputeItem[]> {
	const rows = await queryRows<Omit<BillDisputeItem, 'requestSlug' | 'services'> & { requestId: string; services: string[] }>(
		db,
		sql`select d.id, r.id as "requestId", ${serviceNames(language)} as services,
		           ${customerName(language, 'cu')} as "customerName", w.workshop_name as "workshopName",
		           d.binding_cents as "bindingCents", d.billed_cents as "billedCents", coalesce(o.bill_reason, '') as "billReason",
		           d.reason, d.created_at as "createdAt", d.decision, d.note,
		           case when d.decision is null then null else o.final_price_cents end as "settledCents",
		           d.resolved_at as "resolvedAt", au.first_name || ' ' || au.last_name as "resolvedBy"
		    from bill_disputes d
		    join offers o on o.id = d.offer_id
		    join service_requests r on r.id = o.request_id
		    join users cu on cu.id = r.customer_id
		    join workshops w on w.id = o.workshop_id
		    left join users au on au.id = d.resolved_by
		    where ${where}
		    order by ${order}
		    limit ${DISPUTES_SHOWN}`,
	)
	return rows.map(({ requestId, services, ...row }) => ({ ...row, requestSlug: encodeId(requestId), services: services.join(', ') }))
}

/**
 * The dispute of an offer's final bill, if its customer disputed it (issue 19). The caller has
 * already found the offer as its workshop's or its customer's: this one reads by the offer alone.
 */
export async function billDisputeOf(offerId: string, language: Language): Promise<BillDisputeItem | null> {
	const [row] = await disputes(sql`d.offer_id = ${offerId}`, sql`d.created_at`, language)
	return row ?? null
}

/** The administrators' queue: open disputes, oldest first (bill_disputes_open_idx), and the latest settled ones. */
export async function listBillDisputes(language: Language) {
	const [open, settled] = await Promise.all([
		disputes(sql`d.resolved_at is null`, sql`d.created_at, d.id`, language),
		disputes(sql`d.resolved_at is not null`, sql`d.resolved_at desc, d.id`, language),
	])
	return { open, settled }
}

/** Whether the offer `offerId` (an SQL expression) has a final bill waiting for its customer's answer. */
export const billWaiting = (offerId: SQL) => sql`exists (select 1 from offers b where b.id = ${offerId} and b.status in ${valueList(offerMoves.confirmBill.from)})`
