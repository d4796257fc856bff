/**
 * The final bill (issue 19): the workshop enters the final price; above the binding total it must
 * say why, and the customer confirms or disputes the bill before the job is complete. A dispute
 * goes to the administrators, who settle it at the bill or at the binding total. Browser-safe,
 * without zod (the forms' schemas are final-bill-schema.ts).
 */

/** The longest reason a workshop or a customer may give about a bill. */
export const MAX_BILL_REASON = 1000

/** How an administrator settles a disputed bill: the workshop's bill stands, or the binding total is paid. */
export const billDecisions = ['billed', 'binding'] as const
export type BillDecision = (typeof billDecisions)[number]

/** Whether a final price needs the customer's yes: it is above what they agreed to pay. */
export const billNeedsConsent = (finalPriceCents: number, bindingCents: number) => finalPriceCents > bindingCents

/** A dispute as the administrators' queue shows it. */
export type BillDisputeItem = {
	id: string
	requestSlug: string
	services: string
	customerName: string
	workshopName: string
	bindingCents: number
	billedCents: number
	billReason: string
	reason: string
	createdAt: string
	decision: BillDecision | null
	note: string | null
	settledCents: number | null
	resolvedAt: string | null
	resolvedBy: string | null
}
