import { z } from 'zod'
import { messages, optionalText, requiredText } from '~/utils/validation'

/** Step 4: rating 1 to 5 and the review text are required (spec §5). */
export const ReviewSchema = z.object({
	rating: z.coerce.number({ error: messages.required }).int(messages.required).min(1, messages.required).max(5, messages.required),
	title: optionalText(120),
	body: requiredText(4000),
})

export const ReplySchema = z.object({ reply: requiredText(4000) })
