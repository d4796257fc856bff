import { parseWithZod } from '@conform-to/zod/v4'
import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { auditLog, billDisputes, emailOutbox, notifications, offers, reviewReports, reviews, serviceRequests, users, workshops } from '~/db/schema'
import { ReportReviewSchema } from '~/domain/service-flow/review-moderation-schema'
import { getReportableReview, listReportedReviews, moderateReview, reportReview } from '~/domain/service-flow/review-moderation.server'
import { FieldError } from '~/utils/errors'
import { CompleteJobSchema, DisputeBillSchema, SettleBillSchema } from '~/domain/service-flow/final-bill-schema'
import { billDisputeOf, listBillDisputes } from '~/domain/service-flow/final-bill.server'
import { getNotificationDetail } from '~/domain/messaging/notifications.server'
import { answerExtraWork, askForExtraWork } from '~/domain/service-flow/extra-work-moves.server'
import { completeJob, confirmBill, disputeBill, settleBill } from '~/domain/service-flow/job-moves.server'
import { addReview, replyToReview } from '~/domain/service-flow/review-moves.server'
import { getCustomerRequest, listCustomerRequests } from '~/domain/service-flow/requests.server'
import { getLatestReviews, getWorkshopProfile, getWorkshopReviews } from '~/domain/directory/workshops.server'
import { encodeId } from '~/utils/public-id'
import { db, transactionStats } from '~/db/db.server'
import { createAdmin, createCustomer } from '#tests/support/accounts'
import { rejection, refused } from '#tests/support/refusals'
import { jobInProgress } from '#tests/support/flow'

/**
 * Issue 19, parts 4–6: a final bill above the binding total needs the customer's yes, or the
 * administrators' decision; reviews show their job and the workshop's record; reported reviews
 * are hidden or kept by the administrators.
 */


const newAdmin = async () => (await createAdmin()).id

const offerRow = async (id: string) => (await db.select().from(offers).where(eq(offers.id, id)))[0]!
const requestStatus = async (id: string) => (await db.select({ status: serviceRequests.status }).from(serviceRequests).where(eq(serviceRequests.id, id)))[0]!.status
const keysOf = async (userId: string) => (await db.select({ key: notifications.messageKey }).from(notifications).where(eq(notifications.userId, userId))).map((row) => row.key)
const emailsTo = async (userId: string) => {
	const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId))
	return db.select({ subject: emailOutbox.subject }).from(emailOutbox).where(eq(emailOutbox.to, user!.email))
}

/** A job whose €180 bill, €30 above its €150 offer, waits for the customer. */
async function billWaiting() {
	const job = await jobInProgress()
	expect(await completeJob(job.workshop, job.offerId, 18000, { reason: 'The brake hoses were cracked too.' })).toBe('proposed')
	return job
}

