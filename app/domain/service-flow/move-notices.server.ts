import { eq, inArray, sql } from 'drizzle-orm'
import { requestEvents, type serviceRequests, users, workshops } from '~/db/schema'
import { vehicleLabel } from '~/db/sql'
import { queryRows } from '~/db/db.server'
import { NotificationType, notify } from '~/domain/messaging/notifications.server'
import { type Tx } from './move-locks.server'

/**
 * What the moves leave for people to see, in the move's transaction: the request's timeline (one
 * event a change of status) and the workshops' notifications.
 */

/** One event on the request's timeline: its new status and who moved it there (null: the clock). */
export async function addEvent(tx: Tx, requestId: string, status: (typeof serviceRequests.$inferSelect)['status'], actorId: string | null) {
	await tx.insert(requestEvents).values({ requestId, status, actorId })
}

/** Each changed offer's workshop is told, with the same message (an offer-change notification). */
export async function notifyWorkshops(
	tx: Tx,
	changed: Array<{ id: string; workshopId: string }>,
	messageKey: string,
	messageParams: Record<string, string | number>,
) {
	if (!changed.length) return
	const owners = await tx
		.select({ id: workshops.id, userId: workshops.userId })
		.from(workshops)
		.where(inArray(workshops.id, changed.map((offer) => offer.workshopId)))
	await notify(
		tx,
		changed.map((offer) => ({
			userId: owners.find((owner) => owner.id === offer.workshopId)!.userId,
			type: NotificationType.offerChanged,
			messageKey,
			messageParams,
			receivedId: offer.id,
		})),
	)
}

/** A customer's name as the workshop's notifications show it. */
export async function customerName(tx: Tx, customerId: string) {
	const [customer] = await tx.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, customerId))
	return `${customer!.firstName} ${customer!.lastName}`
}

/**
 * What every notice about a request names, so its reader knows which car and which job it is
 * about (issue 32): the car with its plate, and the request's services in each language
 * (`services_et`, …; the reader's is picked when the notice is read, notification-text.server.ts).
 */
export async function requestNoticeParams(tx: Tx, requestId: string): Promise<Record<string, string>> {
	const [row] = await queryRows<Record<string, string>>(
		tx,
		sql`select ${vehicleLabel('registration')} as car,
		           coalesce(string_agg(s.name_et, ', ' order by s.sort_order, s.name_et), '') as services_et,
		           coalesce(string_agg(s.name_en, ', ' order by s.sort_order, s.name_en), '') as services_en,
		           coalesce(string_agg(s.name_ru, ', ' order by s.sort_order, s.name_ru), '') as services_ru
		    from service_requests r
		    join vehicles v on v.id = r.vehicle_id
		    join car_brands b on b.id = v.brand_id
		    left join service_request_services rs on rs.request_id = r.id
		    left join services s on s.id = rs.service_id
		    where r.id = ${requestId}
		    group by b.name_en, v.model, v.registration_number`,
	)
	return row ?? {}
}
