import * as z from 'zod/mini'
import { ENGINE_CC_MAX, ENGINE_CC_MIN, fuelTypes, odometerUnits, transmissions, vehicleClasses } from '~/domain/service-flow/vehicle-kinds'
import { choice, messages, optionalText, preprocess, requiredText, wholeNumber } from '~/utils/validation'
import { odometerReading } from './reading-schema'

const thisYear = new Date().getFullYear()
const year = () => wholeNumber(1900, thisYear + 1)
const optionalYear = () => preprocess((value) => (value === '' ? undefined : value), z.optional(year()))

/** Stored upper-case without spaces or dashes, so "123 abc" and "123ABC" are one car. */
export function normalizeRegistrationNumber(value: string) {
	return value.toUpperCase().replace(/[\s-]+/g, '')
}

/** A plate as stored: 2–10 letters (Estonian ones too) and digits. */
export const PLATE = /^[A-Z0-9ÄÖÜÕŠŽ]{2,10}$/

/** An engine's size in cm³ (issue 35): optional, 50–10,000. */
const engineCc = () =>
	preprocess(
		(value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
		z.optional(z.coerce.number({ error: 'customer:vehicle.engineCcRange' }).check(z.int('customer:vehicle.engineCcRange'), z.minimum(ENGINE_CC_MIN, 'customer:vehicle.engineCcRange'), z.maximum(ENGINE_CC_MAX, 'customer:vehicle.engineCcRange'))),
	)

/**
 * Spec §3 vehicle, with the required fields of spec §5; its reading in its odometer's unit (issue
 * 32); its class and engine size, which prices follow (issue 35, decision 0146): a caller that
 * leaves the class out gets the one its fuel proposes (`defaultVehicleClass`).
 */
export const VehicleSchema = z.object({
	registrationNumber: z.pipe(
		z.pipe(requiredText(20), z.transform(normalizeRegistrationNumber)),
		z.string().check(z.regex(PLATE, 'validation.registrationNumber')),
	),
	vin: z.optional(
		z.pipe(
			z.pipe(
				z.string().check(z.trim()),
				z.transform((value: string) => value.toUpperCase().replace(/\s+/g, '')),
			),
			z.string().check(z.regex(/^[A-HJ-NPR-Z0-9]{17}$/, 'validation.vin')),
		),
	),
	shortDescription: optionalText(200),
	vehicleYear: year(),
	registrationYear: optionalYear(),
	manufactureYear: optionalYear(),
	fuelType: z.optional(z.enum(fuelTypes, { error: messages.required })),
	brandId: choice(),
	model: requiredText(60),
	modelSpecification: requiredText(100),
	transmission: z.enum(transmissions, { error: messages.required }),
	odometerUnit: z._default(z.enum(odometerUnits, { error: messages.required }), 'km'),
	mileage: odometerReading(),
	vehicleClass: preprocess((value) => (value === '' ? undefined : value), z.optional(z.enum(vehicleClasses, { error: 'validation.unknownChoice' }))),
	engineCc: engineCc(),
}).check(
	// An electric car is its own class whatever its size (decision 0146): said next to the class, so the owner chooses it.
	z.refine((vehicle) => vehicle.fuelType !== 'electric' || vehicle.vehicleClass === undefined || vehicle.vehicleClass === 'electric', {
		message: 'customer:vehicle.electricClass',
		path: ['vehicleClass'],
		when: () => true,
	}),
)
export type VehicleInput = z.output<typeof VehicleSchema>
