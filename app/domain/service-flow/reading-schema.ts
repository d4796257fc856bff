import * as z from 'zod/mini'
import { preprocess } from '~/utils/validation'
import { MAX_MILEAGE } from './vehicle-kinds'

/**
 * An odometer reading as typed: a whole number from 0 to MAX_MILEAGE, in the vehicle's unit; each
 * wrong kind its own message (empty, not a number, negative, more than an odometer shows).
 */
export const odometerReading = () =>
	// Thousands are grouped by spaces (a no-break one, too); any other whitespace or control character inside is refused.
	preprocess(
		(value) => (typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim().replace(/[ \u00a0\u202f]/g, '') : value),
		z.pipe(
			z.string({ error: 'validation.required' }).check(z.minLength(1, 'validation.required'), z.regex(/^-?\d+$/, 'validation.readingNumber')),
			z.pipe(
				z.transform((value: string) => Number(value)),
				z.number().check(z.minimum(0, 'validation.readingNegative'), z.maximum(MAX_MILEAGE, 'validation.readingTooHigh')),
			),
		),
	)

