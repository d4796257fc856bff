import * as z from 'zod/mini'
import { requiredText } from '~/utils/validation'

/**
 * A vehicle's change of owner (issue 32, docs/decisions/0123): the seller's one-time code and the
 * buyer's claim form. Browser-safe; the rules are vehicle-transfer.server.ts.
 */

/** A code holds this many days unless it is claimed or revoked first. */
export const TRANSFER_DAYS = 14
/** Letters and digits that cannot be mistaken for each other when read aloud or typed from paper. */
export const TRANSFER_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
export const TRANSFER_CODE_LENGTH = 10

/** As typed, "abcde fghjk" or "ABCDE-FGHJK": upper case, letters and digits only. */
export const normalizeTransferCode = (value: string) => value.toUpperCase().replace(/[^A-Z0-9]/g, '')

/** "ABCDEFGHJK" as shown: two groups of five. */
export const formatTransferCode = (code: string) => `${code.slice(0, 5)}-${code.slice(5)}`

/** The buyer's claim: the seller's code. */
export const ClaimVehicleSchema = z.object({
	code: z.pipe(
		z.pipe(requiredText(40), z.transform(normalizeTransferCode)),
		z.string().check(z.regex(new RegExp(`^[A-Z0-9]{${TRANSFER_CODE_LENGTH}}$`), 'customer:transfer.codeFormat')),
	),
})
export type ClaimVehicleInput = z.output<typeof ClaimVehicleSchema>
