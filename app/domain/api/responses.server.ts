import * as z from 'zod'
import { type ApiWorkshopCard, type ApiWorkshopProfile } from '~/domain/directory/api-shapes.server'
import { type FilterOptions, type PublicReview, workshopFreeFilters, workshopSorts } from '~/domain/directory/workshops'
import { type ApiAd } from '~/domain/site/ads.server'
import { supportedLanguages } from '~/i18n/config'

/**
 * The answers of the JSON API (docs/api.md) as zod schemas: the OpenAPI document
 * (./openapi.server.ts) is generated from them, and tests/integration/api-contract.test.ts parses
 * real answers with them. Strict objects: a field added to an answer and not here fails the test,
 * so the document cannot fall behind. The type checks at the end tie them to the domain's types.
 */

/** The answers' schemas by name: the document's components/schemas. */
export const responseSchemas = z.registry<{ id: string }>()

const isoTime = z.iso.datetime().meta({ description: 'ISO 8601, UTC' })
const absoluteUrl = z.url().meta({ description: 'An absolute URL (built from APP_URL).' })
const count = z.int().min(0)

// --- errors -------------------------------------------------------------------------------------

export const ErrorBodySchema = z
	.strictObject({
		status: z.int().min(400).max(599).meta({ description: 'The HTTP status, repeated.' }),
		message: z.string().meta({ description: 'What went wrong, in the language asked for.' }),
	})
	.register(responseSchemas, { id: 'Error' })

export const ValidationErrorBodySchema = z
	.strictObject({
		status: z.literal(422),
		message: z.string(),
		errors: z.record(z.string(), z.array(z.string())).meta({ description: 'One text per field, in the language asked for.' }),
	})
	.register(responseSchemas, { id: 'ValidationError' })

/** `{ status: 200, message }`: contact-us, send-chat, logout, visit-insert, widget-request. */
export const MessageResponseSchema = z.strictObject({ status: z.literal(200), message: z.string() }).register(responseSchemas, { id: 'Message' })

// --- site ---------------------------------------------------------------------------------------

export const SiteSettingsResponseSchema = z
	.strictObject({
		responseCode: z.literal(1),
		responseData: z.strictObject({
			appname: z.string(),
			favicon: absoluteUrl.nullable(),
			logo: absoluteUrl.nullable(),
			siteAddress: z.string(),
			siteAddressEstonian: z.string(),
			siteAddressRussian: z.string(),
			siteEmail: z.string(),
			countryCode: z.string(),
			sitePhoneNumber: z.string(),
			facebookLink: z.string(),
			twitterLink: z.string(),
			instagramLink: z.string(),
			linkedinLink: z.string(),
		}),
	})
	.register(responseSchemas, { id: 'SiteSettings' })

/** site-settings keeps the spec's own envelope on failure. */
export const SiteSettingsFailureSchema = z.strictObject({ responseCode: z.literal(0), responseData: z.null() }).register(responseSchemas, { id: 'SiteSettingsFailure' })

const AdSchema = z
	.strictObject({
		ads_type: z.int().meta({ description: '1: an image with an optional link; any other: sanitized HTML in `content`.' }),
		image: absoluteUrl.nullable(),
		ads_link: absoluteUrl.nullable(),
		content: z.string().nullable(),
		placement: z.enum(['Header', 'Footer']),
		language: z.enum(supportedLanguages),
	})
	.register(responseSchemas, { id: 'Ad' })

export const AdsResponseSchema = z.strictObject({ status: z.literal(200), data: z.array(AdSchema) }).register(responseSchemas, { id: 'Ads' })

// --- directory ----------------------------------------------------------------------------------

const FreeTimeSchema = z
	.strictObject({ startsAt: isoTime, url: absoluteUrl.meta({ description: "The portal's request form with this time filled in, by way of the log-in page." }) })
	.register(responseSchemas, { id: 'FreeTime' })

const WorkshopCardSchema = z
	.strictObject({
		id: z.string().meta({ description: 'The public id: base64url of the UUID.' }),
		name: z.string(),
		city: z.string().nullable(),
		logo: absoluteUrl.nullable(),
		ratingAverage: z.number().min(0).max(5),
		reviewCount: count,
		services: z.array(z.string()).max(4),
		featured: z.boolean().meta({ description: 'On the paid package; changes no sort.' }),
		url: absoluteUrl,
		nextFree: FreeTimeSchema.nullable(),
	})
	.register(responseSchemas, { id: 'WorkshopCard' })

export const WorkshopListResponseSchema = z
	.strictObject({
		status: z.literal(200),
		data: z.strictObject({
			items: z.array(WorkshopCardSchema),
			promoted: z.array(WorkshopCardSchema).max(3).meta({ description: 'Paid workshops passing the filters: show apart, labelled as an ad.' }),
			page: z.int().min(1),
			pageSize: z.int().min(1),
			total: count,
			totalPages: count,
			capped: z.boolean(),
			query: z
				.strictObject({
					q: z.string().optional(),
					city: z.string().optional(),
					service: z.string().optional(),
					brand: z.string().optional(),
					free: z.enum(workshopFreeFilters).optional(),
					sort: z.enum(workshopSorts),
					page: z.int().min(1),
				})
				.meta({ description: 'The query as understood, after dropping what could not be used.' }),
		}),
	})
	.register(responseSchemas, { id: 'WorkshopList' })

const OptionSchema = z.strictObject({ code: z.string(), name: z.string() })

