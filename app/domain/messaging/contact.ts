import * as z from 'zod/mini'
import { hasNoControlCharacters, messages } from '~/utils/validation'

/**
 * The contact form (spec §2, §5): name, e-mail and message, all required, the e-mail valid.
 * One schema for the portal's form, the JSON API and the contact widget; errors are translation keys.
 * Written with zod/mini (the same rules as requiredText and emailAddress in ~/utils/validation):
 * the widgets' script must stay within its size budget, and classic zod alone would use a third
 * of it (docs/decisions/0041).
 */
const requiredText = (max: number) =>
	z
		.string({ error: messages.required })
		.check(
			z.trim(),
			z.minLength(1, messages.required),
			z.maxLength(max, messages.tooLong),
			z.refine(hasNoControlCharacters, messages.controlCharacters),
		)

export const ContactSchema = z.object({
	name: requiredText(100),
	email: z.pipe(
		z.string({ error: messages.required }).check(z.trim(), z.minLength(1, messages.required), z.maxLength(254, messages.tooLong)),
		z.email({ error: messages.email }).check(z.toLowerCase()),
	),
	message: requiredText(5000),
})

export type ContactInput = z.output<typeof ContactSchema>
