import * as z from 'zod/mini'
import { type ImageSource } from '~/uploads/upload-url'
import { type PartQuality, type ShownLine, type VatMode } from './offer-kinds'
import { choice, localDateTime, messages, optionalText, requiredText } from '~/utils/validation'
import { type OfferStatus, type RequestStatus, requestStatuses } from './status'
import { type OdometerUnit } from './vehicle-kinds'

export const MAX_REQUEST_IMAGES = 3
/** How many services one request may name. */
export const MAX_REQUEST_SERVICES = 10

/** Step 1 of the service flow (spec §3 service request, §5). Images are checked apart, by content. */
export const ServiceRequestSchema = z.object({
	vehicleId: choice(),
	serviceIds: z.array(z.string().check(z.uuid(messages.choose)), { error: messages.choose }).check(z.minLength(1, messages.choose), z.maxLength(MAX_REQUEST_SERVICES)),
	preferredAt: localDateTime().check(z.refine((date) => date.getTime() > Date.now() - 5 * 60 * 1000, 'validation.futureDate')),
	location: requiredText(200),
	cityId: z.optional(z.string().check(z.uuid())),
	details: requiredText(2000),
	notes: optionalText(1000),
	/** The workshop asked from its page ("Ask for an offer"): always told, whatever its filters. */
	workshopId: z.optional(z.string().check(z.uuid())),
	/** With a workshop named: ask the other matching workshops too (ticked unless the customer unticks it). */
	alsoOthers: z.optional(z.literal('on')),
	/** Let the workshops that see the request see the vehicle's service history (decision 0104); off unless ticked. */
	shareHistory: z.optional(z.literal('on')),
})
export type ServiceRequestInput = z.output<typeof ServiceRequestSchema>

/** Widening a request to reach more workshops: services added, or the city dropped ("any city"). */
export const WidenRequestSchema = z
	.object({
		serviceIds: z._default(z.array(z.string().check(z.uuid(messages.choose)), { error: messages.choose }).check(z.maxLength(MAX_REQUEST_SERVICES)), []),
		anyCity: z.optional(z.literal('on')),
	})
	.check(z.refine((input) => input.serviceIds.length > 0 || input.anyCity, { message: 'customer:requestDetails.widenNothing', path: ['serviceIds'] }))
export type WidenRequestInput = z.output<typeof WidenRequestSchema>

/** Sharing the vehicle's history on a request, or no longer (decision 0104). */
export const ShareHistorySchema = z.object({ share: z.enum(['on', 'off']) })

/** Reopening an expired request: when the customer now wants the work done. */
export const ReopenRequestSchema = z.object({ preferredAt: ServiceRequestSchema.shape.preferredAt })
export type ReopenRequestInput = z.output<typeof ReopenRequestSchema>

/** The customer's request list filters: the open ones, each status, or all. */
export const requestFilters = ['open', ...requestStatuses, 'all'] as const
export type RequestFilter = (typeof requestFilters)[number]

// ---------------------------------------------------------------- what the pages show (requests.server.ts)

export type { OfferStatus, RequestStatus } from './status'

export type RequestListItem = {
	id: string
	status: RequestStatus
	createdAt: string
	preferredAt: string
	location: string
	vehicle: string
	registrationNumber: string
	services: string[]
	offerCount: number
	lowestPriceCents: number | null
	workshopName: string | null
	finalPriceCents: number | null
	rating: number | null
	/** Requests for extra work on the job that wait for the customer's answer (issue 19). */
	extraWorkWaiting: number
	/** A final bill above the binding total waits for the customer's answer (issue 19). */
	billWaiting: boolean
}

