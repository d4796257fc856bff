/**
 * The service flow's status model as data (docs/decisions/0030-status-model.md): the statuses of
 * a request and of an offer, and every move as a row of a table — which actor may make it, from
 * which statuses, to which one. The database enums, the transition functions in the `*-moves.server.ts` modules,
 * the queries and every page ask this module; nothing else compares status strings. A new state
 * (request expiry, extra work on a job) is added here first.
 *
 * Browser-safe: no imports.
 */

export const requestStatuses = ['pending', 'offer', 'in_progress', 'completed', 'cancelled', 'expired'] as const
export type RequestStatus = (typeof requestStatuses)[number]

export const offerStatuses = [
	'pending',
	'selected',
	'rejected',
	'job_completed',
	'request_cancelled',
	'request_expired',
	// A final bill above the binding total waits for the customer's yes, or was disputed (issue 19).
	'bill_proposed',
	'bill_disputed',
] as const
export type OfferStatus = (typeof offerStatuses)[number]

/** Extra work the chosen workshop asks for during the job (issue 19): waiting for the customer's answer, or answered. */
export const extraWorkStatuses = ['waiting', 'approved', 'declined', 'withdrawn'] as const
export type ExtraWorkStatus = (typeof extraWorkStatuses)[number]

/** Days after a request's first offer (since it was last opened) that it expires with nothing chosen. */
export const EXPIRY_DAYS = 14
/** How many times the customer may reopen an expired request. */
export const REOPEN_LIMIT = 1

/** Where a new request and a new offer start. */
export const initialStatus = { request: 'pending', offer: 'pending', extraWork: 'waiting' } as const satisfies {
	request: RequestStatus
	offer: OfferStatus
	extraWork: ExtraWorkStatus
}

/** Who makes a move: the request's customer, a workshop (its own offer), an administrator, or the flow itself as a consequence. */
export type Actor = 'customer' | 'workshop' | 'admin' | 'flow'

type Move<Status extends string> = { readonly from: readonly Status[]; readonly to: Status | null; readonly by: Actor }

/** A request's moves. `to: null` leaves the status as it is (an action allowed only in those states). */
export const requestMoves = {
	/** A workshop makes an offer: the first one turns `pending` into `offer`. */
	receiveOffer: { from: ['pending', 'offer'], to: 'offer', by: 'workshop' },
	/** The last pending offer is withdrawn: back to waiting. */
	loseLastOffer: { from: ['offer'], to: 'pending', by: 'workshop' },
	/** The customer selects one offer. */
	selectOffer: { from: ['offer'], to: 'in_progress', by: 'customer' },
	/**
	 * The job is done: the workshop's final price was within the binding total, or the customer
	 * confirmed a higher bill, or the administrators settled a disputed one (the offer's moves).
	 */
	complete: { from: ['in_progress'], to: 'completed', by: 'flow' },
	/** The customer asks more workshops while none is chosen: more services, or any city. */
	widen: { from: ['pending', 'offer'], to: null, by: 'customer' },
	/** The customer cancels while no offer is selected. */
	cancel: { from: ['pending', 'offer'], to: 'cancelled', by: 'customer' },
	/** The customer reviews the finished job (once). */
	review: { from: ['completed'], to: null, by: 'customer' },
	/** Nothing chosen `EXPIRY_DAYS` after the first offer: the request lapses (a background job). */
	expire: { from: ['offer'], to: 'expired', by: 'flow' },
	/** The customer asks again, once (`REOPEN_LIMIT`): back to waiting for offers. */
	reopen: { from: ['expired'], to: 'pending', by: 'customer' },
	/** The customer answers the chosen workshop's request for extra work, yes or no, while the job is under way (issue 19). */
	answerExtraWork: { from: ['in_progress'], to: null, by: 'customer' },
	/**
	 * The booked job ends before it was done (issue 33): cancelled by either side, or a no-show, or
	 * the workshop did not take the car; the booking's moves (booking/status.ts) decide who may.
	 */
	endBooking: { from: ['in_progress'], to: 'cancelled', by: 'flow' },
} as const satisfies Record<string, Move<RequestStatus>>
export type RequestMove = keyof typeof requestMoves

