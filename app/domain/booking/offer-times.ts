/**
 * An offer's time (issue 33), browser-safe: how long the car is in the bay, entered as hours and
 * minutes (a mechanic quotes hours), or left to the labour lines' hours; and the window an offer
 * of "any free time" may be booked in. The schema's fields are in service-flow/offers.ts.
 */
import { tallinnToDate } from '~/utils/time'
import { addDays } from './calendar'

/** An offer proposes at most this many start times. */
export const MAX_PROPOSED_STARTS = 3
/** The bay's time an offer may take (offers_booking_minutes in the schema). */
export const MIN_BOOKING_MINUTES = 10
export const MAX_BOOKING_MINUTES = 1440
/** How many free times an offer of any free time lets the customer choose from. */
export const ANY_TIME_CHOICES = 6

/** Labour hours (in hundredths, as the lines keep them) as minutes in the bay, up to the next quarter hour. */
export function labourMinutes(lines: ReadonlyArray<{ kind: string; quantity: number }>): number | null {
	const hundredths = lines.filter((line) => line.kind === 'labour').reduce((sum, line) => sum + line.quantity, 0)
	if (!hundredths) return null
	return Math.min(MAX_BOOKING_MINUTES, Math.max(15, Math.ceil((hundredths * 60) / 100 / 15) * 15))
}

/** The bay's minutes an offer's terms give: its hours and minutes, else its labour lines' hours, else none. */
export function bookingMinutesOf(terms: { bayHours?: number; bayMinutes?: number; lines?: ReadonlyArray<{ kind: string; quantity: number }> }): number | null {
	if (terms.bayHours !== undefined || terms.bayMinutes !== undefined) return (terms.bayHours ?? 0) * 60 + (terms.bayMinutes ?? 0)
	return labourMinutes(terms.lines ?? [])
}

/** Minutes as the form's two fields. */
export function bayFields(minutes: number | null): { bayHours: string; bayMinutes: string } {
	if (!minutes) return { bayHours: '', bayMinutes: '' }
	return { bayHours: String(Math.floor(minutes / 60)), bayMinutes: String(minutes % 60) }
}

/** The first instant after the offer's last valid day in Tallinn ("until the offer's validity"), or undefined. */
export function validityEnd(validUntil: string | null | undefined): Date | undefined {
	return validUntil ? tallinnToDate(`${addDays(validUntil, 1)}T00:00`) : undefined
}
