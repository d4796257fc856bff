import { z } from 'zod'

/** A message for the user: a translation key (in any namespace, "ns:key") and its parameters. */
export const ToastSchema = z.object({
	type: z.enum(['success', 'error', 'warning', 'info']).default('info'),
	key: z.string().min(1),
	params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
	/** Distinguishes two identical toasts in a row. */
	id: z.string().optional(),
})
export type Toast = z.infer<typeof ToastSchema>
export type ToastInput = z.input<typeof ToastSchema>
