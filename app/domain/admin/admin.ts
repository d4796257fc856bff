import * as z from 'zod/mini'
import { DEFAULT_TYRE_DAYS, parseDayOfYear } from '~/domain/service-flow/reminders'
import { counties } from '~/domain/directory/counties'
import { supportedLanguages } from '~/i18n/config'
import { checkbox, companyId, emailAddress, hasNoControlCharacters, messages, moneyAmount, nameText, plainText, requiredText, searchText, wholeNumber } from '~/utils/validation'

/**
 * The administration area's forms (issue 10), one schema each, shared by the routes and their
 * browser-side validation. Errors are translation keys like every other form's.
 */

export const adminRoles = ['customer', 'workshop', 'admin'] as const
export const ADMIN_PAGE_SIZE = 25

const page = z.catch(z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(10_000)), 1), 1)

/** The user search (?q=&role=&page=): lenient like a search box. */
export const UserSearchSchema = z.object({
	q: searchText(),
	role: z.catch(z.optional(z.enum(adminRoles)), undefined),
	page,
})
export type UserSearch = z.infer<typeof UserSearchSchema>

export const PageQuerySchema = z.object({ page })

export const ChangeEmailSchema = z.object({ email: emailAddress() })

/** The workshop fields only customer service may change (spec §5). */
export const CompanyFieldsSchema = z.object({ companyName: nameText(), companyId: companyId() })

const optionalUrl = () =>
	z._default(
		z
			.string()
			.check(
				z.trim(),
				z.maxLength(300, messages.tooLong),
				z.refine((value) => value === '' || (/^https?:\/\/[^\s]+$/i.test(value) && hasNoControlCharacters(value)), messages.url),
			),
		'',
	)

const text = (max: number) => z._default(plainText(max), '')


/** A whole number from a form field, 0 when empty. */
const sortOrder = (max: number) =>
	z._default(z.coerce.number({ error: 'validation.number' }).check(z.int('validation.number'), z.minimum(0, 'validation.number'), z.maximum(max, 'validation.number')), 0)

/** Site data of spec §3 (logo and favicon are files beside these fields) and the invoice seller. */
/** A day of every year as typed ("1.10", "01.10."), stored "10-01"; empty keeps the default. */
const dayOfYear = (fallback: string) =>
	z.pipe(
		z._default(z.string().check(z.trim()), ''),
		z.transform((value: string, context) => {
			if (value === '') return fallback
			const day = parseDayOfYear(value)
			if (!day) context.issues.push({ code: 'custom', message: 'admin:validation.dayOfYear', input: value })
			return day ?? fallback
		}),
	)

export const SiteSettingsSchema = z.object({
	appname: requiredText(60),
	siteAddress: text(300),
	siteAddressEstonian: text(300),
	siteAddressRussian: text(300),
	siteEmail: emailAddress(),
	countryCode: z._default(z.string().check(z.trim(), z.regex(/^(\+[0-9]{1,4})?$/, 'admin:validation.countryCode')), ''),
	sitePhoneNumber: z._default(z.string().check(z.trim(), z.regex(/^([0-9][0-9 ()-]{2,18}[0-9])?$/, messages.mobile)), ''),
	facebookLink: optionalUrl(),
	twitterLink: optionalUrl(),
	instagramLink: optionalUrl(),
	linkedinLink: optionalUrl(),
	companyName: text(200),
	companyRegistryCode: text(40),
	vatNumber: text(40),
	/** Percent as typed ("24", "22,5") → basis points. */
	vatRate: z.pipe(
		z.string({ error: messages.required }).check(z.trim(), z.regex(/^\d{1,2}([.,]\d{1,2})?$/, 'admin:validation.vatRate')),
		z.transform((value: string) => Math.round(Number(value.replace(',', '.')) * 100)),
	),
	/** The seasonal tyres' reminder days, typed "1.10" → "10-01" (issue 20). */
	tyreAutumnDay: dayOfYear(DEFAULT_TYRE_DAYS.autumn),
	tyreSpringDay: dayOfYear(DEFAULT_TYRE_DAYS.spring),
	/** Bookings (issue 33): a time is changed or cancelled freely until this many hours before it; the customer's two reminders; a typical job's minutes. */
	// Absent (a caller that predates them), they keep the defaults.
	bookingFreeChangeHours: z._default(wholeNumber(0, 168), 24),
	bookingFirstReminderHours: z._default(wholeNumber(1, 168), 24),
	bookingSecondReminderHours: z._default(wholeNumber(1, 168), 2),
	bookingTypicalMinutes: z._default(wholeNumber(15, 480), 60),
}).check(
	z.refine((value) => value.bookingSecondReminderHours < value.bookingFirstReminderHours, {
		path: ['bookingSecondReminderHours'],
		message: 'admin:validation.secondReminderBeforeFirst',
	}),
)
export type SiteSettingsInput = z.infer<typeof SiteSettingsSchema>

