import * as z from 'zod/mini'
import { messages, optionalText, requiredText } from '~/utils/validation'

/** The ratings one may give: half a star to five stars, in half stars (spec §9: a 5-star scale). */
export const ratingSteps = [0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5] as const

/** Step 4: a rating and the review text are required (spec §5). */
export const ReviewSchema = z.object({
	rating: z.coerce.number({ error: messages.required }).check(z.refine((value) => (ratingSteps as readonly number[]).includes(value), messages.rating)),
	title: optionalText(120),
	body: requiredText(4000),
})

export const ReplySchema = z.object({ reply: requiredText(4000) })
