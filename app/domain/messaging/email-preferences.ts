import * as z from 'zod/mini'
import { type Role } from '~/utils/route-access'
import { messages } from '~/utils/validation'

/**
 * The kinds of e-mail a person may turn off (issue 15, docs/decisions/0077). Account e-mails
 * (welcome, password reset) and billing (invoices, subscription changes) are not among them:
 * they are always sent.
 */
export const emailKinds = ['newRequests', 'offers', 'offerOutcomes', 'jobUpdates', 'reminders', 'reviews', 'chat'] as const
export type EmailKind = (typeof emailKinds)[number]

/** Which kinds each role receives, in the order the settings page lists them. */
export const emailKindsFor: Record<Role, readonly EmailKind[]> = {
	customer: ['offers', 'jobUpdates', 'reminders', 'reviews', 'chat'],
	workshop: ['newRequests', 'offerOutcomes', 'reviews', 'chat'],
	admin: [],
}

/** New matching requests reach a workshop at once, in the morning digest, or not at all. */
export const newRequestModes = ['instant', 'digest', 'off'] as const
export type NewRequestMode = (typeof newRequestModes)[number]

/** As stored on the user: only what differs from the default ("on", and "instant" for new requests). */
export type EmailPreferences = Partial<Record<EmailKind, string>>

export function newRequestMode(preferences: EmailPreferences): NewRequestMode {
	const mode = preferences.newRequests
	return mode === 'digest' || mode === 'off' ? mode : 'instant'
}

/** Whether an e-mail of this kind goes out at once (the digest collects new requests otherwise). */
export function wantsNow(preferences: EmailPreferences, kind: EmailKind): boolean {
	return kind === 'newRequests' ? newRequestMode(preferences) === 'instant' : preferences[kind] !== 'off'
}

/** What the settings form shows a person of this role: the kinds to tick, those on, and (workshops) the new-request mode. */
export function emailSettings(role: Role, preferences: EmailPreferences) {
	const kinds = emailKindsFor[role].filter((kind) => kind !== 'newRequests')
	return {
		kinds,
		on: kinds.filter((kind) => wantsNow(preferences, kind)),
		newRequests: emailKindsFor[role].includes('newRequests') ? newRequestMode(preferences) : null,
	}
}

/** The settings form: the kinds left on (checkboxes), and the new-request mode for workshops. */
export const EmailPreferencesSchema = z.object({
	emails: z._default(z.array(z.enum(emailKinds, { error: messages.required })).check(z.maxLength(emailKinds.length)), []),
	newRequests: z.optional(z.enum(newRequestModes, { error: messages.required })),
})

/** The stored preferences after the form, for a person of this role. */
export function preferencesFromForm(role: Role, input: z.infer<typeof EmailPreferencesSchema>): EmailPreferences {
	const preferences: EmailPreferences = {}
	for (const kind of emailKindsFor[role]) {
		if (kind === 'newRequests') {
			const mode = input.newRequests ?? 'instant'
			if (mode !== 'instant') preferences.newRequests = mode
		} else if (!input.emails.includes(kind)) preferences[kind] = 'off'
	}
	return preferences
}
