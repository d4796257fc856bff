import { type OfferForCustomer } from './requests'

/**
 * The rows of the offers' comparison (issue 19, part 2), in order, and which offers hold the best
 * value in each. The page asks this; it never decides what "best" means itself.
 */
export const comparisonRows = ['total', 'labour', 'parts', 'earliestStart', 'duration', 'warranty', 'rating', 'responseTime', 'city'] as const
export type ComparisonRow = (typeof comparisonRows)[number]

export type Comparable = Pick<
	OfferForCustomer,
	'id' | 'priceCents' | 'labourCents' | 'partsCents' | 'earliestStart' | 'durationDays' | 'warrantyWorkKm' | 'warrantyPartsMonths' | 'ratingAverage' | 'reviewCount' | 'responseMinutes'
>

/** How each row ranks its values: lower or higher is better; null where an offer does not say. City has no best. */
const rankings: Partial<Record<ComparisonRow, { value: (offer: Comparable) => number | string | null; better: 'lower' | 'higher' }>> = {
	total: { value: (offer) => offer.priceCents, better: 'lower' },
	labour: { value: (offer) => offer.labourCents, better: 'lower' },
	parts: { value: (offer) => offer.partsCents, better: 'lower' },
	earliestStart: { value: (offer) => offer.earliestStart, better: 'lower' },
	duration: { value: (offer) => offer.durationDays, better: 'lower' },
	// The work's warranty in km first, the parts' in months on a tie; none given is no value.
	warranty: {
		value: (offer) => (offer.warrantyWorkKm || offer.warrantyPartsMonths ? (offer.warrantyWorkKm ?? 0) * 1000 + (offer.warrantyPartsMonths ?? 0) : null),
		better: 'higher',
	},
	rating: { value: (offer) => (offer.reviewCount > 0 ? offer.ratingAverage : null), better: 'higher' },
	responseTime: { value: (offer) => offer.responseMinutes, better: 'lower' },
}

/**
 * For each row, the ids of the offers with its best value (all of them on a tie). A row where
 * fewer than two offers give a value marks none: one offer is not "best" among itself.
 */
export type BestInRows = Record<ComparisonRow, string[]>

export function bestInRows(offers: Comparable[]): BestInRows {
	const best = Object.fromEntries(comparisonRows.map((row) => [row, [] as string[]])) as BestInRows
	for (const row of comparisonRows) {
		const ranking = rankings[row]
		if (!ranking) continue
		const given = offers.map((offer) => ({ id: offer.id, value: ranking.value(offer) })).filter((entry) => entry.value !== null)
		if (given.length < 2) continue
		const values = given.map((entry) => entry.value!)
		const top = values.reduce((a, b) => ((ranking.better === 'lower' ? b < a : b > a) ? b : a))
		best[row] = given.filter((entry) => entry.value === top).map((entry) => entry.id)
	}
	return best
}
