import { eq, inArray } from 'drizzle-orm'
import { requestEvents, type serviceRequests, users, workshops } from '~/db/schema'
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
