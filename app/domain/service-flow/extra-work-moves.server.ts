import { and, count, eq, inArray, sql } from 'drizzle-orm'
import { extraWork, extraWorkImages, extraWorkLines, offers } from '~/db/schema'
import { savePreparedUpload, type FormUpload } from '~/uploads/storage.server'
import { DomainError, FieldError, notFound } from '~/utils/errors'
import { NotificationType, notify } from '~/domain/messaging/notifications.server'
import { type ExtraWorkAnswer, MAX_EXTRA_WORK_IMAGES, MAX_EXTRA_WORK_REQUESTS } from './extra-work'
import { type ExtraWorkInput } from './extra-work-schema'
import { inTransaction, lockCustomerRequest, lockWorkshopOffer, type Tx } from './move-locks.server'
import { type WorkshopActor } from '~/utils/auth.server'
import { customerName, notifyWorkshops, requestNoticeParams } from './move-notices.server'
import { lineColumns, MAX_OFFER_TOTAL_CENTS, offerTotals } from './offer-lines'
import { canExtraWork, canOffer, canRequest, extraWorkMoves, extraWorkStatusInfo, initialStatus, statusLists } from './status'

/**
 * Extra work during a job in progress (issue 19, docs/decisions/0097-extra-work.md): asked for by
 * the workshop, approved or declined by the customer, or withdrawn; each a move in one transaction
 * under the lock order (move-locks.server.ts), with the notifications it causes.
 *
 *   extra    waiting → approved | declined (by the customer) | withdrawn (by the workshop)
 */

/**
 * The chosen workshop asks for extra work while the job is under way: a reason, lines priced with
 * the offer's VAT mode (their total computed here) and up to three photos. The customer is told
 * (bell and e-mail); nothing is added to the price until they approve.
 */
export async function askForExtraWork(workshop: WorkshopActor, offerId: string, input: ExtraWorkInput, images: FormUpload[], within?: Tx): Promise<string> {
	if (images.length > MAX_EXTRA_WORK_IMAGES) throw new DomainError('workshop:extraWork.tooManyImages', 422, { max: MAX_EXTRA_WORK_IMAGES })
	return inTransaction(within, async (tx) => {
		const { offer, request } = await lockWorkshopOffer(tx, workshop.workshopId, offerId)
		if (!canOffer('askExtraWork', offer.status, 'workshop') || request.selectedOfferId !== offer.id) throw new DomainError('workshop:extraWork.notInProgress', 409)
		const sums = offerTotals(input.lines, offer.vatMode)
		// A job's requests are few, and its price with every approved or waiting one stays within an offer's cap.
		const [asked] = await tx
			.select({ n: count(), waitingCents: sql<number>`coalesce(sum(${extraWork.priceCents}) filter (where ${inArray(extraWork.status, statusLists.openExtraWork)}), 0)::int` })
			.from(extraWork)
			.where(eq(extraWork.offerId, offerId))
		if (asked!.n >= MAX_EXTRA_WORK_REQUESTS) throw new DomainError('workshop:extraWork.tooManyRequests', 409, { max: MAX_EXTRA_WORK_REQUESTS })
		if (offer.priceCents + offer.approvedExtraCents + asked!.waitingCents + sums.totalCents > MAX_OFFER_TOTAL_CENTS)
			throw new FieldError('lines', 'workshop:offer.totalTooLarge')
		const [row] = await tx
			.insert(extraWork)
			.values({
				offerId,
				reason: input.reason,
				status: initialStatus.extraWork,
				vatMode: offer.vatMode,
				priceCents: sums.totalCents,
				labourCents: sums.labourCents,
				partsCents: sums.partsCents,
				feesCents: sums.feesCents,
				vatCents: sums.vatCents,
			})
			.returning({ id: extraWork.id })
		const extraWorkId = row!.id
		await tx.insert(extraWorkLines).values(
			input.lines.map((line, position) => ({ extraWorkId, ...lineColumns(line, position) })),
		)
		for (const [position, image] of images.entries()) {
			const upload = await savePreparedUpload(tx, image, workshop.userId)
			await tx.insert(extraWorkImages).values({ extraWorkId, uploadId: upload.id, position })
		}
		await notify(tx, {
			userId: request.customerId,
			type: NotificationType.dialog,
			messageKey: 'notifications.extraWorkRequested',
			messageParams: { workshop: workshop.workshopName, priceCents: sums.totalCents, ...(await requestNoticeParams(tx, request.id)) },
			receivedId: request.id,
		})
		return extraWorkId
	})
}

/**
 * The customer approves or declines extra work on their job in progress, once: an approved one's
 * price joins the binding total (offers.approved_extra_cents). The workshop is told. Another
 * customer's, or one of another request, is "not found"; one already answered or withdrawn, a 409.
 */
export async function answerExtraWork(customerId: string, requestId: string, extraWorkId: string, answer: ExtraWorkAnswer, within?: Tx) {
	await inTransaction(within, async (tx) => {
		const request = await lockCustomerRequest(tx, customerId, requestId)
		if (!request.selectedOfferId) throw notFound()
		const [offer] = await tx.select().from(offers).where(eq(offers.id, request.selectedOfferId)).for('update')
		const [extra] = await tx
			.select()
			.from(extraWork)
			.where(and(eq(extraWork.id, extraWorkId), eq(extraWork.offerId, request.selectedOfferId)))
			.for('update')
		if (!offer || !extra) throw notFound()
		if (!canExtraWork(answer, extra.status, 'customer')) throw new DomainError('customer:extraWork.alreadyAnswered', 409)
		if (!canRequest('answerExtraWork', request.status, 'customer')) throw new DomainError('customer:extraWork.notInProgress', 409)
		const status = extraWorkMoves[answer].to
		await tx.update(extraWork).set({ status, answeredAt: new Date() }).where(eq(extraWork.id, extraWorkId))
		if (extraWorkStatusInfo[status].binding) {
			await tx
				.update(offers)
				.set({ approvedExtraCents: sql`${offers.approvedExtraCents} + ${extra.priceCents}` })
				.where(eq(offers.id, offer.id))
		}
		await notifyWorkshops(tx, [offer], answer === 'approve' ? 'notifications.extraWorkApproved' : 'notifications.extraWorkDeclined', {
			customer: await customerName(tx, customerId),
			priceCents: extra.priceCents,
			...(await requestNoticeParams(tx, requestId)),
		})
	})
}

/** The workshop takes back extra work the customer has not answered yet; the customer is told (bell). */
export async function withdrawExtraWork(workshop: WorkshopActor, offerId: string, extraWorkId: string, within?: Tx) {
	await inTransaction(within, async (tx) => {
		const { request } = await lockWorkshopOffer(tx, workshop.workshopId, offerId)
		const [extra] = await tx
			.select()
			.from(extraWork)
			.where(and(eq(extraWork.id, extraWorkId), eq(extraWork.offerId, offerId)))
			.for('update')
		if (!extra) throw notFound()
		if (!canExtraWork('withdraw', extra.status, 'workshop')) throw new DomainError('workshop:extraWork.alreadyAnswered', 409)
		await tx.update(extraWork).set({ status: extraWorkMoves.withdraw.to, answeredAt: new Date() }).where(eq(extraWork.id, extraWorkId))
		await notify(tx, {
			userId: request.customerId,
			type: NotificationType.dialog,
			messageKey: 'notifications.extraWorkWithdrawn',
			messageParams: { workshop: workshop.workshopName, ...(await requestNoticeParams(tx, request.id)) },
			receivedId: request.id,
		})
	})
}
