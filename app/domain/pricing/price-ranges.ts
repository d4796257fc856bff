/**
 * The usual price of a service (issue 35, docs/decisions/0146): what completed jobs were paid, as
 * the 25th, 50th and 75th percentile, by service, vehicle class and county. Browser-safe: the
 * thresholds, the shape pages show and the verdict beside an offer.
 */
import { type VehicleClass } from '~/domain/service-flow/vehicle-kinds'

/** A range is shown only where it rests on at least this many completed jobs… */
export const RANGE_MIN_JOBS = 5
/** …done by at least this many workshops (so no one workshop's prices can be read from it). */
export const RANGE_MIN_WORKSHOPS = 3
/** The jobs counted: those completed in this many months up to the day of the recomputation. */
export const RANGE_PERIOD_MONTHS = 24

export type PriceRange = {
	serviceId: string
	vehicleClass: VehicleClass
	county: string
	/** The paid totals with VAT, in cents: a quarter paid less than p25, a quarter more than p75. */
	p25Cents: number
	p50Cents: number
	p75Cents: number
	jobs: number
	workshops: number
	/** The period of the jobs counted, as days (YYYY-MM-DD). */
	periodFrom: string
	periodTo: string
}

/** Whether a group of completed jobs is enough for a range. */
export const rangeShown = (jobs: number, workshops: number) => jobs >= RANGE_MIN_JOBS && workshops >= RANGE_MIN_WORKSHOPS

export type RangeVerdict = 'below' | 'within' | 'above'

/**
 * Where a price (with VAT, cents) stands against the usual range: within p25–p75 (the range pages
 * show), below or above it; null where there is no range (never a verdict without one).
 */
export function rangeVerdict(totalCents: number, range: Pick<PriceRange, 'p25Cents' | 'p75Cents'> | null | undefined): RangeVerdict | null {
	if (!range || !Number.isFinite(totalCents)) return null
	if (totalCents < range.p25Cents) return 'below'
	if (totalCents > range.p75Cents) return 'above'
	return 'within'
}

/**
 * The `p` percentile of sorted values with linear interpolation, as PostgreSQL's `percentile_cont`
 * computes it (the recomputation's SQL; tests compare the two), rounded to the cent.
 */
export function percentileCont(sorted: readonly number[], p: number): number {
	if (sorted.length === 0) throw new RangeError('percentileCont of nothing')
	const at = p * (sorted.length - 1)
	const below = Math.floor(at)
	const above = Math.ceil(at)
	return Math.round(sorted[below]! + (sorted[above]! - sorted[below]!) * (at - below))
}
