import * as z from 'zod/mini'
import { moneyAmount, optionalText, requiredText } from '~/utils/validation'
import { billDecisions, MAX_BILL_REASON } from './final-bill'
import { odometerReading } from './reading-schema'

/**
 * Completing the job: the final price (actual bill amount), and why, when it is above the binding
 * total (the server knows that total, and asks for the reason: FieldError 'reason'); the vehicle's
 * mileage at the job (issue 20: not below the last recorded one, FieldError 'mileage'). An
 * optional invoice or receipt PDF is checked apart.
 */
export const CompleteJobSchema = z.object({
	finalPrice: moneyAmount(),
	mileage: odometerReading(),
	reason: optionalText(MAX_BILL_REASON),
})

/** The customer disputes a bill above the binding total: why (the administrators read it). */
export const DisputeBillSchema = z.object({ reason: requiredText(MAX_BILL_REASON) })

/** An administrator settles a dispute: at the bill or at the binding total, and why (the audit log keeps it). */
export const SettleBillSchema = z.object({
	dispute: z.string().check(z.uuid()),
	decision: z.enum(billDecisions, { error: 'validation.unknownChoice' }),
	note: requiredText(MAX_BILL_REASON),
})
