import { type Language } from '~/i18n/config'
import { formatDateTime } from '~/utils/format'
import { bookingSettings, checkFreeStart, freeTimes } from './calendar.server'
import { ANY_TIME_CHOICES, validityEnd } from './offer-times'

/** A start a customer may choose, with its label in the reader's language (Tallinn time); `free` false: taken since it was proposed. */
export type TimeChoice = { value: string; label: string; free: boolean }
type TimedOffer = { workshopId: string; bookingMinutes: number | null; proposedStarts: string[]; anyFreeTime: boolean; validUntil: string | null }

export const hasTimes = (offer: Pick<TimedOffer, 'proposedStarts' | 'anyFreeTime'>) => offer.anyFreeTime || offer.proposedStarts.length > 0

/**
 * The times an offer lets its customer choose on the compare page (issue 33): its proposed starts,
 * each marked whether it is still free, or with any free time the workshop's next free starts for
 * the offer's length before its validity ends. `limit` shortens the list (the next free times
 * after a refusal).
 */
export async function timeChoices(offer: TimedOffer, language: Language, limit = ANY_TIME_CHOICES): Promise<TimeChoice[]> {
	if (!hasTimes(offer)) return []
	const durationMinutes = offer.bookingMinutes ?? (await bookingSettings()).typicalMinutes
	const label = (start: Date) => formatDateTime(start, language)
	if (offer.anyFreeTime) {
		const free = await freeTimes(offer.workshopId, { durationMinutes, limit, until: validityEnd(offer.validUntil) })
		return free.map((start) => ({ value: start.startsAt.toISOString(), label: label(start.startsAt), free: true }))
	}
	const choices = await Promise.all(
		offer.proposedStarts.map(async (text) => {
			const start = new Date(text)
			return { value: start.toISOString(), label: label(start), free: (await checkFreeStart(offer.workshopId, start, durationMinutes)).ok }
		}),
	)
	return limit < ANY_TIME_CHOICES ? choices.filter((choice) => choice.free).slice(0, limit) : choices
}
