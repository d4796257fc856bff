import * as z from 'zod/mini'
import { companyId, emailAddress, messages, mobileNumber, nameText } from '~/utils/validation'

/**
 * eID sign-in's forms and words (issue 36, decision 0150), browser-safe. Registering with a
 * verified eID asks what the registration asks but the names (the eID's, not editable) and a
 * password (it signs in with eID; a password can be set later by a reset link).
 */

const contactFields = {
	email: emailAddress(),
	mobile: mobileNumber(),
}

export const EidRegisterSchema = z.discriminatedUnion(
	'role',
	[
		z.object({ role: z.literal('customer'), ...contactFields }),
		z.object({
			role: z.literal('workshop'),
			...contactFields,
			companyName: nameText(),
			workshopName: nameText(),
			companyId: companyId(),
		}),
	],
	{ error: messages.required },
)

export type EidRegistration = z.infer<typeof EidRegisterSchema>

/** The profile's form while an eID is linked: the names are the eID's, only the number changes. */
export const VerifiedProfileSchema = z.object({ mobile: mobileNumber() })

/** What the settings show of a linked eID: never the personal code, only where it is from and since when. */
export type LinkedEid = {
	country: string
	linkedAt: string
	lastUsedAt: string | null
}

/** The ways an account can sign in; an eID may be unlinked only while another one is left. Passkeys join this list. */
export const signInMethodKinds = ['password', 'eid'] as const
export type SignInMethodKind = (typeof signInMethodKinds)[number]