/** An offer's moves. */
export const offerMoves = {
	/** The workshop changes its offer while the customer has not decided. */
	edit: { from: ['pending'], to: null, by: 'workshop' },
	/** The workshop withdraws it (the row is deleted). */
	withdraw: { from: ['pending'], to: null, by: 'workshop' },
	/** The customer picks it. */
	select: { from: ['pending'], to: 'selected', by: 'customer' },
	/** Another offer on the request was selected. */
	reject: { from: ['pending'], to: 'rejected', by: 'flow' },
	/** The request was cancelled before a choice. */
	cancelWithRequest: { from: ['pending'], to: 'request_cancelled', by: 'flow' },
	/** The request expired before a choice. */
	expireWithRequest: { from: ['pending'], to: 'request_expired', by: 'flow' },
	/** The request it ended with was reopened: the workshop makes its offer again. */
	renew: { from: ['request_expired'], to: 'pending', by: 'workshop' },
	/** The workshop finishes the job with a final price at or below the binding total. */
	completeJob: { from: ['selected'], to: 'job_completed', by: 'workshop' },
	/** The workshop's final price is above the binding total: with a reason, it waits for the customer's yes (issue 19). */
	proposeBill: { from: ['selected'], to: 'bill_proposed', by: 'workshop' },
	/** The customer accepts the higher bill: the job is done at that price. */
	confirmBill: { from: ['bill_proposed'], to: 'job_completed', by: 'customer' },
	/** The customer disputes it: the administrators' queue decides. */
	disputeBill: { from: ['bill_proposed'], to: 'bill_disputed', by: 'customer' },
	/** An administrator settles the dispute at the bill or at the binding total: the job is done. */
	settleBill: { from: ['bill_disputed'], to: 'job_completed', by: 'admin' },
	/** While the job is under way, the workshop asks for extra work (issue 19; it starts `waiting`). */
	askExtraWork: { from: ['selected'], to: null, by: 'workshop' },
	/** Its booked job ended before it was done (the request's endBooking, issue 33). */
	endWithBooking: { from: ['selected'], to: 'request_cancelled', by: 'flow' },
} as const satisfies Record<string, Move<OfferStatus>>
export type OfferMove = keyof typeof offerMoves

/** A request for extra work's moves; it starts `waiting` (the offer's askExtraWork). */
export const extraWorkMoves = {
	/** The customer says yes: its price joins the binding total. */
	approve: { from: ['waiting'], to: 'approved', by: 'customer' },
	/** The customer says no: the job goes on at the price agreed so far. */
	decline: { from: ['waiting'], to: 'declined', by: 'customer' },
	/** The workshop takes it back before an answer. */
	withdraw: { from: ['waiting'], to: 'withdrawn', by: 'workshop' },
} as const satisfies Record<string, Move<ExtraWorkStatus>>
export type ExtraWorkMove = keyof typeof extraWorkMoves

/** Whether `move` may be made on extra work in `status` (by `actor`, when given). */
export function canExtraWork(move: ExtraWorkMove, status: ExtraWorkStatus, actor?: Actor): boolean {
	const row: Move<ExtraWorkStatus> = extraWorkMoves[move]
	return row.from.includes(status) && (actor === undefined || row.by === actor)
}

/**
 * What extra work's status means: whether it still waits for the customer (the job cannot be
 * completed meanwhile) and whether its price counts in the binding total.
 */
export const extraWorkStatusInfo = {
	waiting: { open: true, binding: false },
	approved: { open: false, binding: true },
	declined: { open: false, binding: false },
	withdrawn: { open: false, binding: false },
} as const satisfies Record<ExtraWorkStatus, { open: boolean; binding: boolean }>

/** Whether `move` may be made on a request in `status` (by `actor`, when given). */
export function canRequest(move: RequestMove, status: RequestStatus, actor?: Actor): boolean {
	const row: Move<RequestStatus> = requestMoves[move]
	return row.from.includes(status) && (actor === undefined || row.by === actor)
}

/** Whether `move` may be made on an offer in `status` (by `actor`, when given). */
export function canOffer(move: OfferMove, status: OfferStatus, actor?: Actor): boolean {
	const row: Move<OfferStatus> = offerMoves[move]
	return row.from.includes(status) && (actor === undefined || row.by === actor)
}

/** Whether the customer may reopen a request in `status` that was reopened `reopenCount` times. */
export function canReopen(status: RequestStatus, reopenCount: number): boolean {
	return canRequest('reopen', status, 'customer') && reopenCount < REOPEN_LIMIT
}