export const WorkshopFiltersResponseSchema = z
	.strictObject({
		status: z.literal(200),
		data: z.strictObject({ cities: z.array(OptionSchema), services: z.array(OptionSchema), brands: z.array(OptionSchema), sorts: z.array(z.enum(workshopSorts)) }),
	})
	.register(responseSchemas, { id: 'WorkshopFilters' })

const hours = z.strictObject({ opens: z.string(), closes: z.string() }).nullable().meta({ description: 'Local time (Europe/Tallinn) HH:MM; null: closed.' })

const WorkshopProfileSchema = z
	.strictObject({
		id: z.string(),
		name: z.string(),
		companyName: z.string(),
		featured: z.boolean(),
		logo: absoluteUrl.nullable(),
		photos: z.array(z.strictObject({ url: absoluteUrl, thumbnail: absoluteUrl })),
		marketingText: z.string(),
		address: z.strictObject({ street: z.string(), zipCode: z.string(), city: z.string().nullable(), cityCode: z.string().nullable(), state: z.string() }),
		phone: z.string(),
		email: z.string(),
		website: z.string().nullable(),
		foundedYear: z.int().nullable(),
		installersCount: z.int().nullable(),
		carBrands: z.array(z.string()),
		services: z.array(z.string()),
		additionalServices: z.string(),
		spareParts: z.array(z.string()),
		paymentMethods: z.array(z.string()),
		openingHours: z.strictObject({ weekdays: hours, saturday: hours, sunday: hours }),
		nextFreeTimes: z.array(FreeTimeSchema).max(3),
		warranty: z.strictObject({ workKm: z.int().nullable(), partsMonths: z.int().nullable(), info: z.string(), document: absoluteUrl.nullable() }),
		ratingAverage: z.number().min(0).max(5),
		reviewCount: count,
		priceRecord: z.strictObject({ jobs: count, atQuotedPercent: z.int().min(0).max(100) }).nullable(),
		url: absoluteUrl,
	})
	.register(responseSchemas, { id: 'WorkshopProfile' })

const ReviewSchema = z
	.strictObject({
		id: z.string(),
		rating: z.int().min(1).max(5),
		title: z.string(),
		body: z.string(),
		reviewer: z.string().meta({ description: 'First name and the initial of the last name.' }),
		reviewerVerified: z.boolean().meta({ description: 'The reviewer signed in with eID (Smart-ID, Mobile-ID or ID-card): a verified person.' }),
		createdAt: isoTime,
		reply: z.string().nullable(),
		repliedAt: isoTime.nullable(),
		verifiedJob: z.boolean(),
		services: z.array(z.string()),
		quotedCents: z.int().nullable(),
		paidCents: z.int().nullable(),
	})
	.register(responseSchemas, { id: 'Review' })

export const WorkshopDetailsResponseSchema = z
	.strictObject({
		status: z.literal(200),
		data: z.strictObject({
			workshop: WorkshopProfileSchema,
			rating: z.strictObject({ average: z.number().min(0).max(5), count }),
			reviews: z.strictObject({ items: z.array(ReviewSchema), page: z.int().min(1), pageSize: z.int().min(1), total: count, totalPages: count, capped: z.boolean() }),
		}),
	})
	.register(responseSchemas, { id: 'WorkshopDetails' })

// --- accounts and messaging ---------------------------------------------------------------------

export const LoginResponseSchema = z
	.strictObject({
		status: z.literal(200),
		message: z.string(),
		token: z.string().meta({ description: 'The Bearer token for the signed-in calls; valid 30 days, until logout or the account is blocked.' }),
		data: z.strictObject({
			id: z.uuid(),
			roles_slug: z.string().meta({ description: 'The role: customer, workshop or admin.' }),
			first_name: z.string(),
			last_name: z.string(),
			workshop_name: z.string().nullable(),
		}),
	})
	.register(responseSchemas, { id: 'Login' })

const NotificationSchema = z
	.strictObject({
		id: z.uuid(),
		message: z.string(),
		is_read: z.boolean(),
		type: z.int().min(1).max(5),
		received_id: z.string().nullable().meta({ description: 'What the notice is about (a user, a request, an offer), by type.' }),
		created_at: isoTime,
	})
	.register(responseSchemas, { id: 'Notification' })

export const NotificationsResponseSchema = z
	.strictObject({ status: z.literal(200), notifications: z.array(NotificationSchema).max(20), unreadNotifications: count })
	.register(responseSchemas, { id: 'Notifications' })

export const ChatResponseSchema = z
	.strictObject({ status: z.literal(200), chats: z.array(z.strictObject({ sender_id: z.uuid(), message: z.string(), created_at: isoTime })) })
	.register(responseSchemas, { id: 'Chat' })

// Compile-time ties to the domain's own types: a field added there and not here fails `tsc`.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Card = z.output<typeof WorkshopCardSchema>
type Profile = z.output<typeof WorkshopProfileSchema>
export const _typeChecks: [
	Same<keyof Card, keyof ApiWorkshopCard>,
	Same<keyof Profile, keyof ApiWorkshopProfile>,
	Same<keyof z.output<typeof ReviewSchema>, keyof PublicReview>,
	Same<keyof z.output<typeof AdSchema>, keyof ApiAd>,
	Same<keyof z.output<typeof WorkshopFiltersResponseSchema>['data'], keyof FilterOptions | 'sorts'>,
] = [true, true, true, true, true]
