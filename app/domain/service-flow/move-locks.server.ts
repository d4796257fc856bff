import { and, eq } from 'drizzle-orm'
import { offers, serviceRequests, workshops } from '~/db/schema'
import { type DbOrTx, transaction } from '~/db/db.server'
import { DomainError, notFound } from '~/utils/errors'
import { canOffer } from './status'

/**
 * The moves' transaction and row locks (docs/decisions/0070-lock-order.md). Every move of the
 * service flow (request-moves, offer-moves, job-moves, extra-work-moves, review-moves) and every
 * billing move locks what it changes (SELECT … FOR UPDATE) and checks the status under the lock, so
 * two moves at the same moment cannot both succeed. Locks are always taken in one order:
 *
 *   1. the vehicle (FOR SHARE while a request is made for it);
 *   2. the service request;
 *   3. its offers, then an offer's extra work and bill dispute, then the offer's booking (issue 33,
 *      booking-moves.server.ts: FOR UPDATE, and its waiting change under it);
 *   4. the workshop row (the monthly offer count, the subscription);
 *   5. the workshop's subscriptions and payments (billing locks the workshop first).
 *
 * so two moves never wait on each other in a circle; should PostgreSQL still abort one,
 * `transaction()` runs it again. The helpers here take the locks a move shares with others.
 */

export type Tx = DbOrTx


/**
 * A move's transaction: its own (`transaction()`, run again after a deadlock), or the caller's
 * when it passes one: the demo data tells its story with these moves, all in its one transaction.
 */
export function inTransaction<T>(within: Tx | undefined, work: (tx: Tx) => Promise<T>): Promise<T> {
	return within ? work(within) : transaction(work)
}

/** The customer's request, locked; another customer's request is "not found". */
export async function lockCustomerRequest(tx: Tx, customerId: string, requestId: string) {
	const [request] = await tx
		.select()
		.from(serviceRequests)
		.where(and(eq(serviceRequests.id, requestId), eq(serviceRequests.customerId, customerId)))
		.for('update')
	if (!request) throw notFound()
	return request
}

/**
 * The workshop's own offer and its request, both locked in the one order every status move uses:
 * the request first, then its offers (docs/decisions/0070-lock-order.md). Another workshop's
 * offer, or one withdrawn meanwhile, is "not found".
 */
export async function lockWorkshopOffer(tx: Tx, workshopId: string, offerId: string) {
	const [owned] = await tx
		.select({ requestId: offers.requestId })
		.from(offers)
		.where(and(eq(offers.id, offerId), eq(offers.workshopId, workshopId)))
	if (!owned) throw notFound()
	const [request] = await tx.select().from(serviceRequests).where(eq(serviceRequests.id, owned.requestId)).for('update')
	const [offer] = await tx
		.select()
		.from(offers)
		.where(and(eq(offers.id, offerId), eq(offers.workshopId, workshopId)))
		.for('update')
	if (!request || !offer) throw notFound()
	return { request, offer }
}

/**
 * The customer's request and its chosen offer, locked (request first), for an answer to the final
 * bill: `move` must be allowed on the offer, or the answer is a 409. Another customer's is "not found".
 */
export async function lockBill(tx: Tx, customerId: string, requestId: string, move: 'confirmBill' | 'disputeBill') {
	const request = await lockCustomerRequest(tx, customerId, requestId)
	if (!request.selectedOfferId) throw notFound()
	const [offer] = await tx.select().from(offers).where(eq(offers.id, request.selectedOfferId)).for('update')
	if (!offer) throw notFound()
	if (!canOffer(move, offer.status, 'customer') || offer.finalPriceCents === null) throw new DomainError('customer:bill.notWaiting', 409)
	return { request, offer, billedCents: offer.finalPriceCents }
}

/**
 * The workshop row (step 4): one workshop's offers are made one at a time, so the monthly count
 * cannot be raced, and every billing move locks it before the workshop's subscriptions and payments.
 */
export async function lockWorkshop(tx: Tx, workshopId: string) {
	await tx.select({ id: workshops.id }).from(workshops).where(eq(workshops.id, workshopId)).for('update')
}