describe('the final bill', () => {
	test('at or below the binding total the job completes at once; above it, no reason is a field error and nothing changes', async () => {
		const below = await jobInProgress()
		expect(await completeJob(below.workshop, below.offerId, 14000)).toBe('completed')
		expect(await requestStatus(below.requestId)).toBe('completed')
		// Exactly the binding total needs no yes either.
		const at = await jobInProgress()
		expect(await completeJob(at.workshop, at.offerId, 15000)).toBe('completed')

		const { workshop, offerId, requestId } = await jobInProgress()
		const error = await rejection(completeJob(workshop, offerId, 15001))
		expect(error).toBeInstanceOf(FieldError)
		expect(error).toMatchObject({ field: 'reason', key: 'workshop:job.reasonRequired' })
		expect(await offerRow(offerId)).toMatchObject({ status: 'selected', finalPriceCents: null, billReason: null })
		expect(await requestStatus(requestId)).toBe('in_progress')
		// The form's schema keeps the reason optional (only the server knows the binding total) and bounded.
		const form = new FormData()
		form.set('finalPrice', '180')
		form.set('reason', 'x'.repeat(1001))
		expect(parseWithZod(form, { schema: CompleteJobSchema }).status).toBe('error')
	})

	test('approved extra work raises the binding total: a bill up to it needs no yes', async () => {
		const { customerId, workshop, requestId, offerId } = await jobInProgress()
		const extra = await askForExtraWork(workshop, offerId, { reason: 'Worn belt', lines: [{ kind: 'part', description: 'Belt', quantity: 100, unitPrice: 6400 }] }, [])
		await answerExtraWork(customerId, requestId, extra, 'approve')
		expect(await completeJob(workshop, offerId, 21400)).toBe('completed')
		const over = await jobInProgress()
		const declined = await askForExtraWork(over.workshop, over.offerId, { reason: 'Worn belt', lines: [{ kind: 'part', description: 'Belt', quantity: 100, unitPrice: 6400 }] }, [])
		await answerExtraWork(over.customerId, over.requestId, declined, 'decline')
		// Declined extra work is not in the binding total: the same bill now needs the customer's yes.
		await refused(completeJob(over.workshop, over.offerId, 21400), 'workshop:job.reasonRequired')
	})

	test('above it, with a reason, the bill waits for the customer, who confirms it: the job is complete at that price', async () => {
		const { customerId, workshop, requestId, offerId } = await billWaiting()
		expect(await offerRow(offerId)).toMatchObject({ status: 'bill_proposed', finalPriceCents: 18000, billReason: 'The brake hoses were cracked too.', completedAt: null })
		expect(await requestStatus(requestId)).toBe('in_progress')
		expect(await keysOf(customerId)).toContain('notifications.billProposed')
		expect((await emailsTo(customerId)).map((email) => email.subject).join()).toContain('€180.00')
		// Meanwhile: no second final price, no extra work, no review.
		await refused(completeJob(workshop, offerId, 15000), 'workshop:job.cannotComplete')
		await refused(askForExtraWork(workshop, offerId, { reason: 'More', lines: [{ kind: 'fee', description: 'Fee', quantity: 100, unitPrice: 100 }] }, []), 'workshop:extraWork.notInProgress')
		await refused(addReview(customerId, requestId, { rating: 5, body: 'x' }), 'customer:review.notCompleted')
		const detail = await getCustomerRequest(customerId, requestId, 'en')
		expect(detail.selectedOffer).toMatchObject({ status: 'bill_proposed', finalPriceCents: 18000, billReason: 'The brake hoses were cracked too.' })
		// The customer's lists say the bill waits, not that it is the final price.
		const [listed] = (await listCustomerRequests(customerId, 'en', 'all')).filter((item) => item.id === requestId)
		expect(listed).toMatchObject({ billWaiting: true, finalPriceCents: null })

		await confirmBill(customerId, requestId)
		expect(await offerRow(offerId)).toMatchObject({ status: 'job_completed', finalPriceCents: 18000 })
		expect((await offerRow(offerId)).completedAt).not.toBeNull()
		expect(await requestStatus(requestId)).toBe('completed')
		expect(await keysOf(workshop.userId)).toContain('notifications.billConfirmed')
		await refused(confirmBill(customerId, requestId), 'customer:bill.notWaiting')
		await refused(disputeBill(customerId, requestId, 'Too late'), 'customer:bill.notWaiting')
		await addReview(customerId, requestId, { rating: 4, body: 'Fair' })
	})

	test('no bill to answer, or another customer’s: a 409 or "not found"', async () => {
		const job = await jobInProgress()
		await refused(confirmBill(job.customerId, job.requestId), 'customer:bill.notWaiting')
		await refused(disputeBill(job.customerId, job.requestId, 'No'), 'customer:bill.notWaiting')
		const waiting = await billWaiting()
		const stranger = await createCustomer()
		await refused(confirmBill(stranger.id, waiting.requestId), 'common:errors.notFoundTitle')
		await refused(disputeBill(stranger.id, waiting.requestId, 'Mine?'), 'common:errors.notFoundTitle')
		await refused(settleBill(await newAdmin(), crypto.randomUUID(), { decision: 'billed', note: 'x' }), 'common:errors.notFoundTitle')
		expect((await offerRow(waiting.offerId)).status).toBe('bill_proposed')
	})

	test('a disputed bill goes to the administrators, who settle it at the binding total: audit log, both sides told', async () => {
		const admin = await newAdmin()
		const { customerId, workshop, requestId, offerId } = await billWaiting()
		const disputeId = await disputeBill(customerId, requestId, 'The hoses were never mentioned.')
		expect(await offerRow(offerId)).toMatchObject({ status: 'bill_disputed', finalPriceCents: 18000 })
		expect(await requestStatus(requestId)).toBe('in_progress')
		expect(await keysOf(workshop.userId)).toContain('notifications.billDisputed')
		expect(await keysOf(admin)).toContain('notifications.billDisputeOpened')
		const { open } = await listBillDisputes('en')
		expect(open.find((item) => item.id === disputeId)).toMatchObject({
			billedCents: 18000,
			bindingCents: 15000,
			billReason: 'The brake hoses were cracked too.',
			reason: 'The hoses were never mentioned.',
			decision: null,
		})
		// Disputed: no confirming it now, no second dispute.
		await refused(confirmBill(customerId, requestId), 'customer:bill.notWaiting')
		await refused(disputeBill(customerId, requestId, 'Again'), 'customer:bill.notWaiting')

		await settleBill(admin, disputeId, { decision: 'binding', note: 'Extra work needs the customer’s yes first.' })
		expect(await offerRow(offerId)).toMatchObject({ status: 'job_completed', finalPriceCents: 15000 })
		expect(await requestStatus(requestId)).toBe('completed')
		expect(await billDisputeOf(offerId, 'en')).toMatchObject({ decision: 'binding', settledCents: 15000, note: 'Extra work needs the customer’s yes first.' })
		const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.entityType, 'bill_dispute'), eq(auditLog.entityId, disputeId)))
		expect(audit).toMatchObject({ actorId: admin, action: 'bill.settle', after: expect.objectContaining({ decision: 'binding', finalPriceCents: 15000 }) })
		expect(await keysOf(customerId)).toContain('notifications.billSettled')
		expect(await keysOf(workshop.userId)).toContain('notifications.billSettledWorkshop')
		expect((await listBillDisputes('en')).open.map((item) => item.id)).not.toContain(disputeId)
		await refused(settleBill(admin, disputeId, { decision: 'billed', note: 'Changed my mind' }), 'admin:disputes.alreadySettled')
		expect((await offerRow(offerId)).finalPriceCents).toBe(15000)
	})

	test('an administrator may let the bill stand', async () => {
		const admin = await newAdmin()
		const { customerId, requestId, offerId } = await billWaiting()
		const disputeId = await disputeBill(customerId, requestId, 'Too much')
		await settleBill(admin, disputeId, { decision: 'billed', note: 'The photos show the cracked hoses.' })
		expect(await offerRow(offerId)).toMatchObject({ status: 'job_completed', finalPriceCents: 18000 })
	})

	test('the forms’ schemas: a dispute needs a reason, a settlement a decision and a reason', () => {
		const form = (fields: Record<string, string>) => {
			const data = new FormData()
			for (const [name, value] of Object.entries(fields)) data.set(name, value)
			return data
		}
		expect(parseWithZod(form({ reason: '  ' }), { schema: DisputeBillSchema }).status).toBe('error')
		const id = crypto.randomUUID()
		expect(parseWithZod(form({ dispute: id, note: 'Fine' }), { schema: SettleBillSchema }).status).toBe('error')
		expect(parseWithZod(form({ dispute: id, decision: 'half', note: 'Fine' }), { schema: SettleBillSchema }).status).toBe('error')
		expect(parseWithZod(form({ dispute: id, decision: 'billed', note: '' }), { schema: SettleBillSchema }).status).toBe('error')
		expect(parseWithZod(form({ dispute: id, decision: 'binding', note: 'Fine' }), { schema: SettleBillSchema }).status).toBe('success')
	})

	test('two answers at once: confirming and disputing the same bill, only one wins; two settlements, only one', async () => {
		const { customerId, requestId, offerId } = await billWaiting()
		const retriedBefore = transactionStats.retried
		const answers = await Promise.allSettled([confirmBill(customerId, requestId), disputeBill(customerId, requestId, 'No')])
		expect(answers.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
		// The other was told the bill no longer waits for an answer, nothing else went wrong.
		expect(answers.find((result) => result.status === 'rejected')).toMatchObject({ reason: { key: 'customer:bill.notWaiting' } })
		const { status } = await offerRow(offerId)
		const disputes = await db.select().from(billDisputes).where(eq(billDisputes.offerId, offerId))
		expect(disputes).toHaveLength(status === 'bill_disputed' ? 1 : 0)
		expect(transactionStats.retried - retriedBefore).toBe(0)

		const [first, second] = [await newAdmin(), await newAdmin()]
		const next = await billWaiting()
		const disputeId = await disputeBill(next.customerId, next.requestId, 'No')
		const settlements = await Promise.allSettled([
			settleBill(first, disputeId, { decision: 'billed', note: 'a' }),
			settleBill(second, disputeId, { decision: 'binding', note: 'b' }),
		])
		expect(settlements.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
		expect(settlements.find((result) => result.status === 'rejected')).toMatchObject({ reason: { key: 'admin:disputes.alreadySettled' } })
		const audits = await db.select().from(auditLog).where(eq(auditLog.entityId, disputeId))
		expect(audits).toHaveLength(1)
	})

	test('reviews show their job: verified, its services, quoted and paid; the workshop’s record counts twelve months, from five jobs', async () => {
		const first = await billWaiting()
		const { workshop } = first
		await confirmBill(first.customerId, first.requestId)
		await addReview(first.customerId, first.requestId, { rating: 4, title: 'Honest', body: 'The hoses were really cracked.' })
		const [review] = (await getWorkshopReviews(workshop.workshopId, 1, 1, 'en')).items
		expect(review).toMatchObject({ verifiedJob: true, services: ['Brake repair'], quotedCents: 15000, paidCents: 18000 })
		expect((await getLatestReviews('en', 50)).find((item) => item.id === review!.id)).toMatchObject({ quotedCents: 15000, paidCents: 18000 })

		// Four jobs so far (one above the binding total): too few for a record.
		for (let i = 0; i < 3; i++) {
			const job = await jobInProgress({ workshop })
			await completeJob(workshop, job.offerId, 15000 - i * 1000)
		}
		const profile = () => getWorkshopProfile(workshop.workshopId, 'en')
		expect((await profile())!.priceRecord).toBeNull()
		const fifth = await jobInProgress({ workshop })
		await completeJob(workshop, fifth.offerId, 15000)
		expect((await profile())!.priceRecord).toEqual({ jobs: 5, atQuotedPercent: 80 })
		// A job finished more than twelve months ago no longer counts.
		await db.update(offers).set({ completedAt: new Date(Date.now() - 400 * 86_400_000) }).where(eq(offers.id, fifth.offerId))
		expect((await profile())!.priceRecord).toBeNull()
		expect(encodeId(workshop.workshopId)).toBe((await profile())!.id)
	})
})

