import * as z from 'zod/mini'

/** A message for the user: a translation key (in any namespace, "ns:key") and its parameters. */
export const ToastSchema = z.object({
	type: z._default(z.enum(['success', 'error', 'warning', 'info']), 'info'),
	key: z.string().check(z.minLength(1)),
	params: z.optional(z.record(z.string(), z.union([z.string(), z.number()]))),
	/** Distinguishes two identical toasts in a row. */
	id: z.optional(z.string()),
})
export type Toast = z.infer<typeof ToastSchema>
export type ToastInput = z.input<typeof ToastSchema>