export type RequestEvent = { status: RequestStatus; at: string }
export type RequestDetail = {
	id: string
	customerId: string
	customerName: string
	/** The customer signed in with eID: a verified person (issue 36). */
	customerVerified: boolean
	customerMobile: string
	customerEmail: string
	status: RequestStatus
	/** Times the customer reopened it after it expired (`canReopen` in status.ts). */
	reopenCount: number
	createdAt: string
	preferredAt: string
	location: string
	city: string | null
	details: string
	notes: string
	/** The workshops that see it see the vehicle's service history too (decision 0104). */
	shareHistory: boolean
	vehicle: {
		id: string
		name: string
		registrationNumber: string
		year: number | null
		/** The reading in km, shown in the odometer's unit (decision 0122). */
		mileage: number
		odometerUnit: OdometerUnit
		fuelType: string | null
		transmission: string
		vin: string | null
	}
	services: string[]
	/** The ids of its services (the widening form leaves them out). */
	serviceIds: string[]
	/** Its photos in order, each with its copies at the size shown (issue 18); source null where unknown. */
	images: Array<{ id: string; source: ImageSource | null }>
	events: RequestEvent[]
	offerCount: number
	selectedOffer: {
		id: string
		workshopId: string
		workshopName: string
		workshopUserId: string
		priceCents: number
		finalPriceCents: number | null
		/** Approved extra work (issue 19); the binding total is the price plus this. */
		approvedExtraCents: number
		/** Why the final bill is above the binding total (issue 19), when it is. */
		billReason: string | null
		status: OfferStatus
		selectedAt: string | null
		completedAt: string | null
		/** The offer's own warranty (issue 32). */
		warrantyWorkKm: number | null
		warrantyPartsMonths: number | null
	} | null
	/** The customer's review; `hiddenReason` when the administrators hid it (issue 19). */
	review: { id: string; rating: number; title: string; body: string; reply: string | null; createdAt: string; repliedAt: string | null; hiddenReason: string | null } | null
}

/** An offer's own fields, as the customer and the workshop see them (offerColumns, offers.server.ts). */
export type OfferFields = {
	id: string
	status: OfferStatus
	priceCents: number
	finalPriceCents: number | null
	notes: string
	description: string
	attachmentUploadId: string | null
	createdAt: string
	/** Issue 19: whether the lines' prices include VAT, and the sums the server computed from them (null for one price). */
	vatMode: VatMode
	labourCents: number | null
	partsCents: number | null
	feesCents: number | null
	vatCents: number | null
	/** The approved extra work's prices (issue 19): the binding total is the price plus this. */
	approvedExtraCents: number
	/** Why the final bill is above the binding total (issue 19), when it is. */
	billReason: string | null
	/** "2026-11-30", or null when not said. */
	earliestStart: string | null
	durationDays: number | null
	validUntil: string | null
	/** The offer's own warranty (issue 32): the work's in km, the parts' in months; null: none promised. */
	warrantyWorkKm: number | null
	warrantyPartsMonths: number | null
	/** Booking (issue 33): minutes in the bay, the proposed starts (ISO instants, in order), or any free time until validUntil. */
	bookingMinutes: number | null
	proposedStarts: string[]
	anyFreeTime: boolean
	/** Made from the workshop's price list the moment the request came (issue 35): "Instant offer". */
	instant: boolean
	/** Its lines in order; empty for an offer of one price. Quantities in hundredths; a part's quality null: not stated. */
	lines: Array<ShownLine & { quality: PartQuality | null; used: boolean }>
}

export type OfferForCustomer = OfferFields & {
	workshopId: string
	workshopUserId: string
	workshopName: string
	logoUploadId: string | null
	/** The logo's copies at the size shown (issue 18); null without a logo or for one of unknown size. */
	logoImage: ImageSource | null
	city: string | null
	ratingAverage: number
	reviewCount: number
	/** Median minutes from request to offer (null below five offers). */
	responseMinutes: number | null
	featured: boolean
	/** The workshop profile's words on its warranty (the offer's own km and months are in OfferFields). */
	warrantyInfo: string
	/** The workshop's contact person signed in with eID: verified (issue 36). */
	workshopVerified: boolean
}

