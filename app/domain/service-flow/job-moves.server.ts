import { and, eq, inArray, sql } from 'drizzle-orm'
import { billDisputes, extraWork, offers, serviceRequests, vehicles, workshops } from '~/db/schema'
import { savePreparedUpload, type FormUpload } from '~/uploads/storage.server'
import { tallinnDay } from '~/utils/time'
import { DomainError, FieldError, notFound } from '~/utils/errors'
import { NotificationType, notify, notifyAdmins } from '~/domain/messaging/notifications.server'
import { writeAudit } from '~/domain/admin/audit.server'
import { finishBooking } from '~/domain/booking/booking-moves.server'
import { bindingTotalCents } from './extra-work'
import { billNeedsConsent, type BillDecision } from './final-bill'
import { inTransaction, lockBill, lockWorkshopOffer, type Tx } from './move-locks.server'
import { type WorkshopActor } from '~/utils/auth.server'
import { addEvent, customerName, notifyWorkshops, requestNoticeParams } from './move-notices.server'
import { restartServiceInterval } from './reminders.server'
import { canOffer, canRequest, offerMoves, requestAfter, statusLists, type RequestStatus } from './status'
import { fromKm, toKm } from './vehicle-kinds'

/**
 * Step 3 of the service flow (status.ts): the job done and its final bill, each a move in one
 * transaction under the lock order (move-locks.server.ts), with the notifications it causes.
 *
 *   request  in_progress → completed (final price)
 *   offer    selected → job_completed;  selected → bill_proposed (above the binding total) →
 *            job_completed (confirmed by the customer) | bill_disputed → job_completed (settled by an administrator)
 */

/**
 * The workshop enters the final price (actual bill amount). At or below the binding total (the
 * offer and the approved extra work), the job and the request are completed. Above it, the
 * workshop must say why, and the bill waits for the customer's yes (`confirmBill`) or dispute
 * (`disputeBill`, issue 19). Not while extra work waits for the customer's answer: the workshop
 * withdraws it, or waits.
 */
export async function completeJob(
	workshop: WorkshopActor,
	offerId: string,
	finalPriceCents: number,
	{ reason, mileage, invoice, within }: { reason?: string; mileage?: number; invoice?: FormUpload | null; within?: Tx } = {},
): Promise<'completed' | 'proposed'> {
	return inTransaction(within, async (tx) => {
		const { offer, request } = await lockWorkshopOffer(tx, workshop.workshopId, offerId)
		const bindingCents = bindingTotalCents(offer)
		const move = billNeedsConsent(finalPriceCents, bindingCents) ? 'proposeBill' : 'completeJob'
		if (!canOffer(move, offer.status, 'workshop') || !canRequest('complete', request.status)) throw new DomainError('workshop:job.cannotComplete', 409)
		// Under the request's lock: the customer's answer, made under it too, cannot slip in between.
		const [waiting] = await tx
			.select({ id: extraWork.id })
			.from(extraWork)
			.where(and(eq(extraWork.offerId, offerId), inArray(extraWork.status, statusLists.openExtraWork)))
			.limit(1)
		if (waiting) throw new DomainError('workshop:job.extraWorkWaiting', 409)
		if (move === 'proposeBill' && !reason) throw new FieldError('reason', 'workshop:job.reasonRequired')
		// The vehicle passport (issue 20): the mileage at the job is not below the last one recorded.
		// It is typed in the vehicle's unit and kept in km (decision 0122).
		let mileageKm: number | null = null
		if (mileage !== undefined) {
			const [vehicle] = await tx.select({ mileage: vehicles.mileage, unit: vehicles.odometerUnit }).from(vehicles).where(eq(vehicles.id, request.vehicleId))
			mileageKm = vehicle ? toKm(mileage, vehicle.unit) : mileage
			if (vehicle && mileageKm < vehicle.mileage)
				throw new FieldError('mileage', `workshop:job.mileageBelow.${vehicle.unit}`, 422, { mileage: fromKm(vehicle.mileage, vehicle.unit) })
		}
		const invoiceUpload = invoice ? await savePreparedUpload(tx, invoice, workshop.userId) : null
		await tx
			.update(offers)
			.set({ mileageAtJob: mileageKm, ...(invoiceUpload ? { invoiceUploadId: invoiceUpload.id } : {}) })
			.where(eq(offers.id, offerId))
		if (move === 'proposeBill') {
			await tx
				.update(offers)
				.set({ status: offerMoves.proposeBill.to, finalPriceCents, billReason: reason })
				.where(eq(offers.id, offerId))
			await notify(tx, {
				userId: request.customerId,
				type: NotificationType.dialog,
				messageKey: 'notifications.billProposed',
				messageParams: { workshop: workshop.workshopName, priceCents: finalPriceCents, bindingCents, ...(await requestNoticeParams(tx, request.id)) },
				receivedId: request.id,
			})
			return 'proposed'
		}
		await finishJob(tx, request, offer.id, finalPriceCents, workshop.userId)
		await notify(tx, {
			userId: request.customerId,
			type: NotificationType.jobCompleted,
			messageKey: 'notifications.jobCompleted',
			messageParams: { workshop: workshop.workshopName, priceCents: finalPriceCents, ...(await requestNoticeParams(tx, request.id)) },
			receivedId: request.id,
		})
		return 'completed'
	})
}

/**
 * The job is done at `finalPriceCents`: the offer and its request completed, the request's timeline
 * told by whom, its booking done. The vehicle passport (issue 20): the job's warranty is the one its offer promised
 * (issue 32), and the vehicle's mileage follows the mileage at the job.
 */