export const contentSlugs = ['about-us', 'terms-and-conditions', 'privacy-policy'] as const
export const contentLanguages = ['et', 'en', 'ru'] as const

export const ContentPageSchema = z.object({
	title: requiredText(150),
	bodyHtml: requiredText(100_000),
})

export const AdSchema = z
	.object({
		adsType: z.enum(['image', 'html'], { error: messages.choose }),
		placement: z.enum(['Header', 'Footer'], { error: messages.choose }),
		/** The language of its text: readers of another language never see it (issue 32). */
		language: z.enum(supportedLanguages, { error: messages.choose }),
		adsLink: z._default(
			z
				.string()
				.check(
					z.trim(),
					z.maxLength(500, messages.tooLong),
					z.refine((value) => value === '' || (/^(https?:\/\/[^\s]+|\/[^\s/][^\s]*|\/)$/i.test(value) && hasNoControlCharacters(value)), messages.url),
				),
			'',
		),
		content: z._default(plainText(20_000), ''),
		sortOrder: sortOrder(9999),
		active: checkbox(),
	})
	.check(z.refine((value) => value.adsType !== 'html' || Boolean(value.content), { path: ['content'], message: messages.required }))
export type AdInput = z.infer<typeof AdSchema>

export const PackageSchema = z.object({
	nameEt: requiredText(60),
	nameEn: requiredText(60),
	nameRu: requiredText(60),
	/** A price in euros ("0", "19.90", "19,9") → cents; 0 for a free package. */
	price: moneyAmount({ min: 0, max: 99_999_999 }),
	/** Empty means unlimited. */
	offersPerMonth: z.pipe(
		z._default(z.string().check(z.trim(), z.regex(/^\d{0,5}$/, 'validation.number')), ''),
		z.transform((value: string) => (value === '' ? null : Number(value))),
	),
	active: checkbox(),
})
export type PackageInput = z.infer<typeof PackageSchema>

export const referenceListNames = ['services', 'carBrands', 'spareParts', 'paymentMethods', 'cities'] as const
export type AdminReferenceList = (typeof referenceListNames)[number]

export const ReferenceItemSchema = z.object({
	code: z.string({ error: messages.required }).check(z.trim(), z.toLowerCase(), z.regex(/^[a-z0-9][a-z0-9-]{0,59}$/, 'admin:validation.code')),
	nameEt: requiredText(100),
	nameEn: requiredText(100),
	nameRu: requiredText(100),
	sortOrder: sortOrder(99_999),
	active: checkbox(),
})
export type ReferenceItemInput = z.infer<typeof ReferenceItemSchema>

/**
 * A city also names its county, where the usual prices are counted (issue 35): one of Estonia's
 * fifteen, required for a new city; a city saved before counties may stay without one until an
 * administrator chooses (its form then offers "—").
 */
export const cityItemSchema = (isNew: boolean) =>
	z.extend(ReferenceItemSchema, {
		county: isNew ? z.enum(counties, { error: 'admin:validation.county' }) : z.optional(z.enum(counties, { error: 'admin:validation.county' })),
	})
export type CityItemInput = ReferenceItemInput & { county?: (typeof counties)[number] }

export const MessageQuerySchema = z.object({
	page,
	show: z.catch(z._default(z.enum(['open', 'all']), 'open'), 'open'),
})
