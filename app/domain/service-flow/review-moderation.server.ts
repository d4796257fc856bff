import { and, eq, isNull, sql } from 'drizzle-orm'
import { reviewReports, reviews, workshops } from '~/db/schema'
import { customerName } from '~/db/sql'
import { writeAudit } from '~/domain/admin/audit.server'
import { DomainError, notFound } from '~/utils/errors'
import { NotificationType, notify, notifyAdmins } from '~/domain/messaging/notifications.server'
import { db, isUniqueViolation, queryRows, transaction } from '~/db/db.server'
import { encodeId } from '~/utils/public-id'
import { requestNoticeParams } from './move-notices.server'
import { type ModerationDecision, type ReportedReview } from './review-moderation'
import { type ReportReviewInput } from './review-moderation-schema'
import { refreshWorkshopRatings } from './reviews.server'
import { shownReviewer } from '~/domain/directory/workshops.server'
import { type Language } from '~/i18n/config'

/** How many reviews the administrators' page lists at most: those with open reports, and those settled lately. */
const REVIEWS_SHOWN = 50

/**
 * A signed-in user reports a review shown on the site (issue 19), once: its author may not, a
 * hidden or unknown review is "not found". Every administrator who is not blocked is told (bell).
 */
export async function reportReview(userId: string, reviewId: string, input: ReportReviewInput): Promise<{ workshopId: string }> {
	try {
		return await transaction(async (tx) => {
			// Shared with a moderation under way (it locks the review): a review hidden meanwhile is "not found" here.
			const [review] = await tx
				.select({ id: reviews.id, customerId: reviews.customerId, workshopId: reviews.workshopId })
				.from(reviews)
				.where(and(eq(reviews.id, reviewId), isNull(reviews.hiddenAt)))
				.for('share')
			if (!review) throw notFound()
			if (review.customerId === userId) throw new DomainError('public:report.own', 409)
			await tx.insert(reviewReports).values({ reviewId, reporterId: userId, reason: input.reason, text: input.text ?? '' })
			await notifyAdmins(tx, { messageKey: 'notifications.reviewReported', receivedId: reviewId })
			return { workshopId: review.workshopId }
		})
	} catch (error) {
		if (isUniqueViolation(error, 'review_reports_once_key')) throw new DomainError('public:report.already', 409)
		throw error
	}
}

/**
 * An administrator hides or keeps a reported review, saying why: every open report of it is
 * settled, a hidden review leaves its workshop's rating, the audit log keeps the decision, and the
 * review's author and workshop are told. Locks the review, then its reports; a review with no open
 * report (settled a moment ago by another administrator) is a 409.
 */
export async function moderateReview(adminId: string, reviewId: string, input: { decision: ModerationDecision; note: string }) {
	await transaction(async (tx) => {
		const [review] = await tx.select().from(reviews).where(eq(reviews.id, reviewId)).for('update')
		if (!review) throw notFound()
		const open = await tx
			.select({ id: reviewReports.id })
			.from(reviewReports)
			.where(and(eq(reviewReports.reviewId, reviewId), isNull(reviewReports.resolvedAt)))
			.for('update')
		if (!open.length) throw new DomainError('admin:reviews.nothingOpen', 409)
		const now = new Date()
		await tx
			.update(reviewReports)
			.set({ decision: input.decision, note: input.note, resolvedBy: adminId, resolvedAt: now })
			.where(and(eq(reviewReports.reviewId, reviewId), isNull(reviewReports.resolvedAt)))
		if (input.decision === 'hide') {
			await tx.update(reviews).set({ hiddenAt: now, hiddenReason: input.note }).where(eq(reviews.id, reviewId))
			await refreshWorkshopRatings(tx, [review.workshopId])
		}
		await writeAudit(tx, adminId, {
			action: `review.${input.decision}`,
			entityType: 'review',
			entityId: reviewId,
			before: { hidden: review.hiddenAt !== null, reports: open.length },
			after: { hidden: input.decision === 'hide', note: input.note },
		})
		const [owner] = await tx.select({ userId: workshops.userId, name: workshops.workshopName }).from(workshops).where(eq(workshops.id, review.workshopId))
		const messageKey = input.decision === 'hide' ? 'notifications.reviewHidden' : 'notifications.reviewKept'
		const about = await requestNoticeParams(tx, review.requestId)
		await notify(tx, [
			{ userId: review.customerId, type: NotificationType.dialog, messageKey, messageParams: { workshop: owner!.name, note: input.note, ...about }, receivedId: reviewId },
			{ userId: owner!.userId, type: NotificationType.dialog, messageKey: `${messageKey}Workshop`, messageParams: { note: input.note, ...about }, receivedId: reviewId },
		])
	})
}

