import { and, eq, isNull, sql, type SQL } from 'drizzle-orm'
import { offers, serviceRequests } from '~/db/schema'
import { localizedName, requestMatchesWorkshop, valueList, workshopOwnerNotBlocked } from '~/db/sql'
import { type DbOrTx, db, queryRows, transaction } from '~/db/db.server'
import { type Language } from '~/i18n/config'
import { DomainError } from '~/utils/errors'
import { logger } from '~/utils/logger.server'
import { tallinnDay } from '~/utils/time'
import { freeTimes } from '~/domain/booking/calendar.server'
import { validityEnd } from '~/domain/booking/offer-times'
import { makeOffer } from '~/domain/service-flow/offer-moves.server'
import { statusLists } from '~/domain/service-flow/status'
import { type VehicleClass } from '~/domain/service-flow/vehicle-kinds'
import { type WorkshopActor } from '~/utils/auth.server'
import { engineBandOf } from './price-kinds'
import { combineItems, draftBookingMinutes, draftTerms, type ItemForOffer, type OfferDraft } from './price-list-offers'
import { validOn } from './price-lists.server'

/**
 * Offers made from price lists (issue 35, docs/decisions/0147). A request fits a workshop's items
 * when each of its services has one of the workshop's items valid today for the request vehicle's
 * class, and for its engine band or any engine. Then
 *   - the workshop's bid form is filled from them (`offerDraft`, a drafted offer), and
 *   - where each of those items sends instant offers, an offer is made from them the moment the
 *     request is made (`sendInstantOffers`, after the request's commit) through `makeOffer`, with
 *     its rules: the request must reach the workshop, one offer per workshop, the monthly allowance.
 *     The job `instant-offers` (`sendDueInstantOffers`) catches up the requests a crash or a busy
 *     moment left unchecked (`service_requests.instant_checked_at`).
 */

/** The job's name in the job list (app/jobs/schedule.server.ts). */
export const INSTANT_OFFERS_JOB = 'instant-offers'
/** The job catches up requests made this recently; older ones were the job's to do long ago. */
export const INSTANT_CATCH_UP_HOURS = 24
/** How many free starts an instant offer proposes. */
const INSTANT_STARTS = 3

/** What the items of a request must fit: its services, its vehicle's class and engine band. */
type RequestFit = { serviceIds: string[]; vehicleClass: VehicleClass; engineCc: number | null }

type FitRow = ItemForOffer & { serviceId: string; workshopId: string; userId: string; workshopName: string }

/** The request's services (in the catalogue's order) and its vehicle's class and engine. */
async function requestFit(database: DbOrTx, requestId: string, where: SQL = sql`true`) {
	const [row] = await queryRows<RequestFit & { status: string; checkedAt: string | null }>(
		database,
		sql`select r.status, r.instant_checked_at as "checkedAt", v.vehicle_class as "vehicleClass", v.engine_cc as "engineCc",
		           coalesce((select array_agg(rs.service_id order by s.sort_order, s.name_en) from service_request_services rs join services s on s.id = rs.service_id
		                     where rs.request_id = r.id), '{}') as "serviceIds"
		    from service_requests r join vehicles v on v.id = r.vehicle_id
		    where r.id = ${requestId} and ${where}`,
	)
	return row ?? null
}

/**
 * The items valid on `day` that fit the request, of the workshops `where` picks (alias i for the
 * item, w for its workshop, r for the request), in the order of the request's services.
 */
async function fittingItems(database: DbOrTx, requestId: string, fit: RequestFit, day: string, language: Language, where: SQL): Promise<FitRow[]> {
	if (!fit.serviceIds.length) return []
	const band = engineBandOf(fit.engineCc)
	return queryRows<FitRow>(
		database,
		sql`select i.id, i.service_id as "serviceId", ${localizedName('s', language)} as service, i.vehicle_class as "vehicleClass",
		           i.engine_band as "engineBand", i.vat_mode as "vatMode",
		           i.duration_minutes as "durationMinutes", i.included, i.valid_until::text as "validUntil",
		           w.id as "workshopId", w.user_id as "userId", w.workshop_name as "workshopName",
		           coalesce((select json_agg(json_build_object('kind', l.kind, 'description', l.description, 'reference', l.reference,
		                                                       'quantity', l.quantity_hundredths, 'unitPriceCents', l.unit_price_cents,
		                                                       'totalCents', l.total_cents, 'quality', l.quality, 'used', l.used)
		                                     order by l.position)
		                     from price_list_lines l where l.item_id = i.id), '[]'::json) as lines
		    from service_requests r
		    join price_list_items i on i.service_id in (${sql.join(
					fit.serviceIds.map((id) => sql`${id}::uuid`),
					sql`, `,
				)})
		    join workshops w on w.id = i.workshop_id
		    join services s on s.id = i.service_id
		    where r.id = ${requestId} and i.vehicle_class = ${fit.vehicleClass}
		      and (i.engine_band = 'any' or i.engine_band = ${band ?? 'any'})
		      and ${validOn(day)} and ${where}
		    order by w.id, s.sort_order, s.name_en`,
	)
}