describe('reporting and moderating reviews', () => {
	/** A completed job with a review, and its workshop's stored rating. */
	async function reviewed(rating = 1) {
		const job = await jobInProgress()
		await completeJob(job.workshop, job.offerId, 15000)
		const reviewId = await addReview(job.customerId, job.requestId, { rating, title: 'Awful', body: 'They are crooks.' })
		return { ...job, reviewId }
	}
	const ratingOf = async (workshopId: string) =>
		(await db.select({ average: workshops.ratingAverage, count: workshops.reviewCount }).from(workshops).where(eq(workshops.id, workshopId)))[0]!

	test('any signed-in user reports a review once, not their own; a reason from the list, words needed for "other"', async () => {
		const { customerId, workshop, reviewId } = await reviewed()
		const admin = await newAdmin()
		expect((await getReportableReview(reviewId, workshop.userId, 'en')).refusal).toBeNull()
		await reportReview(workshop.userId, reviewId, { reason: 'offensive', text: 'Calls us crooks.' })
		await refused(reportReview(workshop.userId, reviewId, { reason: 'other', text: 'Again' }), 'public:report.already')
		await refused(reportReview(customerId, reviewId, { reason: 'offensive' }), 'public:report.own')
		// The report page says so before the form is filled in.
		expect((await getReportableReview(reviewId, workshop.userId, 'en')).refusal).toBe('public:report.already')
		expect((await getReportableReview(reviewId, customerId, 'en')).refusal).toBe('public:report.own')
		await refused(reportReview(workshop.userId, crypto.randomUUID(), { reason: 'offensive' }), 'common:errors.notFoundTitle')
		const stranger = await createCustomer()
		await reportReview(stranger.id, reviewId, { reason: 'notAJob' })
		expect(await keysOf(admin)).toContain('notifications.reviewReported')
		const item = (await listReportedReviews('en')).open.find((review) => review.id === reviewId)
		expect(item?.reports.map((report) => report.reason)).toEqual(['offensive', 'notAJob'])
		expect(ReportReviewSchema.safeParse({ reason: 'other', text: '' }).success).toBe(false)
		expect(ReportReviewSchema.safeParse({ reason: 'lies' }).success).toBe(false)
		expect(ReportReviewSchema.safeParse({ reason: 'other', text: 'Copied from another site' }).success).toBe(true)
	})

	test('hidden: not shown, not in the rating, not reportable; every open report settled, audited, both sides told', async () => {
		const { customerId, workshop, reviewId, requestId } = await reviewed(1)
		const other = await jobInProgress({ workshop })
		await completeJob(workshop, other.offerId, 15000)
		await addReview(other.customerId, other.requestId, { rating: 5, body: 'Great' })
		expect(await ratingOf(workshop.workshopId)).toEqual({ average: 3, count: 2 })
		const admin = await newAdmin()
		await reportReview(workshop.userId, reviewId, { reason: 'offensive' })
		await moderateReview(admin, reviewId, { decision: 'hide', note: 'Insults are not a review.' })
		expect(await ratingOf(workshop.workshopId)).toEqual({ average: 5, count: 1 })
		const [row] = await db.select().from(reviews).where(eq(reviews.id, reviewId))
		expect(row).toMatchObject({ hiddenReason: 'Insults are not a review.' })
		expect((await getWorkshopReviews(workshop.workshopId, 1, 1, 'en')).items.map((review) => review.title)).not.toContain('Awful')
		expect((await getLatestReviews('en', 50)).map((review) => review.id)).not.toContain(encodeId(reviewId))
		expect((await db.select().from(reviewReports).where(eq(reviewReports.reviewId, reviewId)))[0]).toMatchObject({ decision: 'hide', resolvedBy: admin })
		const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.entityType, 'review'), eq(auditLog.entityId, reviewId)))
		expect(audit).toMatchObject({ action: 'review.hide', actorId: admin })
		expect(await keysOf(customerId)).toContain('notifications.reviewHidden')
		expect(await keysOf(workshop.userId)).toContain('notifications.reviewHiddenWorkshop')
		// Each notice opens the page that shows the reason: the author's service, the workshop's reviews.
		const noticeOf = async (userId: string, messageKey: string) =>
			(await db.select().from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.messageKey, messageKey))))[0]!
		const authorNotice = await noticeOf(customerId, 'notifications.reviewHidden')
		expect((await getNotificationDetail(customerId, authorNotice.id, 'en')).link?.to).toBe(`/service-details/${encodeId(requestId)}`)
		const workshopNotice = await noticeOf(workshop.userId, 'notifications.reviewHiddenWorkshop')
		expect((await getNotificationDetail(workshop.userId, workshopNotice.id, 'en')).link?.to).toBe(`/customer-reviews#review-${encodeId(reviewId)}`)
		await refused(moderateReview(admin, reviewId, { decision: 'keep', note: 'x' }), 'admin:reviews.nothingOpen')
		await refused(reportReview((await createCustomer()).id, reviewId, { reason: 'advertising' }), 'common:errors.notFoundTitle')
		await refused(getReportableReview(reviewId, customerId, 'en'), 'common:errors.notFoundTitle')
		// Not shown, so not answered either.
		await refused(replyToReview(workshop, reviewId, 'Sorry to hear it.'), 'common:errors.notFoundTitle')
	})

	test('kept: stays, counts, both sides told, audited', async () => {
		const { customerId, workshop, reviewId } = await reviewed(2)
		await reportReview(workshop.userId, reviewId, { reason: 'notAJob' })
		const admin = await newAdmin()
		await moderateReview(admin, reviewId, { decision: 'keep', note: 'A real job, a harsh opinion.' })
		const [row] = await db.select().from(reviews).where(eq(reviews.id, reviewId))
		expect(row).toMatchObject({ hiddenAt: null, hiddenReason: null })
		expect(await ratingOf(workshop.workshopId)).toEqual({ average: 2, count: 1 })
		expect((await getWorkshopReviews(workshop.workshopId, 1, 1, 'en')).items.map((review) => review.title)).toContain('Awful')
		expect(await keysOf(customerId)).toContain('notifications.reviewKept')
		expect(await keysOf(workshop.userId)).toContain('notifications.reviewKeptWorkshop')
		const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.entityType, 'review'), eq(auditLog.entityId, reviewId)))
		expect(audit).toMatchObject({ action: 'review.keep', actorId: admin })
		expect((await listReportedReviews('en')).open.map((review) => review.id)).not.toContain(reviewId)
	})

	test('two administrators at once settle a report once', async () => {
		const { workshop, reviewId } = await reviewed(2)
		await reportReview(workshop.userId, reviewId, { reason: 'notAJob' })
		const [first, second] = [await newAdmin(), await newAdmin()]
		const results = await Promise.allSettled([
			moderateReview(first, reviewId, { decision: 'keep', note: 'A real job, a harsh opinion.' }),
			moderateReview(second, reviewId, { decision: 'hide', note: 'No' }),
		])
		expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
		expect(results.find((result) => result.status === 'rejected')).toMatchObject({ reason: { key: 'admin:reviews.nothingOpen' } })
		expect(await db.select().from(auditLog).where(eq(auditLog.entityId, reviewId))).toHaveLength(1)
	})
})
