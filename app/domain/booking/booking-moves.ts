/**
 * The booked job's forms (issue 33), browser-safe: the intents the pages post and what each step
 * button is called. The moves themselves are booking-moves.server.ts.
 */

/** What the booking forms post as `intent` (beside the pages' own intents). */
export const bookingIntents = ['bookingStep', 'proposeTime', 'answerChange', 'withdrawChange', 'cancelBooking', 'noShow', 'notTaken'] as const
export type BookingIntent = (typeof bookingIntents)[number]

export function isBookingIntent(value: unknown): value is BookingIntent {
	return (bookingIntents as readonly unknown[]).includes(value)
}

/** The workshop's step buttons, in order: the move and the status it leads to. */
export const workshopSteps = ['receiveCar', 'startWork', 'markReady'] as const
export type WorkshopStep = (typeof workshopSteps)[number]

/** What a booking form answers when it is refused about its one field (the time chosen). */
export type BookingFormReply = { intent: BookingIntent; startsAt?: string; startsAtErrors?: string[] }
