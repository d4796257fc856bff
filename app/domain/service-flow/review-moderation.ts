/**
 * Reporting and moderating reviews (issue 19): any signed-in user may report a review, saying why
 * (a reason from the list and words of their own); administrators hide it or keep it, with a
 * reason the audit log keeps, and the review's author and workshop are told. A hidden review is
 * not shown and does not count in ratings. Browser-safe, without zod (the forms' schemas are
 * review-moderation-schema.ts).
 */

/** Why a review is reported. */
export const reportReasons = ['notAJob', 'offensive', 'personalData', 'advertising', 'other'] as const
export type ReportReason = (typeof reportReasons)[number]

/** What an administrator does with a reported review. */
export const moderationDecisions = ['hide', 'keep'] as const
export type ModerationDecision = (typeof moderationDecisions)[number]

/** The longest explanation a report or a decision may have. */
export const MAX_REPORT_TEXT = 1000

/** A reported review as the administrators' queue shows it, with its open reports. */
export type ReportedReview = {
	id: string
	workshopName: string
	workshopSlug: string
	author: string
	rating: number
	title: string
	body: string
	createdAt: string
	hiddenAt: string | null
	hiddenReason: string | null
	reports: Array<{ reason: ReportReason; text: string; reporter: string; createdAt: string; decision: ModerationDecision | null; note: string | null }>
}
