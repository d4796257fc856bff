import * as z from 'zod/mini'
import { optionalText, requiredText } from '~/utils/validation'
import { MAX_REPORT_TEXT, moderationDecisions, reportReasons } from './review-moderation'

/** A report of a review: a reason from the list, and words of the reporter's own (needed for "other"). */
export const ReportReviewSchema = z
	.object({
		reason: z.enum(reportReasons, { error: 'validation.unknownChoice' }),
		text: optionalText(MAX_REPORT_TEXT),
	})
	.check(
		z.superRefine((input, context) => {
			if (input.reason === 'other' && !input.text) context.addIssue({ code: 'custom', path: ['text'], message: 'validation.required' })
		}),
	)
export type ReportReviewInput = z.output<typeof ReportReviewSchema>

/** An administrator hides or keeps a reported review, saying why (both sides read it; the audit log keeps it). */
export const ModerateReviewSchema = z.object({
	review: z.string().check(z.uuid()),
	decision: z.enum(moderationDecisions, { error: 'validation.unknownChoice' }),
	note: requiredText(MAX_REPORT_TEXT),
})
