import { type PartQuality, partQualities } from './offer-kinds'
import { type OfferForCustomer } from './requests'

/**
 * The rows of the offers' comparison (issue 19, part 2), in order, and which offers hold the best
 * value in each. The page asks this; it never decides what "best" means itself.
 */
export const comparisonRows = ['total', 'labour', 'parts', 'partQuality', 'earliestStart', 'duration', 'warranty', 'rating', 'responseTime', 'city'] as const
export type ComparisonRow = (typeof comparisonRows)[number]

export type Comparable = Pick<
	OfferForCustomer,
	| 'id'
	| 'priceCents'
	| 'labourCents'
	| 'partsCents'
	| 'lines'
	| 'earliestStart'
	| 'durationDays'
	| 'warrantyWorkKm'
	| 'warrantyPartsMonths'
	| 'ratingAverage'
	| 'reviewCount'
	| 'responseMinutes'
>

/** The rows an offer of one price (no lines) leaves out: they say "not itemised", never "best" (issue 32). */
export const itemisedRows: readonly ComparisonRow[] = ['labour', 'parts', 'partQuality']

/** Whether the row is one the offer leaves out because it is a lump sum. */
export const notItemised = (row: ComparisonRow, offer: Pick<Comparable, 'lines'>) => offer.lines.length === 0 && itemisedRows.includes(row)

/** An offer's sum of a kind of line, only where it has lines of that kind: €0 of parts no line names is no price of parts. */
const sumOf = (offer: Comparable, kind: 'labour' | 'part', cents: number | null) => (offer.lines.some((line) => line.kind === kind) ? cents : null)

/** How each row ranks its values: lower or higher is better; null where an offer does not say. City and part quality have no best. */
const rankings: Partial<Record<ComparisonRow, { value: (offer: Comparable) => number | string | null; better: 'lower' | 'higher' }>> = {
	total: { value: (offer) => offer.priceCents, better: 'lower' },
	labour: { value: (offer) => sumOf(offer, 'labour', offer.labourCents), better: 'lower' },
	parts: { value: (offer) => sumOf(offer, 'part', offer.partsCents), better: 'lower' },
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
		const given = offers
			.filter((offer) => !notItemised(row, offer))
			.map((offer) => ({ id: offer.id, value: ranking.value(offer) }))
			.filter((entry) => entry.value !== null)
		if (given.length < 2) continue
		const values = given.map((entry) => entry.value!)
		const top = values.reduce((a, b) => ((ranking.better === 'lower' ? b < a : b > a) ? b : a))
		best[row] = given.filter((entry) => entry.value === top).map((entry) => entry.id)
	}
	return best
}

/** How many of an offer's part lines are of each quality, how many do not say, and how many are used. */
export type PartQualityCount = { quality: PartQuality | 'notStated'; count: number }

export function partQualityCounts(lines: Comparable['lines']): { qualities: PartQualityCount[]; used: number } {
	const parts = lines.filter((line) => line.kind === 'part')
	const qualities = [...partQualities, 'notStated' as const]
		.map((quality) => ({ quality, count: parts.filter((line) => (line.quality ?? 'notStated') === quality).length }))
		.filter((entry) => entry.count > 0)
	return { qualities, used: parts.filter((line) => line.used).length }
}
