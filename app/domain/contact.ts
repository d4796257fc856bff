import { z } from 'zod'
import { emailAddress, requiredText } from '~/utils/validation'

/**
 * The contact form (spec §2, §5): name, e-mail and message, all required, the e-mail valid.
 * One schema for the portal's form, the JSON API and the contact widget; errors are translation keys.
 */
export const ContactSchema = z.object({
	name: requiredText(100),
	email: emailAddress(),
	message: requiredText(5000),
})

export type ContactInput = z.output<typeof ContactSchema>
