import * as z from 'zod/mini'
import { requiredText } from '~/utils/validation'

/**
 * Deleting one's account (issue 21, decision 0111): the password confirms it. The form on
 * /settings sends `intent=delete-account`; the same schema serves an administrator's form, which
 * asks for the administrator's own password.
 */
export const DeleteAccountSchema = z.object({
	// Any length: the rules apply when a password is chosen, not when one is typed to confirm.
	password: requiredText(200),
})
export type DeleteAccountInput = z.infer<typeof DeleteAccountSchema>

