import * as z from 'zod/mini'
import { preprocess, requiredText } from '~/utils/validation'
import { extraWorkAnswers } from './extra-work'
import { MAX_OFFER_LINES, MAX_OFFER_TOTAL_CENTS, OfferLineSchema, offerTotals, withoutBlankLines } from './offer-lines'

/** The workshop's request for extra work: why, and its lines (at least one); the server computes the total. */
export const ExtraWorkSchema = z
	.object({
		reason: requiredText(1000),
		lines: preprocess(
			withoutBlankLines,
			z.array(OfferLineSchema).check(z.minLength(1, 'workshop:extraWork.linesRequired'), z.maxLength(MAX_OFFER_LINES, 'workshop:offer.tooManyLines')),
		),
	})
	.check(
		z.superRefine((input, context) => {
			// The VAT mode is the offer's, known on the server: the cap is checked with the larger of the two totals.
			if (offerTotals(input.lines, 'added').totalCents > MAX_OFFER_TOTAL_CENTS) context.addIssue({ code: 'custom', path: ['lines'], message: 'workshop:offer.totalTooLarge' })
		}),
	)
export type ExtraWorkInput = z.output<typeof ExtraWorkSchema>

/** The customer's answer (the button pressed) to one request for extra work, named by its id. */
export const ExtraWorkAnswerSchema = z.object({ intent: z.enum(extraWorkAnswers), extraWork: z.string().check(z.uuid()) })

/** The workshop withdraws one of its requests for extra work, named by its id. */
export const WithdrawExtraWorkSchema = z.object({ extraWork: z.string().check(z.uuid()) })
