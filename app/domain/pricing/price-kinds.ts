/**
 * The kinds a price list's item may be (issue 35): the database's enums (app/db/schema.ts) and the
 * forms' choices. Here, not in the schema or a form module, so browser code and the schema share
 * them without pulling each other (as `service-flow/offer-kinds.ts`).
 */

/**
 * An engine's size where a price depends on it (an oil change takes more oil in a bigger engine):
 * `any` where it does not. An electric car's items are always `any` (docs/decisions/0146).
 */
export const engineBands = ['any', 'up_to_1600', '1600_2500', 'over_2500'] as const
export type EngineBand = (typeof engineBands)[number]

/** The band of an engine of `cc` cm³; null when the owner did not say (only `any` items fit it then). */
export function engineBandOf(cc: number | null | undefined): Exclude<EngineBand, 'any'> | null {
	if (cc == null || !Number.isFinite(cc) || cc <= 0) return null
	if (cc <= 1600) return 'up_to_1600'
	if (cc <= 2500) return '1600_2500'
	return 'over_2500'
}

/** Whether an item of `band` fits a vehicle whose engine is `cc` cm³. */
export const bandFits = (band: EngineBand, cc: number | null | undefined) => band === 'any' || band === engineBandOf(cc)
