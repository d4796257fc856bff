import { eq } from 'drizzle-orm'
import { serviceRequests, vehicles, widgetRequests } from '~/db/schema'
import { afterCommit, db, isUniqueViolation, transaction, type Tx } from '~/db/db.server'
import { type Language } from '~/i18n/config'
import { countEvents } from '~/counting/daily-counts.server'
import { accountForRequest } from '~/domain/accounts/guest.server'
import { sendInstantOffers } from '~/domain/pricing/price-list-offers.server'
import { referenceLists } from '~/domain/site/reference.server'
import { adoptHeldUploads } from '~/uploads/storage.server'
import { DomainError } from '~/utils/errors'
import { createServiceRequest } from './request-moves.server'
import { workshopToAsk } from './requests.server'
import { defaultVehicleClass } from './vehicle-kinds'
import { hashWidgetToken, liveVehicleByPlate, type WidgetRequestPayload } from './widget-requests.server'

/**
 * Opening a widget request's link (issue 37, decision 0153): the page shows what was asked
 * (`readWidgetRequest`), and its button (`confirmWidgetRequest`) makes the account (a guest without
 * a password when the address has none), the car and the real request through the portal's own
 * `createServiceRequest`: the workshops are told and the instant offers go out as for any request.
 * Once only: the row is locked and remembers its request, so a second opening shows the same one.
 */

export type WidgetRequestSummary = {
	email: string
	language: Language
	services: string[]
	car: string
	registrationNumber: string
	preferredAt: string
	location: string
	details: string
	workshop: string | null
	photos: number
}

export type WidgetRequestView =
	| { state: 'pending'; summary: WidgetRequestSummary; expiresAt: string }
	| { state: 'confirmed'; summary: WidgetRequestSummary; requestId: string; customerId: string }
	| { state: 'expired' }

/** What the link's page shows; null for a token that names nothing. */
export async function readWidgetRequest(token: string, language: Language, now = new Date()): Promise<WidgetRequestView | null> {
	const [row] = await db.select().from(widgetRequests).where(eq(widgetRequests.tokenHash, hashWidgetToken(token)))
	if (!row) return null
	if (row.requestId) {
		const [request] = await db.select({ customerId: serviceRequests.customerId }).from(serviceRequests).where(eq(serviceRequests.id, row.requestId))
		if (request) return { state: 'confirmed', summary: await summaryOf(row, language), requestId: row.requestId, customerId: request.customerId }
	}
	if (row.confirmedAt || row.expiresAt <= now) return { state: 'expired' }
	return { state: 'pending', summary: await summaryOf(row, language), expiresAt: row.expiresAt.toISOString() }
}

async function summaryOf(row: typeof widgetRequests.$inferSelect, language: Language): Promise<WidgetRequestSummary> {
	const payload = row.payload as WidgetRequestPayload
	const lists = await referenceLists()
	const nameOf = (list: 'services' | 'carBrands', id: string) => lists[list].items[language].find((item) => item.id === id)?.name ?? ''
	const workshop = payload.workshopId ? await workshopToAsk(payload.workshopId) : null
	return {
		email: row.email,
		language: row.language,
		services: payload.serviceIds.map((id) => nameOf('services', id)),
		car: `${nameOf('carBrands', payload.car.brandId)} ${payload.car.model} (${payload.car.vehicleYear})`,
		registrationNumber: payload.car.registrationNumber,
		preferredAt: payload.preferredAt,
		location: payload.location,
		details: payload.details,
		workshop: workshop?.name ?? null,
		photos: payload.imageIds.length,
	}
}

export type ConfirmOutcome =
	/** `signIn`: the account is new, or has no password or eID (the link is its only way in): open a session. */
	| { outcome: 'created' | 'already'; requestId: string; customerId: string; signIn: boolean }
	| { outcome: 'unknown' | 'expired' | 'notCustomer' | 'blocked' | 'plateTaken' }

/** A refusal found half way: the transaction is rolled back (no account, no car is left behind). */
class Refused extends Error {
	constructor(readonly outcome: 'notCustomer' | 'blocked' | 'plateTaken') {
		super(outcome)
	}
}

