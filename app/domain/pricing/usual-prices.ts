/**
 * The usual price shown where a customer decides (issue 35, docs/decisions/0149): on the request
 * form beside the services chosen, and beside each offer's total on the comparison. Browser-safe:
 * the query the form's live look-up sends, and the shapes the pages render (amounts and the period
 * already formatted by the server in the reader's language).
 */
import * as z from 'zod/mini'
import { type County } from '~/domain/directory/counties'
import { type VehicleClass } from '~/domain/service-flow/vehicle-kinds'
import { type RangeVerdict } from './price-ranges'

/**
 * How many services one look-up names at most: more than a request may (the form says so when it
 * is sent; meanwhile every service ticked has its price), fewer than would make it a bulk query.
 */
export const MAX_LOOKED_UP_SERVICES = 50

/**
 * The request form's choices as its live look-up sends them (`/resources/usual-prices?vehicle=…&city=…&service=…`):
 * the ids the form's own fields hold. No city ("any city") is allowed: the answer then says to choose one.
 */
export const UsualPricesQuerySchema = z.object({
	vehicle: z.string().check(z.uuid()),
	city: z.optional(z.string().check(z.uuid())),
	service: z.array(z.string().check(z.uuid())).check(z.minLength(1), z.maxLength(MAX_LOOKED_UP_SERVICES)),
})
export type UsualPricesQuery = z.output<typeof UsualPricesQuerySchema>

/** The query's fields from a URL's search (or a form's fields of the same names). */
export const usualPricesQueryOf = (params: URLSearchParams) => ({
	vehicle: params.get('vehicle') ?? '',
	city: params.get('city') || undefined,
	service: params.getAll('service'),
})

/** A range as the pages show it: p25–p75 and the median in whole euros, the counts, the period's months. */
export type ShownRange = { range: string; median: string; jobs: number; workshops: number; period: string }

/**
 * The usual price of each service chosen, for the chosen vehicle's class in the chosen city's
 * county. `county` is null without a city (`cityChosen` false: the form asks for one) or for a
 * city not yet placed in a county; a service's `range` is null where there are not enough jobs.
 */
export type UsualPrices = {
	vehicleClass: VehicleClass
	county: County | null
	cityChosen: boolean
	services: Array<{ id: string; name: string; range: ShownRange | null }>
}

/** Beside an offer's total: where its binding total with VAT stands against the usual range there. */
export type OfferRange = { verdict: RangeVerdict; range: string }
