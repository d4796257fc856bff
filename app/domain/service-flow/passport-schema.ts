import * as z from 'zod/mini'
import { tallinnDay } from '~/utils/time'
import { localDate, moneyAmount, optionalText, requiredText } from '~/utils/validation'
import { odometerReading } from './reading-schema'

/** The longest description of work done elsewhere. */
export const MAX_RECORD_TEXT = 1000

/**
 * Work done elsewhere, added to the vehicle's history by its owner: when (not in the future), at
 * what mileage (the server checks it against the history), what, by whom, for how much. An
 * optional PDF is checked apart.
 */
export const ServiceRecordSchema = z
	.object({
		performedOn: localDate(),
		mileage: odometerReading(),
		description: requiredText(MAX_RECORD_TEXT),
		workshopName: optionalText(120),
		price: z.optional(moneyAmount()),
	})
	.check(
		z.superRefine((record, context) => {
			if (record.performedOn > tallinnDay()) context.addIssue({ code: 'custom', path: ['performedOn'], message: 'customer:passport.futureDate' })
		}),
	)
export type ServiceRecordInput = z.output<typeof ServiceRecordSchema>

/** Removing a record the owner added. */
export const DeleteRecordSchema = z.object({ record: z.string().check(z.uuid()) })

/** Making (or renewing) or turning off one of the vehicle's private links: its calendar, its history for a buyer. */
export const VehicleLinkSchema = z.object({ link: z.enum(['calendar', 'history']), action: z.enum(['make', 'revoke']) })
export type VehicleLinkInput = z.output<typeof VehicleLinkSchema>
