import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm'
import { carBrands, serviceRequests, vehicles } from '~/db/schema'
import { type Language } from '~/i18n/config'
import { finalPrice, serviceNames } from '~/db/sql'
import { db, isUniqueViolation, queryRows, transaction, type Tx } from '~/db/db.server'
import { DomainError, FieldError, notFound } from '~/utils/errors'
import { statusLists } from './status'
import { type VehicleInput } from './vehicles'
import { defaultVehicleClass, type OdometerUnit, toKm } from './vehicle-kinds'

/** A customer's vehicles. Every query names the owner: another customer's vehicle is "not found". */

export type VehicleRow = typeof vehicles.$inferSelect & { brandName: string }

export class RegistrationTaken extends FieldError {
	constructor() {
		super('registrationNumber', 'customer:vehicle.registrationTaken', 409)
	}
}

export async function listVehicles(ownerId: string): Promise<VehicleRow[]> {
	const rows = await db
		.select({ vehicle: vehicles, brandName: carBrands.nameEn })
		.from(vehicles)
		.innerJoin(carBrands, eq(carBrands.id, vehicles.brandId))
		.where(and(eq(vehicles.ownerId, ownerId), isNull(vehicles.deletedAt)))
		.orderBy(desc(vehicles.createdAt))
	return rows.map((row) => ({ ...row.vehicle, brandName: row.brandName }))
}

export async function getVehicle(ownerId: string, vehicleId: string): Promise<VehicleRow> {
	const [row] = await db
		.select({ vehicle: vehicles, brandName: carBrands.nameEn })
		.from(vehicles)
		.innerJoin(carBrands, eq(carBrands.id, vehicles.brandId))
		.where(and(eq(vehicles.id, vehicleId), eq(vehicles.ownerId, ownerId), isNull(vehicles.deletedAt)))
	if (!row) throw notFound()
	return { ...row.vehicle, brandName: row.brandName }
}

async function assertBrand(brandId: string) {
	const [brand] = await db.select({ id: carBrands.id }).from(carBrands).where(eq(carBrands.id, brandId))
	if (!brand) throw new FieldError('brandId', 'common:validation.unknownChoice')
}

/** A vehicle as the form gives it; without a unit its odometer is in km (the default, issue 32). */
type VehicleFields = Omit<VehicleInput, 'odometerUnit'> & { odometerUnit?: OdometerUnit }

const columns = (input: VehicleFields) => ({
	registrationNumber: input.registrationNumber,
	vin: input.vin ?? null,
	shortDescription: input.shortDescription ?? '',
	vehicleYear: input.vehicleYear,
	registrationYear: input.registrationYear ?? null,
	manufactureYear: input.manufactureYear ?? null,
	fuelType: input.fuelType ?? null,
	brandId: input.brandId,
	model: input.model,
	modelSpecification: input.modelSpecification,
	transmission: input.transmission,
	// Typed in the odometer's unit, kept in km (decision 0122).
	odometerUnit: input.odometerUnit ?? 'km',
	mileage: toKm(input.mileage, input.odometerUnit ?? 'km'),
	// Left out (an older caller): the class its fuel proposes (issue 35).
	vehicleClass: input.vehicleClass ?? defaultVehicleClass(input.fuelType),
	engineCc: input.engineCc ?? null,
})

/** Adds a vehicle; a registration number another live vehicle has is refused (spec §8). */
export async function createVehicle(ownerId: string, input: VehicleFields): Promise<string> {
	await assertBrand(input.brandId)
	try {
		const [row] = await db
			.insert(vehicles)
			.values({ ownerId, ...columns(input) })
			.returning({ id: vehicles.id })
		return row!.id
	} catch (error) {
		if (isUniqueViolation(error, 'vehicles_registration_number_key')) throw new RegistrationTaken()
		throw error
	}
}

export async function updateVehicle(ownerId: string, vehicleId: string, input: VehicleFields) {
	await getVehicle(ownerId, vehicleId)
	await assertBrand(input.brandId)
	try {
		await db
			.update(vehicles)
			.set(columns(input))
			.where(and(eq(vehicles.id, vehicleId), eq(vehicles.ownerId, ownerId), isNull(vehicles.deletedAt)))
	} catch (error) {
		if (isUniqueViolation(error, 'vehicles_registration_number_key')) throw new RegistrationTaken()
		throw error
	}
}

/** The owner's live vehicle, locked for a change of it or its passport; another's is "not found". */
export async function lockOwnVehicle(tx: Tx, ownerId: string, vehicleId: string) {
	const [vehicle] = await tx
		.select({ id: vehicles.id, mileage: vehicles.mileage, odometerUnit: vehicles.odometerUnit })
		.from(vehicles)
		.where(and(eq(vehicles.id, vehicleId), eq(vehicles.ownerId, ownerId), isNull(vehicles.deletedAt)))
		.for('update')
	if (!vehicle) throw notFound()
	return vehicle
}

/**
 * Removes a vehicle from the list; its service history stays. A vehicle with an open request
 * (pending, with offers or in progress) cannot be removed.
 */
export async function deleteVehicle(ownerId: string, vehicleId: string) {
	await transaction(async (tx) => {
		await lockOwnVehicle(tx, ownerId, vehicleId)
		const [open] = await tx
			.select({ id: serviceRequests.id })
			.from(serviceRequests)
			.where(and(eq(serviceRequests.vehicleId, vehicleId), inArray(serviceRequests.status, statusLists.activeRequests)))
			.limit(1)
		if (open) throw new DomainError('customer:vehicle.hasOpenRequest', 409)
		await tx.update(vehicles).set({ deletedAt: new Date() }).where(eq(vehicles.id, vehicleId))
	})
}

export type VehicleHistoryItem = {
	id: string
	status: (typeof serviceRequests.$inferSelect)['status']
	createdAt: string
	preferredAt: string
	services: string[]
	workshopName: string | null
	finalPriceCents: number | null
	rating: number | null
}

/** Every request of the vehicle, newest first, with the workshop that did it and the bill. */
export async function vehicleHistory(ownerId: string, vehicleId: string, language: Language): Promise<VehicleHistoryItem[]> {
	return queryRows<VehicleHistoryItem>(
		db,
		sql`select r.id, r.status, r.created_at as "createdAt", r.preferred_at as "preferredAt",
		           ${serviceNames(language)} as services,
		           w.workshop_name as "workshopName", ${finalPrice()} as "finalPriceCents", rv.rating
		    from service_requests r
		    left join offers o on o.id = r.selected_offer_id
		    left join workshops w on w.id = o.workshop_id
		    left join reviews rv on rv.request_id = r.id
		    where r.vehicle_id = ${vehicleId} and r.customer_id = ${ownerId}
		    order by r.created_at desc`,
	)
}
