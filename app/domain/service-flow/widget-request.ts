import * as z from 'zod/mini'
import { emailAddress, messages, mobileNumber, nameText } from '~/utils/validation'
import { MAX_REQUEST_IMAGES, MAX_REQUEST_SERVICES, ServiceRequestSchema } from './requests'
import { VehicleSchema } from './vehicles'

/**
 * The "ask for an offer" widget's request (issue 37, decision 0153): what a visitor of a partner's
 * site fills in, checked with the portal's own rules (the request form's and the vehicle form's
 * fields, the registration's names, e-mail and phone). One schema for the widget (in the browser)
 * and the JSON call `POST /admin/api/widget-request`. Services, the car's brand and the city are
 * the codes of `GET /admin/api/workshop-filters`; the photos travel beside it (`images`, checked
 * by content like the portal's).
 */

/** How long the e-mailed link works; the photos are held as long (app/uploads: a day). */
export const WIDGET_REQUEST_HOURS = 24
/** Unconfirmed requests one address, or one e-mail, may leave in a day; the next is refused (429). */
export const MAX_UNCONFIRMED_PER_DAY = 3
export { MAX_REQUEST_IMAGES }

/** A code of the reference lists (`tyres`, `toyota`, `tallinn`): a known one is checked by the server. */
const code = () => z.string({ error: messages.required }).check(z.trim(), z.minLength(1, messages.required), z.maxLength(60, 'validation.unknownChoice'))
const optionalCode = () => z.optional(z.string().check(z.trim(), z.maxLength(60, 'validation.unknownChoice')))

const vehicle = VehicleSchema.shape
const request = ServiceRequestSchema.shape

export const WidgetRequestSchema = z.object({
	services: z.array(code(), { error: messages.choose }).check(z.minLength(1, messages.choose), z.maxLength(MAX_REQUEST_SERVICES, messages.tooLong)),
	/** The workshop addressed: its public id (as in /workshop-details/{id}). */
	workshopId: optionalCode(),
	alsoOthers: request.alsoOthers,
	brand: code(),
	model: vehicle.model,
	vehicleYear: vehicle.vehicleYear,
	registrationNumber: vehicle.registrationNumber,
	transmission: vehicle.transmission,
	mileage: vehicle.mileage,
	preferredAt: request.preferredAt,
	city: optionalCode(),
	location: request.location,
	details: request.details,
	firstName: nameText(),
	lastName: nameText(),
	email: emailAddress(),
	mobile: mobileNumber(),
})
export type WidgetRequestInput = z.output<typeof WidgetRequestSchema>

/** The fields in the order the widget shows them: the first with an error takes the focus. */
export const widgetRequestFields = [
	'services',
	'brand',
	'model',
	'vehicleYear',
	'registrationNumber',
	'transmission',
	'mileage',
	'preferredAt',
	'city',
	'location',
	'details',
	'images',
	'firstName',
	'lastName',
	'email',
	'mobile',
] as const
export type WidgetRequestField = (typeof widgetRequestFields)[number] | 'workshopId'