async function finishJob(
	tx: Tx,
	request: { id: string; status: RequestStatus; vehicleId: string },
	offerId: string,
	finalPriceCents: number,
	actorId: string,
) {
	const [done] = await tx
		.update(offers)
		.set({
			status: offerMoves.completeJob.to,
			finalPriceCents,
			completedAt: new Date(),
		})
		.where(eq(offers.id, offerId))
		.returning({ mileageAtJob: offers.mileageAtJob })
	if (done?.mileageAtJob !== null && done?.mileageAtJob !== undefined)
		await tx
			.update(vehicles)
			.set({ mileage: sql`greatest(${vehicles.mileage}, ${done.mileageAtJob})` })
			.where(eq(vehicles.id, request.vehicleId))
	// Its booked time (issue 33), if any, is done: the bay is free from now.
	await finishBooking(tx, offerId)
	// Maintenance or an oil change starts the vehicle's service interval again (issue 20).
	await restartServiceInterval(tx, request.id, request.vehicleId, tallinnDay(), done?.mileageAtJob ?? null)
	const status = requestAfter('complete', request.status)
	await tx.update(serviceRequests).set({ status }).where(eq(serviceRequests.id, request.id))
	await addEvent(tx, request.id, status, actorId)
}

/** The customer accepts a final bill above the binding total: the job is complete at that price; the workshop is told. */
export async function confirmBill(customerId: string, requestId: string, within?: Tx) {
	await inTransaction(within, async (tx) => {
		const { request, offer, billedCents } = await lockBill(tx, customerId, requestId, 'confirmBill')
		await finishJob(tx, request, offer.id, billedCents, customerId)
		await notifyWorkshops(tx, [offer], 'notifications.billConfirmed', {
			customer: await customerName(tx, customerId),
			priceCents: billedCents,
			...(await requestNoticeParams(tx, requestId)),
		})
	})
}

/**
 * The customer disputes a final bill above the binding total, saying why: the job stays open
 * until an administrator settles it (`settleBill`). The workshop and the administrators are told.
 */
export async function disputeBill(customerId: string, requestId: string, reason: string, within?: Tx): Promise<string> {
	return inTransaction(within, async (tx) => {
		const { offer, billedCents } = await lockBill(tx, customerId, requestId, 'disputeBill')
		await tx.update(offers).set({ status: offerMoves.disputeBill.to }).where(eq(offers.id, offer.id))
		const [dispute] = await tx
			.insert(billDisputes)
			.values({ offerId: offer.id, reason, billedCents, bindingCents: bindingTotalCents(offer) })
			.returning({ id: billDisputes.id })
		const customer = await customerName(tx, customerId)
		const about = await requestNoticeParams(tx, requestId)
		await notifyWorkshops(tx, [offer], 'notifications.billDisputed', { customer, priceCents: billedCents, ...about })
		await notifyAdmins(tx, { messageKey: 'notifications.billDisputeOpened', messageParams: { customer, priceCents: billedCents, ...about }, receivedId: dispute!.id })
		return dispute!.id
	})
}

/**
 * An administrator settles a disputed bill: the workshop's bill stands, or the binding total is
 * what the customer pays. The job is complete at that price; the audit log keeps the decision and
 * why; the customer and the workshop are told. Locks in the one order: request, offer, dispute.
 */
export async function settleBill(adminId: string, disputeId: string, input: { decision: BillDecision; note: string }, within?: Tx) {
	await inTransaction(within, async (tx) => {
		const [found] = await tx
			.select({ requestId: offers.requestId })
			.from(billDisputes)
			.innerJoin(offers, eq(offers.id, billDisputes.offerId))
			.where(eq(billDisputes.id, disputeId))
		if (!found) throw notFound()
		const [request] = await tx.select().from(serviceRequests).where(eq(serviceRequests.id, found.requestId)).for('update')
		if (!request?.selectedOfferId) throw notFound()
		const [offer] = await tx.select().from(offers).where(eq(offers.id, request.selectedOfferId)).for('update')
		const [dispute] = await tx.select().from(billDisputes).where(eq(billDisputes.id, disputeId)).for('update')
		if (!offer || !dispute || dispute.offerId !== offer.id) throw notFound()
		if (dispute.resolvedAt || !canOffer('settleBill', offer.status, 'admin')) throw new DomainError('admin:disputes.alreadySettled', 409)
		const priceCents = input.decision === 'billed' ? dispute.billedCents : dispute.bindingCents
		await finishJob(tx, request, offer.id, priceCents, adminId)
		const resolvedAt = new Date()
		await tx.update(billDisputes).set({ decision: input.decision, note: input.note, resolvedBy: adminId, resolvedAt }).where(eq(billDisputes.id, disputeId))
		await writeAudit(tx, adminId, {
			action: 'bill.settle',
			entityType: 'bill_dispute',
			entityId: disputeId,
			before: { status: offer.status, billedCents: dispute.billedCents, bindingCents: dispute.bindingCents },
			after: { status: offerMoves.settleBill.to, decision: input.decision, finalPriceCents: priceCents, note: input.note },
		})
		const [workshop] = await tx.select({ name: workshops.workshopName }).from(workshops).where(eq(workshops.id, offer.workshopId))
		const about = await requestNoticeParams(tx, request.id)
		await notify(tx, {
			userId: request.customerId,
			type: NotificationType.jobCompleted,
			messageKey: 'notifications.billSettled',
			messageParams: { workshop: workshop!.name, priceCents, ...about },
			receivedId: request.id,
		})
		await notifyWorkshops(tx, [offer], 'notifications.billSettledWorkshop', { customer: await customerName(tx, request.customerId), priceCents, ...about })
	})
}
