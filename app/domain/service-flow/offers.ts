import { z } from 'zod'
import { moneyAmount, optionalText } from '~/utils/validation'
import { offerStatuses } from './status'

/** A workshop's offer (bid): price, notes, description; an optional PDF is checked apart. */
export const OfferSchema = z.object({
	price: moneyAmount(),
	notes: optionalText(1000),
	description: optionalText(4000),
})
export type OfferInput = z.output<typeof OfferSchema>

/** Completing the job: the final price (actual bill amount). */
export const CompleteJobSchema = z.object({ finalPrice: moneyAmount() })

export const offerSorts = ['price', 'rating', 'newest'] as const

/** The bid history's filters: all, or one offer status. */
export const bidFilters = ['all', ...offerStatuses] as const
export type BidFilter = (typeof bidFilters)[number]
