import * as z from 'zod/mini'
import { fuelTypes, odometerUnits, transmissions } from '~/domain/service-flow/vehicle-kinds'
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

/** Spec §3 vehicle, with the required fields of spec §5; its reading in its odometer's unit (issue 32). */
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
})
export type VehicleInput = z.output<typeof VehicleSchema>