/** The status a move leads to (the same one for actions that keep it). */
export function requestAfter(move: RequestMove, status: RequestStatus): RequestStatus {
	return requestMoves[move].to ?? status
}
export function offerAfter(move: OfferMove, status: OfferStatus): OfferStatus {
	return offerMoves[move].to ?? status
}

/**
 * What each request status means to the people who see it: the step of the four-step flow
 * (spec §4), the phase a page explains, whether it is finished (history, not the open list) and
 * whether a workshop has been chosen.
 */
export const requestStatusInfo = {
	pending: { step: 1, phase: 'waiting', finished: false, chosen: false, page: 'request-details' },
	offer: { step: 2, phase: 'comparing', finished: false, chosen: false, page: 'request-details' },
	in_progress: { step: 3, phase: 'working', finished: false, chosen: true, page: 'request-details' },
	completed: { step: 4, phase: 'done', finished: true, chosen: true, page: 'service-details' },
	cancelled: { step: null, phase: 'cancelled', finished: true, chosen: false, page: 'service-details' },
	// Finished, but its page is the request's: the customer may reopen it there.
	expired: { step: null, phase: 'expired', finished: true, chosen: false, page: 'request-details' },
} as const satisfies Record<
	RequestStatus,
	{ step: 1 | 2 | 3 | 4 | null; phase: string; finished: boolean; chosen: boolean; page: 'request-details' | 'service-details' }
>
export type RequestPhase = (typeof requestStatusInfo)[RequestStatus]['phase']

/**
 * Whether an offer still waits for the customer's decision, whether it counts as a live offer on
 * its request, and whether its job is under way (chosen, not finished: the workshop's job list).
 */
export const offerStatusInfo = {
	pending: { decided: false, counted: true, working: false },
	selected: { decided: true, counted: true, working: true },
	bill_proposed: { decided: true, counted: true, working: true },
	bill_disputed: { decided: true, counted: true, working: true },
	job_completed: { decided: true, counted: true, working: false },
	rejected: { decided: true, counted: false, working: false },
	request_cancelled: { decided: true, counted: false, working: false },
	request_expired: { decided: true, counted: false, working: false },
} as const satisfies Record<OfferStatus, { decided: boolean; counted: boolean; working: boolean }>

export const requestPhase = (status: RequestStatus): RequestPhase => requestStatusInfo[status].phase
export const requestStep = (status: RequestStatus) => requestStatusInfo[status].step
/** The customer's page for a request in `status` (its slug appended). */
export const requestPagePath = (status: RequestStatus, slug: string) => `/${requestStatusInfo[status].page}/${slug}`
export const isRequestFinished = (status: RequestStatus) => requestStatusInfo[status].finished
/** Open to workshops' offers (and their questions about the job). */
export const isRequestOpen = (status: RequestStatus) => canRequest('receiveOffer', status)
/** An offer was selected: the job is under way or done. */
export const hasChosenWorkshop = (status: RequestStatus) => requestStatusInfo[status].chosen
export const isOfferDecided = (status: OfferStatus) => offerStatusInfo[status].decided
/** A final bill above the binding total waits for the customer's answer or an administrator's decision (issue 19). */
export const isBillOpen = (status: OfferStatus) => canOffer('confirmBill', status) || canOffer('settleBill', status)

/** Status lists for queries, read from the tables above. */
export const statusLists = {
	/** Requests workshops may still bid on. */
	openRequests: requestMoves.receiveOffer.from,
	/** Requests not finished yet (the customer's open list). */
	activeRequests: requestStatuses.filter((status) => !requestStatusInfo[status].finished),
	/** Finished requests (the service history). */
	finishedRequests: requestStatuses.filter((status) => requestStatusInfo[status].finished),
	/** Offers still awaiting the customer's decision. */
	undecidedOffers: offerStatuses.filter((status) => !offerStatusInfo[status].decided),
	/** Chosen offers whose job is not finished yet (the workshop's jobs). */
	jobsUnderWay: offerStatuses.filter((status) => offerStatusInfo[status].working),
	/** Offers that count on their request (not rejected or cancelled with it). */
	countedOffers: offerStatuses.filter((status) => offerStatusInfo[status].counted),
	/** Extra work still waiting for the customer's answer. */
	openExtraWork: extraWorkStatuses.filter((status) => extraWorkStatusInfo[status].open),
	/** Extra work whose price is part of the binding total. */
	bindingExtraWork: extraWorkStatuses.filter((status) => extraWorkStatusInfo[status].binding),
} as const
