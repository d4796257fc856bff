import * as z from 'zod/mini'
import { typedPassword } from '~/utils/validation'

/**
 * Deleting one's account (issue 21, decision 0111): the password confirms it. The form on
 * /settings sends `intent=delete-account`; the same schema serves an administrator's form, which
 * asks for the administrator's own password.
 */
export const DeleteAccountSchema = z.object({
	// As typed (not trimmed), any length: the rules apply when a password is chosen.
	password: typedPassword(),
})
export type DeleteAccountInput = z.infer<typeof DeleteAccountSchema>