/**
 * The link's button: makes the request once. A second press (or a second tab) answers the same
 * request; a link past its time, or one whose address belongs to a workshop or a blocked account,
 * or whose plate another account took meanwhile, makes nothing.
 */
export async function confirmWidgetRequest(token: string, now = new Date()): Promise<ConfirmOutcome> {
	try {
		return await transaction(async (tx): Promise<ConfirmOutcome> => {
			const [row] = await tx.select().from(widgetRequests).where(eq(widgetRequests.tokenHash, hashWidgetToken(token))).for('update')
			if (!row) return { outcome: 'unknown' }
			if (row.requestId) {
				const [request] = await tx.select({ customerId: serviceRequests.customerId }).from(serviceRequests).where(eq(serviceRequests.id, row.requestId))
				if (request) return { outcome: 'already', requestId: row.requestId, customerId: request.customerId, signIn: false }
			}
			if (row.confirmedAt || row.expiresAt <= now) return { outcome: 'expired' }
			const payload = row.payload as WidgetRequestPayload
			const account = await accountForRequest(tx, { email: row.email, firstName: payload.firstName, lastName: payload.lastName, mobile: payload.mobile }, row.language)
			if (account.kind === 'notCustomer' || account.kind === 'blocked') throw new Refused(account.kind)
			const customerId = account.userId
			const vehicleId = await vehicleFor(tx, customerId, payload)
			const imageIds = await adoptHeldUploads(tx, payload.imageIds, customerId)
			const requestId = await createServiceRequest(
				customerId,
				{
					vehicleId,
					serviceIds: payload.serviceIds,
					preferredAt: new Date(payload.preferredAt),
					location: payload.location,
					cityId: payload.cityId ?? undefined,
					details: payload.details,
					workshopId: payload.workshopId ?? undefined,
					alsoOthers: payload.alsoOthers ? 'on' : undefined,
				},
				imageIds.map((id) => ({ heldUploadId: id, purpose: 'request_image' as const })),
				tx,
			)
			await tx.update(widgetRequests).set({ confirmedAt: now, requestId }).where(eq(widgetRequests.id, row.id))
			// In the caller's transaction createServiceRequest leaves the instant offers to their job: here they go at once, as for any request.
			await afterCommit(tx, async () => void (await sendInstantOffers(requestId)))
			await afterCommit(tx, async () => countEvents([{ kind: 'widget-request', workshopId: row.workshopId, partnerId: row.partnerId }]))
			return { outcome: 'created', requestId, customerId, signIn: account.kind === 'new' || account.linkOnly }
		})
	} catch (error) {
		if (error instanceof Refused) return { outcome: error.outcome }
		throw error
	}
}

/** The sender's own car of that plate, or a new one with what the widget asked; another account's plate refuses. */
async function vehicleFor(tx: Tx, customerId: string, payload: WidgetRequestPayload): Promise<string> {
	const found = await liveVehicleByPlate(tx, payload.car.registrationNumber)
	if (found) {
		if (found.ownerId !== customerId) throw new Refused('plateTaken')
		return found.id
	}
	const { car } = payload
	const inserted = tx
		.insert(vehicles)
		.values({
			ownerId: customerId,
			registrationNumber: car.registrationNumber,
			brandId: car.brandId,
			model: car.model,
			// Not asked by the widget: the owner adds it on the vehicle's page.
			modelSpecification: '',
			vehicleYear: car.vehicleYear,
			transmission: car.transmission,
			mileage: car.mileage,
			odometerUnit: 'km',
			vehicleClass: defaultVehicleClass(null),
		})
		.returning({ id: vehicles.id })
	// Another account took the plate a moment ago: the same answer as one taken before.
	const [created] = await inserted.catch((error: unknown) => {
		throw isUniqueViolation(error, 'vehicles_registration_number_key') ? new Refused('plateTaken') : error
	})
	if (!created) throw new DomainError('common:errors.conflict', 409)
	return created.id
}
