import { z } from 'zod'
import { fuelTypes, MAX_MILEAGE, transmissions } from '~/domain/service-flow/vehicle-kinds'
import { choice, messages, optionalText, requiredText, wholeNumber } from '~/utils/validation'

const thisYear = new Date().getFullYear()
const year = () => wholeNumber(1900, thisYear + 1)
const optionalYear = () => z.preprocess((value) => (value === '' ? undefined : value), year().optional())

/** Stored upper-case without spaces or dashes, so "123 abc" and "123ABC" are one car. */
export function normalizeRegistrationNumber(value: string) {
	return value.toUpperCase().replace(/[\s-]+/g, '')
}

/** Spec §3 vehicle, with the required fields of spec §5. Mileage is in miles (spec §9). */
export const VehicleSchema = z.object({
	registrationNumber: requiredText(20)
		.transform(normalizeRegistrationNumber)
		.pipe(z.string().regex(/^[A-Z0-9ÄÖÜÕŠŽ]{2,10}$/, 'validation.registrationNumber')),
	vin: z
		.string()
		.trim()
		.transform((value) => value.toUpperCase().replace(/\s+/g, ''))
		.pipe(z.string().regex(/^[A-HJ-NPR-Z0-9]{17}$/, 'validation.vin'))
		.optional(),
	shortDescription: optionalText(200),
	vehicleYear: year(),
	registrationYear: optionalYear(),
	manufactureYear: optionalYear(),
	fuelType: z.enum(fuelTypes, { error: messages.required }).optional(),
	brandId: choice(),
	model: requiredText(60),
	modelSpecification: requiredText(100),
	transmission: z.enum(transmissions, { error: messages.required }),
	mileage: wholeNumber(0, MAX_MILEAGE),
})
export type VehicleInput = z.output<typeof VehicleSchema>
