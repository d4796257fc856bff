import { type ImageSource } from '~/uploads/upload-url'
import { type ShownLine, type VatMode } from './offer-kinds'
import { type ExtraWorkStatus } from './status'

/**
 * Extra work during a job (issue 19): the chosen workshop asks, with a reason, lines priced as an
 * offer's and up to three photos; the customer approves or declines. Nothing is added to the
 * price without that yes. Browser-safe, and without zod: the customer's page needs only this (its
 * form's schema is extra-work-schema.ts).
 */

/** Photos a request for extra work may carry (what the workshop found). */
export const MAX_EXTRA_WORK_IMAGES = 3
/** Requests for extra work one job may have, answered or not: more is not a job any more, but a new request. */
export const MAX_EXTRA_WORK_REQUESTS = 10

/** The customer's answer to one request for extra work (the button pressed). */
export const extraWorkAnswers = ['approve', 'decline'] as const
export type ExtraWorkAnswer = (typeof extraWorkAnswers)[number]

/** A request for extra work as both sides' pages show it. */
export type ExtraWorkItem = {
	id: string
	reason: string
	status: ExtraWorkStatus
	vatMode: VatMode
	priceCents: number
	labourCents: number
	partsCents: number
	feesCents: number
	vatCents: number
	createdAt: string
	answeredAt: string | null
	lines: ShownLine[]
	images: Array<{ id: string; source: ImageSource | null }>
}

/** What the customer has agreed to pay: the offer's price and every approved extra work. */
export const bindingTotalCents = (offer: { priceCents: number; approvedExtraCents: number }) => offer.priceCents + offer.approvedExtraCents
