import * as z from 'zod/mini'
import { supportedLanguages } from '~/i18n/config'
import { companyId, emailAddress, messages, mobileNumber, nameText, password, typedPassword } from '~/utils/validation'

/** The account forms (spec §5), one schema each, shared by the portal and the JSON API. */

export const LoginSchema = z.object({
	email: emailAddress(),
	// As typed, whatever its length: the rules apply when a password is chosen, not when one is
	// typed to log in; a longer one is a failed login, never cut to a shorter one (decision 0121).
	password: typedPassword(),
})

const samePasswords = z.refine<{ password: string; confirmPassword: string }>((value) => value.password === value.confirmPassword, {
	path: ['confirmPassword'],
	message: messages.passwordMismatch,
})

const personFields = {
	firstName: nameText(),
	lastName: nameText(),
	email: emailAddress(),
	mobile: mobileNumber(),
	password: password(),
	confirmPassword: typedPassword(),
}

export const RegisterSchema = z
	.discriminatedUnion(
		'role',
		[
			z.object({ role: z.literal('customer'), ...personFields }),
			z.object({
				role: z.literal('workshop'),
				...personFields,
				companyName: nameText(),
				workshopName: nameText(),
				companyId: companyId(),
			}),
		],
		{ error: messages.required },
	)
	.check(samePasswords)

export type Registration = z.infer<typeof RegisterSchema>

export const ForgotPasswordSchema = z.object({ email: emailAddress() })

export const ResetPasswordSchema = z.object({ password: password(), confirmPassword: typedPassword() }).check(samePasswords)

export const ProfileSchema = z.object({
	firstName: nameText(),
	lastName: nameText(),
	mobile: mobileNumber(),
})

export const ChangePasswordSchema = z
	.object({
		// Spec §5: the old password is required, at least 8 characters.
		oldPassword: z.string({ error: messages.required }).check(z.minLength(8, messages.min8)),
		password: password(),
		confirmPassword: typedPassword(),
	})
	.check(samePasswords)

export const LanguageSchema = z.object({
	language: z.enum(supportedLanguages, { error: messages.required }),
})