/** The items grouped by workshop, each workshop's kept only when they cover every service of the request. */
function coveringEveryService(rows: FitRow[], serviceIds: string[]) {
	const byWorkshop = new Map<string, FitRow[]>()
	for (const row of rows) byWorkshop.set(row.workshopId, [...(byWorkshop.get(row.workshopId) ?? []), row])
	return [...byWorkshop.values()]
		.filter((items) => serviceIds.every((id) => items.some((item) => item.serviceId === id)))
		.map((items) => serviceIds.map((id) => items.find((item) => item.serviceId === id)!))
}

/**
 * The offer the workshop's price list drafts for a request it sees: its items for the request's
 * services, vehicle class and engine together, or null (a service without an item, VAT modes that
 * differ). The bid page fills its form with it.
 */
export async function offerDraft(workshopId: string, requestId: string, language: Language, day = tallinnDay()): Promise<OfferDraft | null> {
	const fit = await requestFit(db, requestId)
	if (!fit) return null
	const rows = await fittingItems(db, requestId, fit, day, language, sql`i.workshop_id = ${workshopId}`)
	const [items] = coveringEveryService(rows, fit.serviceIds)
	return items ? combineItems(items, day) : null
}

/**
 * The instant offers for a new request: each workshop the request reaches whose instant items
 * cover its services gets an offer made from them through `makeOffer`, marked instant and naming
 * its (first) item, with the calendar's next free starts for its time. A workshop the allowance or
 * anything else refuses sends none; the customer is told of each offer as of any. The request is
 * then stamped checked. Answers how many offers were made.
 */
export async function sendInstantOffers(requestId: string, now = new Date()): Promise<number> {
	const fit = await requestFit(db, requestId)
	if (!fit || fit.checkedAt) return 0
	const day = tallinnDay(now)
	let made = 0
	if ((statusLists.openRequests as readonly string[]).includes(fit.status)) {
		const rows = await fittingItems(
			db,
			requestId,
			fit,
			day,
			'et',
			sql`i.sends_instant and ${workshopOwnerNotBlocked} and ${requestMatchesWorkshop('r', 'w')}
			    and not exists (select 1 from offers o where o.request_id = r.id and o.workshop_id = w.id)`,
		)
		for (const items of coveringEveryService(rows, fit.serviceIds)) {
			const first = items[0]!
			if (await sendInstantOffer({ workshopId: first.workshopId, userId: first.userId, workshopName: first.workshopName }, requestId, items, day, now)) made += 1
		}
	}
	await db
		.update(serviceRequests)
		.set({ instantCheckedAt: now })
		.where(and(eq(serviceRequests.id, requestId), isNull(serviceRequests.instantCheckedAt)))
	return made
}

/** One workshop's instant offer; false when it was refused (the allowance, a closed request, one made meanwhile). */
async function sendInstantOffer(workshop: WorkshopActor, requestId: string, items: ItemForOffer[], day: string, now: Date): Promise<boolean> {
	const draft = combineItems(items, day)
	if (!draft) return false
	const minutes = draftBookingMinutes(draft)
	const starts =
		minutes === null
			? []
			: await freeTimes(workshop.workshopId, { durationMinutes: minutes, now, limit: INSTANT_STARTS, until: validityEnd(draft.validUntil) })
	try {
		await transaction(async (tx) => {
			const offerId = await makeOffer(workshop, requestId, draftTerms(draft, starts.map((start) => start.startsAt)), null, tx)
			await tx.update(offers).set({ instant: true }).where(eq(offers.id, offerId))
		})
		return true
	} catch (error) {
		// The same answers the bid form would get: the workshop simply sends none this time.
		if (!(error instanceof DomainError)) throw error
		logger.info('no instant offer', { workshopId: workshop.workshopId, requestId, reason: error.key })
		return false
	}
}

/**
 * The job: the open requests of the last day not yet checked for instant offers (the check after a
 * request's commit failed, or the process stopped before it ran), oldest first. Answers how many
 * offers were made.
 */
export async function sendDueInstantOffers(now = new Date(), limit = 100): Promise<number> {
	const due = await queryRows<{ id: string }>(
		db,
		sql`select r.id from service_requests r
		    where r.status in ${valueList(statusLists.openRequests)} and r.instant_checked_at is null
		      and r.created_at >= ${now}::timestamptz - make_interval(hours => ${INSTANT_CATCH_UP_HOURS})
		    order by r.created_at
		    limit ${limit}`,
	)
	let made = 0
	for (const { id } of due) made += await sendInstantOffers(id, now)
	return made
}

/** A request's instant offers still waiting for its customer, cheapest first (the request's page names them); another customer's request has none. */
export async function instantOffersFor(customerId: string, requestId: string): Promise<Array<{ id: string; workshopName: string; priceCents: number }>> {
	return queryRows(
		db,
		sql`select o.id, w.workshop_name as "workshopName", o.price_cents as "priceCents"
		    from offers o join service_requests r on r.id = o.request_id join workshops w on w.id = o.workshop_id
		    where o.request_id = ${requestId} and r.customer_id = ${customerId} and o.instant and o.status in ${valueList(statusLists.undecidedOffers)}
		    order by o.price_cents, w.workshop_name`,
	)
}
