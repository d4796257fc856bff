/** Passkeys' forms (issue 36): browser-safe, shared by the settings page and its action. */
import * as z from 'zod/mini'
import { choice, requiredText } from '~/utils/validation'

export const PASSKEY_NAME_MAX = 60

/** Adding a passkey: its name and the browser's answer (JSON), which the page's script fills in. */
export const AddPasskeySchema = z.object({
	intent: z.literal('add'),
	name: requiredText(PASSKEY_NAME_MAX),
	credential: z.string({ error: 'validation.required' }).check(z.minLength(1, 'validation.required'), z.maxLength(64_000, 'validation.tooLong')),
})
export type PasskeyName = z.infer<typeof AddPasskeySchema>['name']

export const RemovePasskeySchema = z.object({ intent: z.literal('remove'), passkeyId: choice() })