/** Reviews with open reports, oldest report first, and those settled lately; each with its reports. */
export async function listReportedReviews(language: Language): Promise<{ open: ReportedReview[]; settled: ReportedReview[] }> {
	const read = (where: ReturnType<typeof sql>, order: ReturnType<typeof sql>) =>
		queryRows<Omit<ReportedReview, 'workshopSlug'> & { workshopId: string }>(
			db,
			sql`select rv.id, w.id as "workshopId", w.workshop_name as "workshopName", ${customerName(language)} as author,
			           rv.rating, rv.title, rv.body, rv.created_at as "createdAt", rv.hidden_at as "hiddenAt", rv.hidden_reason as "hiddenReason",
			           (select json_agg(json_build_object('reason', rr.reason, 'text', rr.text, 'reporter', ru.first_name || ' ' || ru.last_name,
			                                              'createdAt', rr.created_at, 'decision', rr.decision, 'note', rr.note) order by rr.created_at)
			            from review_reports rr join users ru on ru.id = rr.reporter_id where rr.review_id = rv.id) as reports
			    from reviews rv
			    join workshops w on w.id = rv.workshop_id
			    join users u on u.id = rv.customer_id
			    where ${where}
			    order by ${order}
			    limit ${REVIEWS_SHOWN}`,
		)
	const [open, settled] = await Promise.all([
		read(
			sql`exists (select 1 from review_reports rr where rr.review_id = rv.id and rr.resolved_at is null)`,
			sql`(select min(rr.created_at) from review_reports rr where rr.review_id = rv.id and rr.resolved_at is null), rv.id`,
		),
		read(
			sql`exists (select 1 from review_reports rr where rr.review_id = rv.id and rr.resolved_at is not null)
			    and not exists (select 1 from review_reports rr where rr.review_id = rv.id and rr.resolved_at is null)`,
			sql`(select max(rr.resolved_at) from review_reports rr where rr.review_id = rv.id) desc, rv.id`,
		),
	])
	const withSlug = (rows: typeof open) => rows.map(({ workshopId, ...row }) => ({ ...row, workshopSlug: encodeId(workshopId) }))
	return { open: withSlug(open), settled: withSlug(settled) }
}

/**
 * A review shown on the site, for the report page: its words, its author's name as shown, its
 * workshop; and why this user may not report it (their own review, or reported already), so the
 * page says so before the form is filled in.
 */
export async function getReportableReview(reviewId: string, userId: string, language: Language) {
	const [row] = await queryRows<{ id: string; title: string; body: string; rating: number; firstName: string; lastName: string; workshopId: string; workshopName: string; own: boolean; reported: boolean }>(
		db,
		sql`select rv.id, rv.title, rv.body, rv.rating, u.first_name as "firstName", u.last_name as "lastName",
		           w.id as "workshopId", w.workshop_name as "workshopName", rv.customer_id = ${userId} as own,
		           exists (select 1 from review_reports rr where rr.review_id = rv.id and rr.reporter_id = ${userId}) as reported
		    from reviews rv join users u on u.id = rv.customer_id join workshops w on w.id = rv.workshop_id
		    where rv.id = ${reviewId} and rv.hidden_at is null`,
	)
	if (!row) throw notFound()
	const { firstName, lastName, own, reported, ...review } = row
	const refusal = own ? 'public:report.own' : reported ? 'public:report.already' : null
	return { ...review, reviewer: shownReviewer(firstName, lastName, language), workshopSlug: encodeId(row.workshopId), refusal }
}
