import { and, eq, isNull } from 'drizzle-orm'
import { offers, reviews, workshops } from '~/db/schema'
import { isUniqueViolation } from '~/db/db.server'
import { DomainError, notFound } from '~/utils/errors'
import { NotificationType, notify } from '~/domain/messaging/notifications.server'
import { inTransaction, lockCustomerRequest, type Tx } from './move-locks.server'
import { type WorkshopActor } from '~/utils/auth.server'
import { customerName, requestNoticeParams } from './move-notices.server'
import { refreshWorkshopRatings } from './reviews.server'
import { canRequest } from './status'

/**
 * The last step of the service flow (status.ts): the customer's review of a completed job and the
 * workshop's reply, each in one transaction, with the notification it causes.
 */

/** One review per completed request; it counts in the workshop's rating at once. */
export async function addReview(customerId: string, requestId: string, input: { rating: number; title?: string; body: string }, within?: Tx) {
	try {
		return await inTransaction(within, async (tx) => {
			const request = await lockCustomerRequest(tx, customerId, requestId)
			if (!canRequest('review', request.status) || !request.selectedOfferId) throw new DomainError('customer:review.notCompleted', 409)
			const [existing] = await tx.select({ id: reviews.id }).from(reviews).where(eq(reviews.requestId, requestId))
			if (existing) throw new DomainError('customer:review.alreadyGiven', 409)
			const [offer] = await tx.select({ workshopId: offers.workshopId }).from(offers).where(eq(offers.id, request.selectedOfferId))
			const [review] = await tx
				.insert(reviews)
				.values({ requestId, workshopId: offer!.workshopId, customerId, rating: input.rating, title: input.title ?? '', body: input.body })
				.returning({ id: reviews.id })
			await refreshWorkshopRatings(tx, [offer!.workshopId])
			const [owner] = await tx.select({ userId: workshops.userId }).from(workshops).where(eq(workshops.id, offer!.workshopId))
			await notify(tx, {
				userId: owner!.userId,
				type: NotificationType.newReview,
				messageKey: 'notifications.newReview',
				messageParams: { customer: await customerName(tx, customerId), rating: input.rating, ...(await requestNoticeParams(tx, requestId)) },
				receivedId: review!.id,
			})
			return review!.id
		})
	} catch (error) {
		if (isUniqueViolation(error)) throw new DomainError('customer:review.alreadyGiven', 409)
		throw error
	}
}

/** The workshop answers a review of its own, once; the customer is told. */
export async function replyToReview(workshop: WorkshopActor, reviewId: string, reply: string, within?: Tx) {
	await inTransaction(within, async (tx) => {
		const [review] = await tx
			.select()
			.from(reviews)
			// A review the administrators hid is answered no more (it is not shown).
			.where(and(eq(reviews.id, reviewId), eq(reviews.workshopId, workshop.workshopId), isNull(reviews.hiddenAt)))
			.for('update')
		if (!review) throw notFound()
		if (review.reply) throw new DomainError('workshop:review.alreadyReplied', 409)
		await tx.update(reviews).set({ reply, repliedAt: new Date() }).where(eq(reviews.id, reviewId))
		await notify(tx, {
			userId: review.customerId,
			type: NotificationType.dialog,
			messageKey: 'notifications.reviewReply',
			messageParams: { workshop: workshop.workshopName, ...(await requestNoticeParams(tx, review.requestId)) },
			receivedId: reviewId,
		})
	})
}
