/**
 * A booking's life as data (issue 33), like the service flow's statuses (service-flow/status.ts):
 * the steps of a job with an agreed time, within the request's "Work in progress", and every move
 * as a row — who makes it, from which statuses, to which one. The database enum, the moves
 * (booking-moves.server.ts) and every page ask this module; nothing else compares status strings.
 *
 * Browser-safe: no imports.
 */

export const bookingStatuses = [
	// The job's steps, in order: its bay and time are held.
	'booked',
	'car_received',
	'in_work',
	'ready',
	// Ended: the time is free again (what was left of it).
	'done',
	'cancelled',
	'no_show',
	'not_taken',
] as const
export type BookingStatus = (typeof bookingStatuses)[number]

/** The statuses that hold the bay and time (the exclusion constraint of migration 0036 says the same). */
export const holdingStatuses = ['booked', 'car_received', 'in_work', 'ready'] as const satisfies readonly BookingStatus[]

/** The job's steps a customer follows on /work-progress, in order, with the request's "Work in progress" around them. */
export const jobSteps = ['booked', 'car_received', 'in_work', 'ready', 'done'] as const satisfies readonly BookingStatus[]

/** A proposal to move a booked time: waiting for the other side, or answered. */
export const bookingChangeStatuses = ['waiting', 'accepted', 'declined', 'withdrawn'] as const
export type BookingChangeStatus = (typeof bookingChangeStatuses)[number]

export type BookingActor = 'customer' | 'workshop' | 'flow'

type Move = { readonly from: readonly BookingStatus[]; readonly to: BookingStatus | null; readonly by: readonly BookingActor[] }

export const bookingMoves = {
	/** The workshop has the car. */
	receiveCar: { from: ['booked'], to: 'car_received', by: ['workshop'] },
	/** The work starts. */
	startWork: { from: ['car_received'], to: 'in_work', by: ['workshop'] },
	/** The car can be picked up (told by bell and e-mail above all). */
	markReady: { from: ['car_received', 'in_work'], to: 'ready', by: ['workshop'] },
	/** The offer's job was completed (job-moves completeJob): the booking is done, whatever step it was at. */
	finish: { from: ['booked', 'car_received', 'in_work', 'ready'], to: 'done', by: ['flow'] },
	/** Either side proposes another time, while the car is not yet there; the other answers. */
	proposeChange: { from: ['booked'], to: null, by: ['customer', 'workshop'] },
	/** Cancelled: free until the site's notice before the start, later only by agreement (the workshop's). */
	cancel: { from: ['booked'], to: 'cancelled', by: ['customer', 'workshop', 'flow'] },
	/** After the start, the workshop says the customer did not come: the rest of the slot is free. */
	markNoShow: { from: ['booked'], to: 'no_show', by: ['workshop'] },
	/** After the start, the customer says the workshop did not take the car. */
	markNotTaken: { from: ['booked'], to: 'not_taken', by: ['customer'] },
} as const satisfies Record<string, Move>
export type BookingMove = keyof typeof bookingMoves

/** Whether `move` may be made on a booking in `status` (by `actor`, when given). */
export function canBooking(move: BookingMove, status: BookingStatus, actor?: BookingActor): boolean {
	const row: Move = bookingMoves[move]
	return row.from.includes(status) && (actor === undefined || row.by.includes(actor))
}

/** The status a move leads to (the same one for a move that keeps it). */
export function bookingAfter(move: BookingMove, status: BookingStatus): BookingStatus {
	return bookingMoves[move].to ?? status
}

/** Whether a booking in `status` holds its bay and time. */
export function holdsTime(status: BookingStatus): boolean {
	return (holdingStatuses as readonly BookingStatus[]).includes(status)
}

/** A customer's record is shown to workshops once they have had this many bookings come due. */
export const RECORD_MINIMUM = 3
