import * as z from 'zod/mini'
import {
	emailAddress,
	messages,
	mobileNumber,
	nameText,
	optionalText,
	preprocess,
	requiredText,
	websiteUrl,
	wholeNumber,
} from '~/utils/validation'

/** Opening hours are given per day group: Monday to Friday, Saturday, Sunday (spec §3, §9). */
export const dayGroups = ['weekday', 'saturday', 'sunday'] as const
export type DayGroup = (typeof dayGroups)[number]

export const MAX_WORKSHOP_PHOTOS = 8

const empty = (value: unknown) => (value === '' || value === null ? undefined : value)
const optional = <T extends z.ZodMiniType>(schema: T) => preprocess(empty, z.optional(schema))
const time = () => z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'validation.time'))
const chosen = () => z.array(z.string().check(z.uuid(messages.choose)), { error: messages.choose }).check(z.minLength(1, messages.choose))

/**
 * The workshop's own profile form. Company name and company ID are not in it: only customer
 * service changes them (spec §5).
 */
export const WorkshopProfileSchema = z
	.object({
		contactFirstName: nameText(),
		contactLastName: nameText(),
		workshopName: nameText(),
		phone: mobileNumber(),
		email: emailAddress(),
		billingEmail: optional(emailAddress()),
		website: optional(websiteUrl()),
		foundedYear: optional(wholeNumber(1850, new Date().getFullYear())),
		installersCount: optional(wholeNumber(0, 1000)),
		state: requiredText(80),
		cityId: z.string({ error: messages.required }).check(z.uuid(messages.required)),
		streetName: requiredText(120),
		zipCode: z.pipe(requiredText(10), z.string().check(z.regex(/^[0-9A-Za-z -]{3,10}$/, 'validation.zipCode'))),
		marketingText: optionalText(4000),
		additionalServices: optionalText(1000),
		// Spec §5: at least one of each list, so the directory's filters can find the workshop.
		serviceIds: chosen(),
		carBrandIds: chosen(),
		sparePartIds: chosen(),
		paymentMethodIds: chosen(),
		weekdayOpens: optional(time()),
		weekdayCloses: optional(time()),
		saturdayOpens: optional(time()),
		saturdayCloses: optional(time()),
		sundayOpens: optional(time()),
		sundayCloses: optional(time()),
		warrantyWorkKm: optional(wholeNumber(0, 1_000_000)),
		warrantyPartsMonths: optional(wholeNumber(0, 240)),
		warrantyInfo: optionalText(2000),
	})
	.check(
		z.superRefine((value, ctx) => {
		for (const group of dayGroups) {
			const opens = value[`${group}Opens`]
			const closes = value[`${group}Closes`]
			// Both empty means closed that day; one alone is a mistake; closing comes after opening.
			if (Boolean(opens) !== Boolean(closes)) {
				ctx.addIssue({ code: 'custom', path: [opens ? `${group}Closes` : `${group}Opens`], message: 'validation.timePair' })
			} else if (opens && closes && closes <= opens) {
				ctx.addIssue({ code: 'custom', path: [`${group}Closes`], message: 'validation.closesAfterOpens' })
			}
		}
		}),
	)

export type WorkshopProfileInput = z.output<typeof WorkshopProfileSchema>
