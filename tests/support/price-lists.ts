import { parseWithZod } from '@conform-to/zod/v4'
import { eq } from 'drizzle-orm'
import { cities, services, workshops } from '~/db/schema'
import { db } from '~/db/db.server'
import { addDays } from '~/domain/booking/calendar'
import { PriceItemSchema, type PriceItemInput } from '~/domain/pricing/price-lists'
import { type VehicleClass } from '~/domain/service-flow/vehicle-kinds'
import { createServiceRequest } from '~/domain/service-flow/request-moves.server'
import { createVehicle } from '~/domain/service-flow/vehicles.server'
import { tallinnDay } from '~/utils/time'
import { createCustomer } from './accounts'
import { inDays, referenceData, uniquePlate } from './flow'

/** Issue 35: price list items as the form sends them, services by code, vehicles of a class. */

export const today = () => tallinnDay()
export const day = (offset: number) => addDays(tallinnDay(), offset)

export async function serviceIdOf(code: string) {
	await referenceData()
	const [row] = await db.select({ id: services.id }).from(services).where(eq(services.code, code))
	return row!.id
}

/** An oil change for 1.5 h of labour at €50, 5 l of oil at €10 and a €5 fee: €130 with VAT included. */
export const oilChangeLines = {
	'lines[0].kind': 'labour',
	'lines[0].description': 'Oil change',
	'lines[0].quantity': '1,5',
	'lines[0].unitPrice': '50',
	'lines[1].kind': 'part',
	'lines[1].description': 'Engine oil 5W-30',
	'lines[1].reference': 'Castrol',
	'lines[1].quantity': '5',
	'lines[1].unitPrice': '10',
	'lines[1].quality': 'equivalent',
	'lines[2].kind': 'fee',
	'lines[2].description': 'Disposal',
	'lines[2].quantity': '1',
	'lines[2].unitPrice': '5',
}

export function itemForm(fields: Record<string, string>) {
	const data = new FormData()
	for (const [name, value] of Object.entries(fields)) data.set(name, value)
	return parseWithZod(data, { schema: PriceItemSchema })
}

/** The form's fields of an item: an oil change for a family car, any engine, from today, 1 h 15 min. */
export function itemFields(serviceId: string, fields: Record<string, string> = {}): Record<string, string> {
	return {
		serviceId,
		vehicleClass: 'family',
		engineBand: 'any',
		...oilChangeLines,
		vat: 'included',
		durationHours: '1',
		durationMinutes: '15',
		included: 'Oil up to 5 l, filter, disposal.',
		validFrom: today(),
		...fields,
	}
}

/** The item's input as the schema accepts it (a refusal fails the test). */
export function itemInput(serviceId: string, fields: Record<string, string> = {}): PriceItemInput {
	const submission = itemForm(itemFields(serviceId, fields))
	if (submission.status !== 'success') throw new Error(JSON.stringify(submission.error))
	return submission.value
}

/** The schema's errors for an item's fields (an acceptance fails the test). */
export function itemErrors(fields: Record<string, string>) {
	const submission = itemForm(fields)
	if (submission.status !== 'error') throw new Error(`accepted: ${JSON.stringify(fields)}`)
	return submission.error ?? {}
}

/** A new customer with a Toyota of the class and engine size. */
export async function customerWithCar(vehicleClass: VehicleClass, engineCc: number | null) {
	const refs = await referenceData()
	const customer = await createCustomer()
	const vehicleId = await createVehicle(customer.id, {
		registrationNumber: uniquePlate(),
		vehicleYear: 2019,
		brandId: refs.brandId,
		model: 'RAV4',
		modelSpecification: '2.0',
		transmission: 'automatic',
		mileage: 50_000,
		vehicleClass,
		engineCc: engineCc ?? undefined,
	})
	return { customer, vehicleId, refs }
}

/** The workshop opens Monday to Saturday 08:00–17:00, so its calendar has free times. */
export async function openWeekdays(workshopId: string) {
	await db
		.update(workshops)
		.set({ weekdayOpens: '08:00', weekdayCloses: '17:00', saturdayOpens: '08:00', saturdayCloses: '17:00' })
		.where(eq(workshops.id, workshopId))
}

let cityIndex = 0
/**
 * A city of the demo data no other test of the file has used: the workshops placed in it and the
 * requests naming it meet no other test's workshops (a request with a city reaches only its city's).
 */
export async function nextCity(): Promise<string> {
	await referenceData()
	// Not Tallinn: the demo workshop there sends instant offers for a family car's oil change.
	const all = (await db.select({ id: cities.id, code: cities.code }).from(cities).orderBy(cities.code)).filter((city) => city.code !== 'tallinn')
	const city = all[cityIndex % all.length]!
	cityIndex += 1
	return city.id
}

export async function placeIn(workshopId: string, cityId: string) {
	await db.update(workshops).set({ cityId }).where(eq(workshops.id, workshopId))
}

/** A customer's new request for the services in the city (made as the request form makes it). */
export function requestIn(customerId: string, vehicleId: string, serviceIds: string[], cityId: string, extra: { workshopId?: string } = {}) {
	return createServiceRequest(customerId, { vehicleId, serviceIds, preferredAt: inDays(3), location: 'Tallinn', cityId, details: 'Please help', ...extra }, [])
}
