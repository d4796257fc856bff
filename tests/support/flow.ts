import { eq } from 'drizzle-orm'
import { carBrands, services, users, workshops, workshopServices } from '~/db/schema'
import { register } from '~/domain/accounts/accounts.server'
import { type WorkshopActor } from '~/utils/auth.server'
import { makeOffer, selectOffer } from '~/domain/service-flow/offer-moves.server'
import { createServiceRequest } from '~/domain/service-flow/request-moves.server'
import { createVehicle } from '~/domain/service-flow/vehicles.server'
import { tallinnToDate } from '~/utils/time'
import { db } from '~/db/db.server'
import { createCustomer, uniqueEmail, workshopRegistration } from './accounts'
import { demoData } from './demo-data'

/** Reference lists and packages of the demo data (there once per test file: demoData()). */
export async function referenceData() {
	await demoData()
	const [brand] = await db.select().from(carBrands).where(eq(carBrands.code, 'toyota'))
	const [tyres] = await db.select().from(services).where(eq(services.code, 'tyres'))
	const [brakes] = await db.select().from(services).where(eq(services.code, 'brakes'))
	const [bodywork] = await db.select().from(services).where(eq(services.code, 'bodywork'))
	return { brandId: brand!.id, tyres: tyres!.id, brakes: brakes!.id, bodywork: bodywork!.id }
}

let plate = 0
export function uniquePlate() {
	plate += 1
	return `T${Date.now().toString(36).slice(-5).toUpperCase()}${plate}`
}

export async function customerWithVehicle() {
	const refs = await referenceData()
	const customer = await createCustomer()
	const vehicleId = await createVehicle(customer.id, {
		registrationNumber: uniquePlate(),
		vehicleYear: 2018,
		brandId: refs.brandId,
		model: 'Corolla',
		modelSpecification: '1.8 Hybrid',
		transmission: 'automatic',
		mileage: 60000,
	})
	return { customer, vehicleId, refs }
}

/** A registered workshop offering the given services. */
export async function workshopOffering(serviceIds: string[]): Promise<WorkshopActor> {
	const email = uniqueEmail('garage')
	const result = await register(workshopRegistration(email, { companyName: 'Test Garaaž OÜ', workshopName: `Garaaž ${email.slice(7, 13)}` }), 'en')
	if (!result.ok) throw new Error('workshop registration failed')
	const [workshop] = await db.select().from(workshops).where(eq(workshops.userId, result.userId))
	await db.insert(workshopServices).values(serviceIds.map((itemId) => ({ workshopId: workshop!.id, itemId })))
	return { workshopId: workshop!.id, userId: result.userId, workshopName: workshop!.workshopName }
}

export function inDays(days: number) {
	const date = new Date(Date.now() + days * 24 * 60 * 60 * 1000)
	return tallinnToDate(`${date.toISOString().slice(0, 10)}T10:00`)
}

export async function openRequest(customerId: string, vehicleId: string, serviceIds: string[]) {
	return createServiceRequest(customerId, { vehicleId, serviceIds, preferredAt: inDays(3), location: 'Tallinn', details: 'Please help' }, [])
}

export async function userIdOf(email: string) {
	return (await db.select().from(users).where(eq(users.email, email)))[0]!.id
}

type Owner = Awaited<ReturnType<typeof customerWithVehicle>>

/** A job in progress: a customer (new, or `owner`) chose a workshop's (new, or `workshop`'s) €150 offer. */
export async function jobInProgress(options: { vat?: 'included' | 'added'; owner?: Owner; workshop?: WorkshopActor } = {}) {
	const owner = options.owner ?? (await customerWithVehicle())
	const workshop = options.workshop ?? (await workshopOffering([owner.refs.brakes]))
	const requestId = await openRequest(owner.customer.id, owner.vehicleId, [owner.refs.brakes])
	// VAT added means something only for lines: such an offer is one line of €150 without VAT.
	const terms = options.vat === 'added' ? { vat: 'added' as const, lines: [{ kind: 'labour' as const, description: 'Service', quantity: 100, unitPrice: 15000 }] } : { price: 15000 }
	const offerId = await makeOffer(workshop, requestId, terms, null)
	await selectOffer(owner.customer.id, requestId, offerId)
	return { owner, customerId: owner.customer.id, workshop, requestId, offerId }
}
