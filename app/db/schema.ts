/**
 * The whole product's data model, one PostgreSQL schema for PGlite and for a server.
 *
 * Conventions (docs/decisions/0002-identifiers.md, 0003-data-model.md):
 * - Every table's primary key is a random UUID; no sequential id ever reaches a URL or an API.
 *   Routes carry the base64url encoding of that UUID (app/utils/public-id.ts).
 * - Money is stored in integer cents; currency is EUR.
 * - Columns are snake_case in SQL and camelCase in TypeScript (drizzle `casing: 'snake_case'`).
 * - Statuses are PostgreSQL enums; the request and offer statuses and their moves are data in
 *   app/domain/service-flow/status.ts.
 */
import { relations, sql } from 'drizzle-orm'
import {
	type AnyPgColumn,
	bigint,
	boolean,
	check,
	date,
	doublePrecision,
	index,
	integer,
	jsonb,
	pgEnum,
	pgSequence,
	pgTable,
	primaryKey,
	smallint,
	text,
	time,
	timestamp,
	unique,
	uniqueIndex,
	uuid,
} from 'drizzle-orm/pg-core'
import { offerLineKinds, partQualities, vatModes } from '../domain/service-flow/offer-kinds'
import { billDecisions } from '../domain/service-flow/final-bill'
import { moderationDecisions, reportReasons } from '../domain/service-flow/review-moderation'
import { extraWorkStatuses, offerStatuses, requestStatuses } from '../domain/service-flow/status'
import { fuelTypes, odometerUnits, transmissions, vehicleClasses } from '../domain/service-flow/vehicle-kinds'
import { engineBands } from '../domain/pricing/price-kinds'
import { counties } from '../domain/directory/counties'
import { reminderKinds } from '../domain/service-flow/reminders'
import { consentKinds } from '../domain/privacy/consents'
import { bookingChangeStatuses, bookingStatuses } from '../domain/booking/status'

export { fuelTypes, transmissions }

const id = () => uuid().primaryKey().defaultRandom()
const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow()
const updatedAt = () =>
	timestamp({ withTimezone: true })
		.notNull()
		.defaultNow()
		.$onUpdate(() => new Date())
const moment = () => timestamp({ withTimezone: true })

// ---------------------------------------------------------------- enums

export const languages = ['et', 'en', 'ru'] as const
export const languageEnum = pgEnum('language', languages)

export const userRoles = ['customer', 'workshop', 'admin'] as const
export const userRoleEnum = pgEnum('user_role', userRoles)

export const sessionKindEnum = pgEnum('session_kind', ['web', 'api'])
export const consentKindEnum = pgEnum('consent_kind', consentKinds)

// The service flow's statuses and moves are data in app/domain/service-flow/status.ts.
export { offerStatuses, requestStatuses }
export const requestStatusEnum = pgEnum('request_status', requestStatuses)

export const offerStatusEnum = pgEnum('offer_status', offerStatuses)
export const extraWorkStatusEnum = pgEnum('extra_work_status', extraWorkStatuses)
export const billDecisionEnum = pgEnum('bill_decision', billDecisions)
export const reportReasonEnum = pgEnum('review_report_reason', reportReasons)
export const moderationDecisionEnum = pgEnum('moderation_decision', moderationDecisions)
export const offerLineKindEnum = pgEnum('offer_line_kind', offerLineKinds)
export const vatModeEnum = pgEnum('vat_mode', vatModes)
export const partQualityEnum = pgEnum('part_quality', partQualities)
export const bookingStatusEnum = pgEnum('booking_status', bookingStatuses)
export const bookingChangeStatusEnum = pgEnum('booking_change_status', bookingChangeStatuses)
export const bookingPartyEnum = pgEnum('booking_party', ['customer', 'workshop'])

export const fuelTypeEnum = pgEnum('fuel_type', fuelTypes)

export const transmissionEnum = pgEnum('transmission', transmissions)

export const odometerUnitEnum = pgEnum('odometer_unit', odometerUnits)
/** A vehicle's class, which prices follow (issue 35, docs/decisions/0146). */
export const vehicleClassEnum = pgEnum('vehicle_class', vehicleClasses)
export const engineBandEnum = pgEnum('engine_band', engineBands)

export const reminderKindEnum = pgEnum('reminder_kind', reminderKinds)

export const uploadPurposes = [
	'workshop_logo',
	'workshop_photo',
	'warranty_document',
	'request_image',
	'offer_attachment',
	'invoice',
	/** The workshop's invoice or receipt of a completed job (issue 20): its customer and the workshop. */
	'job_invoice',
	/** A document of work done elsewhere that the owner added to the vehicle's history: the owner only. */
	'service_document',
	'site_logo',
	'site_favicon',
	'ad_image',
] as const
export const uploadPurposeEnum = pgEnum('upload_purpose', uploadPurposes)

export const adPlacements = ['Header', 'Footer'] as const
export const adPlacementEnum = pgEnum('ad_placement', adPlacements)

export const subscriptionStatuses = ['pending_payment', 'active', 'expired', 'replaced'] as const
export const subscriptionStatusEnum = pgEnum('subscription_status', subscriptionStatuses)

export const paymentStatuses = ['pending', 'paid', 'cancelled', 'failed'] as const
export const paymentStatusEnum = pgEnum('payment_status', paymentStatuses)

/** logged: kept in the outbox and printed in the log because no SMTP server is configured. */
export const emailStatuses = ['pending', 'sent', 'logged', 'failed'] as const
export const emailStatusEnum = pgEnum('email_status', emailStatuses)

// ---------------------------------------------------------------- accounts

export const users = pgTable(
	'users',
	{
		id: id(),
		email: text().notNull(),
		/**
		 * The scrypt hash; null for an account made with eID that has no password yet (issue 36,
		 * decision 0150): it signs in with eID only, until a reset link sets one.
		 */
		passwordHash: text(),
		role: userRoleEnum().notNull(),
		firstName: text().notNull(),
		lastName: text().notNull(),
		mobile: text().notNull().default(''),
		preferredLanguage: languageEnum(),
		/** The e-mails this person turned off or set apart ({ offers: 'off', newRequests: 'digest' }; absent is on). */
		emailPreferences: jsonb().$type<Record<string, string>>().notNull().default({}),
		blocked: boolean().notNull().default(false),
		blockedAt: moment(),
		/**
		 * The account was deleted (issue 21, decision 0111): the person's data is gone or anonymised;
		 * the row stays for what others and the law rely on (reviews as "Former customer", invoices).
		 */
		deletedAt: moment(),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
		index('users_role_created_idx').on(t.role, t.createdAt),
		index('users_name_trgm_idx').using('gin', sql`(${t.firstName} || ' ' || ${t.lastName}) gin_trgm_ops`),
		// The few blocked accounts, so the directory can leave their workshops out cheaply (docs/decisions/0050).
		index('users_blocked_idx').on(t.id).where(sql`${t.blocked}`),
	],
)

/** A signed-in browser (kind web, token in the cookie) or an API token (kind api, bearer). */
export const sessions = pgTable(
	'sessions',
	{
		id: id(),
		userId: uuid()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		kind: sessionKindEnum().notNull().default('web'),
		/** SHA-256 of the token; the token itself is never stored. */
		tokenHash: text().notNull().unique(),
		expiresAt: moment().notNull(),
		lastSeenAt: moment().notNull().defaultNow(),
		userAgent: text(),
		/** How this session was opened: password, eid or passkey (issue 36: /admin asks for eid or passkey); null for sessions older than the column. */
		signInMethod: text(),
		createdAt: createdAt(),
	},
	(t) => [index('sessions_user_idx').on(t.userId)],
)

/**
 * A person's eID linked to an account (issue 36, decision 0150): Smart-ID, Mobile-ID or ID-card
 * through an OpenID provider (RIA's TARA or a broker). The personal code is never stored, only its
 * keyed hash (HMAC-SHA-256 with EID_HASH_SECRET of "country:code"), unique: one eID opens one
 * account, and an account has one eID. Its names are the account's (users.first_name, last_name),
 * verified and not editable while it is linked. Other ways to sign in (passkeys) get tables of
 * their own beside this one; "may this one go" asks them all (`signInMethods`).
 */
export const eidIdentities = pgTable(
	'eid_identities',
	{
		id: id(),
		userId: uuid()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		/** HMAC-SHA-256 of "country:personal code", hex. */
		subjectHash: text().notNull(),
		/** The issuing country (ISO 3166-1 alpha-2, "EE"): shown as "Estonian eID". */
		country: text().notNull(),
		/** The method of the last sign-in, as the provider named it (amr: mID, smartid, idcard, eIDAS). */
		lastMethod: text(),
		lastUsedAt: moment(),
		createdAt: createdAt(),
	},
	(t) => [uniqueIndex('eid_identities_subject_key').on(t.subjectHash), uniqueIndex('eid_identities_user_key').on(t.userId)],
)

/**
 * A passkey (issue 36, docs/decisions/0151): a WebAuthn credential a person added on
 * /settings/passkeys and may sign in with instead of a password. Its public key and signature
 * counter; a sign-in whose counter is not above the stored one (a cloned authenticator) is refused.
 */
export const passkeys = pgTable(
	'passkeys',
	{
		id: id(),
		userId: uuid()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		/** The credential's id, base64url, as authenticators name it. */
		credentialId: text().notNull().unique(),
		/** The COSE public key, base64url. */
		publicKey: text().notNull(),
		counter: bigint({ mode: 'number' }).notNull().default(0),
		transports: text().array().notNull().default(sql`'{}'`),
		/** Synced between the person's devices (multiDevice) and backed up, as the authenticator says. */
		multiDevice: boolean().notNull().default(false),
		backedUp: boolean().notNull().default(false),
		/** The name its owner gave it ("Phone", "Laptop"). */
		name: text().notNull(),
		lastUsedAt: moment(),
		createdAt: createdAt(),
	},
	(t) => [index('passkeys_user_idx').on(t.userId, t.createdAt)],
)

/**
 * A WebAuthn challenge handed out for one ceremony (adding a passkey, or signing in with one),
 * taken once: the answer's challenge is deleted as it is checked, so a replayed answer finds none.
 */
export const webauthnChallenges = pgTable(
	'webauthn_challenges',
	{
		challenge: text().primaryKey(),
		/** Adding a passkey: the person adding it; signing in: null (the passkey says who). */
		userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
		purpose: text().notNull(),
		expiresAt: moment().notNull(),
	},
	(t) => [index('webauthn_challenges_expires_idx').on(t.expiresAt), check('webauthn_challenges_purpose', sql`${t.purpose} in ('add', 'sign-in')`)],
)

export const passwordResetTokens = pgTable(
	'password_reset_tokens',
	{
		id: id(),
		userId: uuid()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		tokenHash: text().notNull().unique(),
		expiresAt: moment().notNull(),
		usedAt: moment(),
		createdAt: createdAt(),
	},
	(t) => [index('password_reset_tokens_user_idx').on(t.userId)],
)

/** Fixed-window counters shared by every process (login, registration, reset, contact). */
export const rateLimits = pgTable('rate_limits', {
	key: text().primaryKey(),
	hits: integer().notNull().default(0),
	windowEndsAt: moment().notNull(),
})

// ---------------------------------------------------------------- reference lists

/** Every reference list has the same shape: a stable code (used in URLs and widgets) and a name per language. */
const referenceColumns = () => ({
	id: id(),
	code: text().notNull().unique(),
	nameEt: text().notNull(),
	nameEn: text().notNull(),
	nameRu: text().notNull(),
	sortOrder: integer().notNull().default(0),
	active: boolean().notNull().default(true),
})
const referenceList = (name: string) => pgTable(name, referenceColumns())

export const services = referenceList('services')
export const carBrands = referenceList('car_brands')
export const spareParts = referenceList('spare_parts')
export const paymentMethods = referenceList('payment_methods')
/** A city is also in a county, where the usual price of a service is counted (issue 35); null until an administrator says. */
export const cities = pgTable('cities', { ...referenceColumns(), county: text() }, (_t) => [
	check('cities_county_known', sql.raw(`county is null or county in (${counties.map((c) => `'${c}'`).join(', ')})`)),
])

// ---------------------------------------------------------------- files

/** A stored file (under DATA_DIR/uploads); checked by content before it gets a row here. */
export const uploads = pgTable(
	'uploads',
	{
		id: id(),
		ownerId: uuid().references(() => users.id, { onDelete: 'set null' }),
		purpose: uploadPurposeEnum().notNull(),
		mimeType: text().notNull(),
		byteSize: integer().notNull(),
		sha256: text().notNull(),
		storageKey: text().notNull().unique(),
		thumbnailKey: text(),
		width: integer(),
		height: integer(),
		/**
		 * The widths of the image's smaller copies, each in AVIF and WebP (issue 18, decision 0093);
		 * null for an image stored before they were made (the clean-up job makes them), empty for a
		 * file that has none (a PDF). Their keys follow from storageKey (variantKey in storage.server).
		 */
		variantWidths: integer().array(),
		originalName: text(),
		/** Re-encoded without metadata (every upload since issue 13; older images by the clean-up job). */
		metadataStripped: boolean().notNull().default(true),
		/**
		 * Held for a form that failed on another field (issue 16): the owner's only, until the form
		 * is sent again (then null) or the clean-up job forgets it a day later.
		 */
		heldSince: moment(),
		createdAt: createdAt(),
	},
	(t) => [
		index('uploads_owner_idx').on(t.ownerId),
		index('uploads_unstripped_idx').on(t.id).where(sql`not metadata_stripped`),
		index('uploads_held_idx').on(t.heldSince).where(sql`held_since is not null`),
		index('uploads_without_variants_idx').on(t.id).where(sql`variant_widths is null`),
	],
)

// ---------------------------------------------------------------- workshops

export const workshops = pgTable(
	'workshops',
	{
		id: id(),
		userId: uuid()
			.notNull()
			.unique()
			.references(() => users.id, { onDelete: 'cascade' }),
		contactFirstName: text().notNull(),
		contactLastName: text().notNull(),
		companyName: text().notNull(),
		/**
		 * The spec's "company ID", not a foreign key: an 8-digit Estonian registry code or a 10-digit
		 * number (decision 0120; the check digit is the domain's, app/utils/registry-code.ts).
		 */
		companyId: text().notNull(),
		workshopName: text().notNull(),
		phone: text().notNull().default(''),
		email: text().notNull().default(''),
		billingEmail: text(),
		/** Its VAT number (e.g. EE102345678), printed on its invoices as the buyer's; null without one. */
		vatNumber: text(),
		/** Its invoice e-mails also carry the EN 16931 e-invoice (UBL XML), decision 0110. */
		wantsEInvoice: boolean().notNull().default(false),
		website: text(),
		foundedYear: integer(),
		installersCount: integer(),
		state: text().notNull().default(''),
		cityId: uuid().references(() => cities.id),
		streetName: text().notNull().default(''),
		zipCode: text().notNull().default(''),
		marketingText: text().notNull().default(''),
		additionalServices: text().notNull().default(''),
		logoUploadId: uuid().references(() => uploads.id, { onDelete: 'set null' }),
		/** Opening hours; a null pair means closed that day. */
		weekdayOpens: time(),
		weekdayCloses: time(),
		saturdayOpens: time(),
		saturdayCloses: time(),
		sundayOpens: time(),
		sundayCloses: time(),
		/** Its next free start for a typical job, from its calendar (issue 33): kept by the booking domain for the directory's "free this week". */
		nextFreeAt: moment(),
		/** When next_free_at was last computed: the refresh job takes the longest unchecked first (null: never, after migration 0037). */
		nextFreeCheckedAt: moment(),
		warrantyWorkKm: integer(),
		warrantyPartsMonths: integer(),
		warrantyInfo: text().notNull().default(''),
		warrantyDocumentUploadId: uuid().references(() => uploads.id, { onDelete: 'set null' }),
		/** Kept in step with reviews in the same transaction, so the directory sorts on an index. */
		ratingAverage: doublePrecision().notNull().default(0),
		reviewCount: integer().notNull().default(0),
		/** Median minutes from a matching request to this workshop's offer over 90 days; null below 5 offers. */
		responseMinutes: integer(),
		/** 1 while a paid package is active (shown in the directory's ad block; no sort uses it), else 0; kept by the subscription domain. */
		packageRank: smallint().notNull().default(0),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		index('workshops_city_idx').on(t.cityId),
		index('workshops_featured_idx').on(t.packageRank.desc(), t.ratingAverage.desc(), t.reviewCount.desc()),
		index('workshops_review_count_idx').on(t.reviewCount.desc()),
		index('workshops_next_free_at_idx').on(t.nextFreeAt),
		index('workshops_name_idx').on(sql`lower(${t.workshopName})`),
		index('workshops_name_trgm_idx').using('gin', sql`${t.workshopName} gin_trgm_ops`),
		check('workshops_company_id_digits', sql`${t.companyId} ~ '^([0-9]{8}|[0-9]{10})$'`),
	],
)

/** Many-to-many links from a workshop to a reference list, indexed from both sides for filters. */
const workshopLink = <T extends typeof services>(name: string, target: T, column: string) =>
	pgTable(
		name,
		{
			workshopId: uuid()
				.notNull()
				.references(() => workshops.id, { onDelete: 'cascade' }),
			itemId: uuid(column)
				.notNull()
				.references(() => target.id, { onDelete: 'cascade' }),
		},
		(t) => [primaryKey({ columns: [t.workshopId, t.itemId] }), index(`${name}_item_idx`).on(t.itemId, t.workshopId)],
	)

export const workshopServices = workshopLink('workshop_services', services, 'service_id')
export const workshopCarBrands = workshopLink('workshop_car_brands', carBrands, 'car_brand_id')
export const workshopSpareParts = workshopLink('workshop_spare_parts', spareParts, 'spare_part_id')
export const workshopPaymentMethods = workshopLink('workshop_payment_methods', paymentMethods, 'payment_method_id')

export const workshopPhotos = pgTable(
	'workshop_photos',
	{
		id: id(),
		workshopId: uuid()
			.notNull()
			.references(() => workshops.id, { onDelete: 'cascade' }),
		uploadId: uuid()
			.notNull()
			.references(() => uploads.id, { onDelete: 'cascade' }),
		position: integer().notNull().default(0),
	},
	(t) => [index('workshop_photos_workshop_idx').on(t.workshopId, t.position)],
)

// ---------------------------------------------------------------- vehicles and requests

export const vehicles = pgTable(
	'vehicles',
	{
		id: id(),
		ownerId: uuid()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		/** Stored upper-case without spaces; unique among vehicles that are not deleted. */
		registrationNumber: text().notNull(),
		vin: text(),
		shortDescription: text().notNull().default(''),
		vehicleYear: integer(),
		registrationYear: integer(),
		manufactureYear: integer(),
		fuelType: fuelTypeEnum(),
		brandId: uuid()
			.notNull()
			.references(() => carBrands.id),
		model: text().notNull(),
		modelSpecification: text().notNull(),
		transmission: transmissionEnum().notNull(),
		/**
		 * The odometer's reading in km, whatever the unit (issue 32); `odometer_unit` is the unit the
		 * owner reads it in, which forms take and pages show (decision 0122).
		 */
		mileage: integer().notNull(),
		odometerUnit: odometerUnitEnum().notNull().default('km'),
		/** Its class and engine size, which prices follow (issue 35): a price list's item and a usual price are per class. */
		vehicleClass: vehicleClassEnum().notNull().default('family'),
		engineCc: integer(),
		/**
		 * The vehicle passport's private links (issue 20): its calendar (reminders and warranty ends)
		 * for the owner's phone; null until made, a new one when revoked.
		 */
		calendarToken: text(),
		/** Its history's read-only link for a buyer (the PDF); null until made, a new one when revoked. */
		historyToken: text(),
		/** Soft delete keeps the service history of a vehicle that was removed. */
		deletedAt: moment(),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		uniqueIndex('vehicles_registration_number_key').on(t.registrationNumber).where(sql`${t.deletedAt} is null`),
		uniqueIndex('vehicles_calendar_token_key').on(t.calendarToken),
		uniqueIndex('vehicles_history_token_key').on(t.historyToken),
		index('vehicles_owner_idx').on(t.ownerId, t.createdAt),
		check('vehicles_vin_length', sql`${t.vin} is null or length(${t.vin}) = 17`),
		check('vehicles_mileage_positive', sql`${t.mileage} >= 0`),
		check('vehicles_engine_cc', sql`${t.engineCc} between 50 and 10000`),
	],
)

/**
 * A vehicle's change of owner (issue 32, decision 0123): its owner (the seller) makes a one-time
 * code, valid until `expires_at` unless revoked; the buyer who claims it with the code becomes the
 * vehicle's owner. Only the code's hash is kept. At most one open transfer per vehicle; a claim
 * takes it in one statement (claimed_at still null), so of two claims of one code one wins.
 */
export const vehicleTransfers = pgTable(
	'vehicle_transfers',
	{
		id: id(),
		vehicleId: uuid()
			.notNull()
			.references(() => vehicles.id, { onDelete: 'cascade' }),
		sellerId: uuid()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		codeHash: text().notNull(),
		expiresAt: timestamp({ withTimezone: true }).notNull(),
		claimedAt: moment(),
		claimedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
		revokedAt: moment(),
		createdAt: createdAt(),
	},
	(t) => [
		uniqueIndex('vehicle_transfers_code_hash_key').on(t.codeHash),
		uniqueIndex('vehicle_transfers_one_open_key').on(t.vehicleId).where(sql`${t.claimedAt} is null and ${t.revokedAt} is null`),
		index('vehicle_transfers_seller_idx').on(t.sellerId),
	],
)

export const serviceRequests = pgTable(
	'service_requests',
	{
		id: id(),
		customerId: uuid()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		vehicleId: uuid()
			.notNull()
			.references(() => vehicles.id),
		/** The date and time the customer would like the service. */
		preferredAt: moment().notNull(),
		location: text().notNull(),
		cityId: uuid().references(() => cities.id),
		details: text().notNull(),
		notes: text().notNull().default(''),
		estimatedPriceCents: integer(),
		status: requestStatusEnum().notNull().default('pending'),
		selectedOfferId: uuid().references((): AnyPgColumn => offers.id),
		/** Times the customer reopened it after it expired (app/domain/service-flow/status.ts, REOPEN_LIMIT). */
		reopenCount: integer().notNull().default(0),
		/**
		 * The workshop the customer asked from its page: told of the request and free to bid on it
		 * whatever its services, brands and city (app/db/sql.ts, requestMatchesWorkshop).
		 */
		addressedWorkshopId: uuid().references((): AnyPgColumn => workshops.id, { onDelete: 'set null' }),
		/** Asked only that workshop: the other matching workshops are not told and do not see it. */
		addressedOnly: boolean().notNull().default(false),
		/** The owner lets the workshops that see this request see the vehicle's service history (issue 20, decision 0104). */
		shareHistory: boolean().notNull().default(false),
		/**
		 * When the workshops' instant offers for it were made (issue 35); null: still to do, for a new
		 * open request (the job catches up through service_requests_open_idx; older requests stay null).
		 */
		instantCheckedAt: moment(),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		index('service_requests_customer_idx').on(t.customerId, t.createdAt.desc()),
		index('service_requests_open_idx')
			.on(t.createdAt.desc())
			.where(sql`${t.status} in ('pending', 'offer')`),
		index('service_requests_vehicle_idx').on(t.vehicleId),
	],
)

export const serviceRequestServices = pgTable(
	'service_request_services',
	{
		requestId: uuid()
			.notNull()
			.references(() => serviceRequests.id, { onDelete: 'cascade' }),
		serviceId: uuid()
			.notNull()
			.references(() => services.id),
	},
	(t) => [
		primaryKey({ columns: [t.requestId, t.serviceId] }),
		index('service_request_services_service_idx').on(t.serviceId, t.requestId),
	],
)

export const serviceRequestImages = pgTable(
	'service_request_images',
	{
		id: id(),
		requestId: uuid()
			.notNull()
			.references(() => serviceRequests.id, { onDelete: 'cascade' }),
		uploadId: uuid()
			.notNull()
			.references(() => uploads.id, { onDelete: 'cascade' }),
		position: integer().notNull().default(0),
	},
	(t) => [
		index('service_request_images_request_idx').on(t.requestId, t.position),
		check('service_request_images_max_three', sql`${t.position} between 0 and 2`),
	],
)

/** The request's timeline: one row per status it entered, with who moved it. */
export const requestEvents = pgTable(
	'request_events',
	{
		id: id(),
		requestId: uuid()
			.notNull()
			.references(() => serviceRequests.id, { onDelete: 'cascade' }),
		status: requestStatusEnum().notNull(),
		actorId: uuid().references(() => users.id, { onDelete: 'set null' }),
		createdAt: createdAt(),
	},
	(t) => [index('request_events_request_idx').on(t.requestId, t.createdAt)],
)

export const offers = pgTable(
	'offers',
	{
		id: id(),
		requestId: uuid()
			.notNull()
			.references(() => serviceRequests.id, { onDelete: 'cascade' }),
		workshopId: uuid()
			.notNull()
			.references(() => workshops.id, { onDelete: 'cascade' }),
		/** The offer price (bid amount). */
		priceCents: integer().notNull(),
		notes: text().notNull().default(''),
		description: text().notNull().default(''),
		attachmentUploadId: uuid().references(() => uploads.id, { onDelete: 'set null' }),
		status: offerStatusEnum().notNull().default('pending'),
		/**
		 * The final price (actual bill amount), entered when the job is completed; above the binding
		 * total it is the bill the customer confirms or disputes (bill_reason says why it is higher).
		 */
		finalPriceCents: integer(),
		billReason: text(),
		/**
		 * The vehicle passport (issue 20), entered with the final price: the mileage at the job (km,
		 * like the vehicle's; the vehicle's follows it when the job completes) and the workshop's
		 * invoice or receipt (PDF). The warranty is the offer's own (issue 32): the workshop's profile's
		 * when the offer is made, changed in the offer if it says so, kept as it was when the job
		 * completes; warranty_notice_at: its end was told.
		 */
		mileageAtJob: integer(),
		invoiceUploadId: uuid().references(() => uploads.id, { onDelete: 'set null' }),
		warrantyWorkKm: integer(),
		warrantyPartsMonths: integer(),
		warrantyNoticeAt: moment(),
		/**
		 * An itemised offer's sums (issue 19), computed by the server from its lines (offer_lines):
		 * null for an offer of one price. price_cents is then their total, with VAT.
		 */
		vatMode: vatModeEnum().notNull().default('included'),
		labourCents: integer(),
		partsCents: integer(),
		feesCents: integer(),
		vatCents: integer(),
		/** When the work can start, how many days it takes, until when the price holds: all optional. */
		earliestStart: date({ mode: 'string' }),
		durationDays: integer(),
		validUntil: date({ mode: 'string' }),
		/** The prices of the extra work the customer approved (extra_work): the binding total is price_cents plus this. */
		approvedExtraCents: integer().notNull().default(0),
		/**
		 * Booking (issue 33): how long the car is in the bay, and the one to three start times the
		 * workshop proposes, or any free time of its calendar until valid_until; none of them: the
		 * time is agreed outside the portal (offers made before bookings, and through the API).
		 */
		bookingMinutes: integer(),
		proposedStarts: timestamp({ withTimezone: true }).array().notNull().default(sql`'{}'`),
		anyFreeTime: boolean().notNull().default(false),
		/**
		 * Made from the workshop's price list (issue 35): the item it was drafted from, and whether it
		 * was sent at once when the request came ("instant offer"); binding like any offer.
		 */
		priceListItemId: uuid().references((): AnyPgColumn => priceListItems.id, { onDelete: 'set null' }),
		instant: boolean().notNull().default(false),
		selectedAt: moment(),
		completedAt: moment(),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		unique('offers_one_per_workshop_key').on(t.requestId, t.workshopId),
		index('offers_workshop_idx').on(t.workshopId, t.createdAt.desc()),
		index('offers_workshop_month_idx').on(t.workshopId, t.createdAt),
		// A workshop's price record (issue 19): its jobs completed in the last twelve months, not every offer it made.
		index('offers_workshop_completed_idx')
			.on(t.workshopId, t.completedAt)
			.where(sql`${t.status} = 'job_completed'`),
		check('offers_price_positive', sql`${t.priceCents} > 0`),
		check('offers_approved_extra_not_negative', sql`${t.approvedExtraCents} >= 0`),
		check('offers_duration_positive', sql`${t.durationDays} > 0`),
		check('offers_booking_minutes', sql`${t.bookingMinutes} between 10 and 1440`),
		check('offers_mileage_at_job_not_negative', sql`${t.mileageAtJob} >= 0`),
		// The warranty notices' job (sendWarrantyNotices) reads only the warranties not told yet.
		index('offers_warranty_untold_idx')
			.on(t.completedAt)
			.where(sql`${t.warrantyPartsMonths} is not null and ${t.warrantyNoticeAt} is null`),
	],
)

// ---------------------------------------------------------------- bookings (issue 33)

/**
 * A workshop's capacity for bookings: what its calendar allows (app/domain/booking). A workshop
 * without a row books with the defaults and its profile's opening hours (its weekly hours are
 * workshop_hours once it sets them).
 */
export const workshopCalendars = pgTable(
	'workshop_calendars',
	{
		workshopId: uuid()
			.primaryKey()
			.references(() => workshops.id, { onDelete: 'cascade' }),
		minNoticeMinutes: integer().notNull().default(120),
		horizonDays: integer().notNull().default(42),
		bufferMinutes: integer().notNull().default(0),
		stepMinutes: integer().notNull().default(30),
		openOnPublicHolidays: boolean().notNull().default(false),
		/** Its own weekly hours are in workshop_hours (else the profile's opening hours). */
		ownHours: boolean().notNull().default(false),
		/** The private calendar feed's secret (RFC 5545); null: no feed, or revoked. */
		feedToken: text(),
		updatedAt: updatedAt(),
	},
	(t) => [
		uniqueIndex('workshop_calendars_feed_token_key').on(t.feedToken),
		check('workshop_calendars_notice', sql`${t.minNoticeMinutes} >= 0`),
		check('workshop_calendars_horizon', sql`${t.horizonDays} between 1 and 366`),
		check('workshop_calendars_buffer', sql`${t.bufferMinutes} between 0 and 480`),
		check('workshop_calendars_step', sql`${t.stepMinutes} in (10, 15, 20, 30, 60)`),
	],
)

/** A workshop's bays or lifts: how many cars at once; a booking holds one. */
export const workshopBays = pgTable(
	'workshop_bays',
	{
		id: id(),
		workshopId: uuid()
			.notNull()
			.references(() => workshops.id, { onDelete: 'cascade' }),
		position: integer().notNull(),
		name: text().notNull().default(''),
		createdAt: createdAt(),
	},
	(t) => [unique('workshop_bays_position_key').on(t.workshopId, t.position)],
)

/** A workshop's weekly opening hours for bookings: several intervals a day, the gaps between them are breaks. */
export const workshopHours = pgTable(
	'workshop_hours',
	{
		id: id(),
		workshopId: uuid()
			.notNull()
			.references(() => workshops.id, { onDelete: 'cascade' }),
		/** ISO weekday: 1 Monday … 7 Sunday. */
		weekday: smallint().notNull(),
		opens: time().notNull(),
		closes: time().notNull(),
	},
	(t) => [
		index('workshop_hours_workshop_idx').on(t.workshopId, t.weekday),
		check('workshop_hours_weekday', sql`${t.weekday} between 1 and 7`),
		check('workshop_hours_order', sql`${t.opens} < ${t.closes}`),
	],
)

/** A workshop's own days off (Estonia's public holidays are built in: workshop_calendars.open_on_public_holidays). */
export const workshopDaysOff = pgTable(
	'workshop_days_off',
	{
		workshopId: uuid()
			.notNull()
			.references(() => workshops.id, { onDelete: 'cascade' }),
		day: date({ mode: 'string' }).notNull(),
		note: text().notNull().default(''),
	},
	(t) => [primaryKey({ columns: [t.workshopId, t.day] })],
)

/**
 * An offer's booked time: its bay is held from starts_at until blocks_until (its end plus the
 * workshop's buffer) while the status holds it. Migration 0036 adds the exclusion constraint that
 * Drizzle cannot say: no two holding bookings of one bay overlap (btree_gist), so of many people
 * choosing the last free time at once exactly one gets it. Times are UTC; pages show Tallinn's.
 */
export const bookings = pgTable(
	'bookings',
	{
		id: id(),
		workshopId: uuid()
			.notNull()
			.references(() => workshops.id, { onDelete: 'cascade' }),
		bayId: uuid()
			.notNull()
			.references(() => workshopBays.id, { onDelete: 'restrict' }),
		offerId: uuid()
			.notNull()
			.references(() => offers.id, { onDelete: 'cascade' }),
		requestId: uuid()
			.notNull()
			.references(() => serviceRequests.id, { onDelete: 'cascade' }),
		/** The customer, for their record of bookings kept (came to N of M); null once the account is erased. */
		customerId: uuid().references(() => users.id, { onDelete: 'set null' }),
		startsAt: timestamp({ withTimezone: true }).notNull(),
		endsAt: timestamp({ withTimezone: true }).notNull(),
		blocksUntil: timestamp({ withTimezone: true }).notNull(),
		status: bookingStatusEnum().notNull().default('booked'),
		/** RFC 5545 SEQUENCE: raised by every change, so calendars update the event of the same UID. */
		sequence: integer().notNull().default(0),
		firstReminderAt: moment(),
		secondReminderAt: moment(),
		carReceivedAt: moment(),
		workStartedAt: moment(),
		readyAt: moment(),
		endedAt: moment(),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		unique('bookings_offer_key').on(t.offerId),
		index('bookings_workshop_time_idx').on(t.workshopId, t.startsAt),
		index('bookings_customer_idx').on(t.customerId),
		// The reminders' job reads only the holding bookings ahead.
		index('bookings_reminders_idx')
			.on(t.startsAt)
			.where(sql`${t.status} = 'booked'`),
		check('bookings_order', sql`${t.startsAt} < ${t.endsAt} and ${t.endsAt} <= ${t.blocksUntil}`),
	],
)

/** A proposal to move a booked time (either side proposes, the other accepts or declines); one waiting at a time. */
export const bookingChanges = pgTable(
	'booking_changes',
	{
		id: id(),
		bookingId: uuid()
			.notNull()
			.references(() => bookings.id, { onDelete: 'cascade' }),
		proposedBy: bookingPartyEnum().notNull(),
		startsAt: timestamp({ withTimezone: true }).notNull(),
		/** Instead of a new time, the proposal is to cancel (later than the free notice: only by agreement). */
		cancel: boolean().notNull().default(false),
		status: bookingChangeStatusEnum().notNull().default('waiting'),
		createdAt: createdAt(),
		answeredAt: moment(),
	},
	(t) => [
		uniqueIndex('booking_changes_one_waiting_key')
			.on(t.bookingId)
			.where(sql`${t.status} = 'waiting'`),
	],
)

/** An itemised offer's lines (issue 19): labour, parts and fees, in the workshop's order. */
export const offerLines = pgTable(
	'offer_lines',
	{
		id: id(),
		offerId: uuid()
			.notNull()
			.references(() => offers.id, { onDelete: 'cascade' }),
		position: integer().notNull(),
		kind: offerLineKindEnum().notNull(),
		description: text().notNull(),
		/** A part's brand or OE number. */
		reference: text().notNull().default(''),
		/** A part's quality and whether it is used (issue 32); null: not stated (older lines, labour, fees). */
		quality: partQualityEnum(),
		used: boolean().notNull().default(false),
		/** Hours or pieces, in hundredths (1.5 h is 150). */
		quantityHundredths: integer().notNull(),
		unitPriceCents: integer().notNull(),
		/** quantity × unit price, rounded to the cent (lineTotalCents). */
		totalCents: integer().notNull(),
	},
	(t) => [
		unique('offer_lines_position_key').on(t.offerId, t.position),
		check('offer_lines_quantity_positive', sql`${t.quantityHundredths} > 0`),
		check('offer_lines_price_positive', sql`${t.unitPriceCents} > 0`),
	],
)

// ---------------------------------------------------------------- prices (issue 35)

/**
 * A workshop's fixed price for a service on a class of vehicle (and engine band), itemised like an
 * offer (price_list_lines; sums computed by the server with its VAT mode, price_cents the total with
 * VAT), valid from a day until a day (open-ended when null; seasonal items are common). Binding like
 * an offer. Overlapping validity for the same service, class and band is refused by the exclusion
 * constraint `price_list_items_no_overlap` (migration 0039); an `any` band beside a specific one is
 * refused by the domain. `sends_instant`: a matching new request gets an offer made from it at once.
 */
export const priceListItems = pgTable(
	'price_list_items',
	{
		id: id(),
		workshopId: uuid()
			.notNull()
			.references(() => workshops.id, { onDelete: 'cascade' }),
		serviceId: uuid()
			.notNull()
			.references(() => services.id),
		vehicleClass: vehicleClassEnum().notNull(),
		engineBand: engineBandEnum().notNull().default('any'),
		vatMode: vatModeEnum().notNull().default('included'),
		labourCents: integer().notNull().default(0),
		partsCents: integer().notNull().default(0),
		feesCents: integer().notNull().default(0),
		vatCents: integer().notNull().default(0),
		priceCents: integer().notNull(),
		/** How long the car is in the bay, in minutes (at most 30 days). */
		durationMinutes: integer().notNull(),
		included: text().notNull().default(''),
		validFrom: date({ mode: 'string' }).notNull(),
		validUntil: date({ mode: 'string' }),
		sendsInstant: boolean().notNull().default(false),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		index('price_list_items_workshop_idx').on(t.workshopId, t.serviceId),
		index('price_list_items_service_idx').on(t.serviceId, t.vehicleClass),
		check('price_list_items_price', sql`${t.priceCents} > 0 and ${t.priceCents} <= 10000000`),
		check('price_list_items_duration', sql`${t.durationMinutes} between 1 and 43200`),
		check('price_list_items_validity', sql`${t.validUntil} is null or ${t.validUntil} >= ${t.validFrom}`),
		check('price_list_items_electric_any_engine', sql`${t.vehicleClass} <> 'electric' or ${t.engineBand} = 'any'`),
	],
)

/** A price list item's lines, as offer_lines. */
export const priceListLines = pgTable(
	'price_list_lines',
	{
		id: id(),
		itemId: uuid()
			.notNull()
			.references(() => priceListItems.id, { onDelete: 'cascade' }),
		position: integer().notNull(),
		kind: offerLineKindEnum().notNull(),
		description: text().notNull(),
		reference: text().notNull().default(''),
		quality: partQualityEnum(),
		used: boolean().notNull().default(false),
		quantityHundredths: integer().notNull(),
		unitPriceCents: integer().notNull(),
		totalCents: integer().notNull(),
	},
	(t) => [
		unique('price_list_lines_position_key').on(t.itemId, t.position),
		check('price_list_lines_quantity_positive', sql`${t.quantityHundredths} > 0`),
		check('price_list_lines_price_positive', sql`${t.unitPriceCents} > 0`),
	],
)

/**
 * The usual price of a service (issue 35): the 25th, 50th and 75th percentile of the paid totals
 * (with VAT) of completed jobs, by service, vehicle class and county, over the period; recomputed
 * nightly (`recomputePriceRanges`, app/domain/pricing). Only groups of at least 5 jobs from at least
 * 3 workshops have a row (docs/decisions/0146).
 */
export const priceRanges = pgTable(
	'price_ranges',
	{
		serviceId: uuid()
			.notNull()
			.references(() => services.id, { onDelete: 'cascade' }),
		vehicleClass: vehicleClassEnum().notNull(),
		county: text().notNull(),
		p25Cents: integer().notNull(),
		p50Cents: integer().notNull(),
		p75Cents: integer().notNull(),
		jobs: integer().notNull(),
		workshops: integer().notNull(),
		periodFrom: date({ mode: 'string' }).notNull(),
		periodTo: date({ mode: 'string' }).notNull(),
		computedAt: moment().notNull(),
	},
	(t) => [primaryKey({ columns: [t.serviceId, t.vehicleClass, t.county] }), index('price_ranges_county_idx').on(t.county, t.serviceId)],
)

/**
 * Extra work the chosen workshop asks for while the job is under way (issue 19): why, its lines
 * (extra_work_lines) and their sums, computed by the server with the offer's VAT mode; the
 * customer approves or declines it, or the workshop withdraws it before an answer.
 */
export const extraWork = pgTable(
	'extra_work',
	{
		id: id(),
		offerId: uuid()
			.notNull()
			.references(() => offers.id, { onDelete: 'cascade' }),
		reason: text().notNull(),
		status: extraWorkStatusEnum().notNull().default('waiting'),
		vatMode: vatModeEnum().notNull(),
		/** With VAT: what the customer pays for it. */
		priceCents: integer().notNull(),
		labourCents: integer().notNull(),
		partsCents: integer().notNull(),
		feesCents: integer().notNull(),
		vatCents: integer().notNull(),
		createdAt: createdAt(),
		answeredAt: moment(),
	},
	(t) => [index('extra_work_offer_idx').on(t.offerId, t.createdAt), check('extra_work_price_positive', sql`${t.priceCents} > 0`)],
)

/** Extra work's lines, as an offer's (offer_lines). */
export const extraWorkLines = pgTable(
	'extra_work_lines',
	{
		id: id(),
		extraWorkId: uuid()
			.notNull()
			.references(() => extraWork.id, { onDelete: 'cascade' }),
		position: integer().notNull(),
		kind: offerLineKindEnum().notNull(),
		description: text().notNull(),
		reference: text().notNull().default(''),
		quantityHundredths: integer().notNull(),
		unitPriceCents: integer().notNull(),
		totalCents: integer().notNull(),
	},
	(t) => [
		unique('extra_work_lines_position_key').on(t.extraWorkId, t.position),
		check('extra_work_lines_quantity_positive', sql`${t.quantityHundredths} > 0`),
		check('extra_work_lines_price_positive', sql`${t.unitPriceCents} > 0`),
	],
)

/**
 * Work done to a vehicle elsewhere, added to its history by the owner (issue 20): when, at what
 * mileage (km), what, by whom, for how much, and a PDF.
 */
export const serviceRecords = pgTable(
	'service_records',
	{
		id: id(),
		vehicleId: uuid()
			.notNull()
			.references(() => vehicles.id, { onDelete: 'cascade' }),
		performedOn: date({ mode: 'string' }).notNull(),
		mileage: integer().notNull(),
		description: text().notNull(),
		workshopName: text().notNull().default(''),
		priceCents: integer(),
		documentUploadId: uuid().references(() => uploads.id, { onDelete: 'set null' }),
		createdAt: createdAt(),
	},
	(t) => [
		index('service_records_vehicle_idx').on(t.vehicleId, t.performedOn),
		check('service_records_mileage_not_negative', sql`${t.mileage} >= 0`),
		check('service_records_price_positive', sql`${t.priceCents} > 0`),
	],
)

/**
 * A vehicle's reminders (issue 20): one row per kind the owner set (technical inspection, seasonal
 * tyres, service interval); what is due when is worked out by reminderSchedule (reminders.ts).
 */
export const vehicleReminders = pgTable(
	'vehicle_reminders',
	{
		vehicleId: uuid()
			.notNull()
			.references(() => vehicles.id, { onDelete: 'cascade' }),
		kind: reminderKindEnum().notNull(),
		active: boolean().notNull().default(true),
		/** The inspection's due day. */
		dueOn: date({ mode: 'string' }),
		/** The last inspection or service, and the service's mileage (km). */
		lastDoneOn: date({ mode: 'string' }),
		lastDoneMileage: integer(),
		everyMonths: smallint(),
		everyKm: integer(),
		daysBefore: smallint().notNull().default(14),
		snoozedUntil: date({ mode: 'string' }),
		/** The occurrence last told (reminderSchedule's key): each is told once. */
		notifiedKey: text(),
		updatedAt: updatedAt(),
	},
	(t) => [
		primaryKey({ columns: [t.vehicleId, t.kind] }),
		index('vehicle_reminders_active_idx').on(t.kind).where(sql`${t.active}`),
		check('vehicle_reminders_days_before', sql`${t.daysBefore} between 1 and 60`),
		check('vehicle_reminders_every_months', sql`${t.everyMonths} is null or ${t.everyMonths} between 1 and 48`),
		check('vehicle_reminders_every_km', sql`${t.everyKm} is null or ${t.everyKm} between 1000 and 100000`),
	],
)

/** Up to three photos showing why the extra work is needed (request images, by their rules). */
export const extraWorkImages = pgTable(
	'extra_work_images',
	{
		id: id(),
		extraWorkId: uuid()
			.notNull()
			.references(() => extraWork.id, { onDelete: 'cascade' }),
		uploadId: uuid()
			.notNull()
			.references(() => uploads.id, { onDelete: 'cascade' }),
		position: integer().notNull().default(0),
	},
	(t) => [
		index('extra_work_images_extra_work_idx').on(t.extraWorkId, t.position),
		index('extra_work_images_upload_idx').on(t.uploadId),
		check('extra_work_images_max_three', sql`${t.position} between 0 and 2`),
	],
)

/**
 * A customer's dispute of a final bill above the binding total (issue 19): why, what was billed
 * and agreed then, and how an administrator settled it (decision, why, by whom; the audit log too).
 */
export const billDisputes = pgTable(
	'bill_disputes',
	{
		id: id(),
		offerId: uuid()
			.notNull()
			.references(() => offers.id, { onDelete: 'cascade' }),
		reason: text().notNull(),
		billedCents: integer().notNull(),
		bindingCents: integer().notNull(),
		decision: billDecisionEnum(),
		note: text(),
		resolvedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
		createdAt: createdAt(),
		resolvedAt: moment(),
	},
	(t) => [
		// A bill is disputed once: the settled job is complete.
		unique('bill_disputes_offer_key').on(t.offerId),
		index('bill_disputes_open_idx')
			.on(t.createdAt)
			.where(sql`${t.resolvedAt} is null`),
		check('bill_disputes_settled', sql`(${t.decision} is null) = (${t.resolvedAt} is null)`),
	],
)

export const reviews = pgTable(
	'reviews',
	{
		id: id(),
		requestId: uuid()
			.notNull()
			.unique()
			.references(() => serviceRequests.id, { onDelete: 'cascade' }),
		workshopId: uuid()
			.notNull()
			.references(() => workshops.id, { onDelete: 'cascade' }),
		customerId: uuid()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		/** Stars, halves allowed (0.5 to 5 in steps of 0.5): exact in a double. */
		rating: doublePrecision().notNull(),
		title: text().notNull().default(''),
		body: text().notNull(),
		reply: text(),
		repliedAt: moment(),
		/** Hidden by an administrator after a report (issue 19): not shown, not counted in ratings; why. */
		hiddenAt: moment(),
		hiddenReason: text(),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		index('reviews_workshop_idx').on(t.workshopId, t.createdAt.desc()),
		index('reviews_created_idx').on(t.createdAt.desc()),
		check('reviews_rating_halves', sql`${t.rating} between 0.5 and 5 and ${t.rating} * 2 = trunc(${t.rating} * 2)`),
		check('reviews_hidden_with_reason', sql`(${t.hiddenAt} is null) = (${t.hiddenReason} is null)`),
	],
)

/**
 * A signed-in user's report of a review (issue 19): why, once per user and review; settled with
 * every other open report of the review when an administrator hides or keeps it.
 */
export const reviewReports = pgTable(
	'review_reports',
	{
		id: id(),
		reviewId: uuid()
			.notNull()
			.references(() => reviews.id, { onDelete: 'cascade' }),
		reporterId: uuid()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		reason: reportReasonEnum().notNull(),
		text: text().notNull().default(''),
		createdAt: createdAt(),
		decision: moderationDecisionEnum(),
		note: text(),
		resolvedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
		resolvedAt: moment(),
	},
	(t) => [
		unique('review_reports_once_key').on(t.reviewId, t.reporterId),
		index('review_reports_open_idx')
			.on(t.createdAt)
			.where(sql`${t.resolvedAt} is null`),
		check('review_reports_settled', sql`(${t.decision} is null) = (${t.resolvedAt} is null)`),
	],
)

// ---------------------------------------------------------------- messages

/**
 * Types (spec §2): 1 new request for a workshop / reply to a review (opens a dialog), 2 new offer,
 * 3 offer selected, rejected or request cancelled, 4 job completed, 5 new review.
 * The message is a translation key plus parameters, rendered in the reader's language.
 */
export const notifications = pgTable(
	'notifications',
	{
		id: id(),
		userId: uuid()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		type: smallint().notNull(),
		messageKey: text().notNull(),
		messageParams: jsonb().$type<Record<string, string | number>>().notNull().default({}),
		/** The related item's id (a request, offer or review). */
		receivedId: uuid().notNull(),
		isRead: boolean().notNull().default(false),
		readAt: moment(),
		createdAt: createdAt(),
	},
	(t) => [
		index('notifications_user_created_idx').on(t.userId, t.createdAt.desc()),
		index('notifications_user_unread_idx')
			.on(t.userId)
			.where(sql`not ${t.isRead}`),
	],
)

export const chatMessages = pgTable(
	'chat_messages',
	{
		id: id(),
		senderId: uuid()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		receiverId: uuid()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		message: text().notNull(),
		readAt: moment(),
		createdAt: createdAt(),
	},
	(t) => [
		// One index serves a conversation in either direction.
		index('chat_messages_pair_idx').on(
			sql`least(${t.senderId}, ${t.receiverId})`,
			sql`greatest(${t.senderId}, ${t.receiverId})`,
			t.createdAt,
		),
		check('chat_messages_not_empty', sql`length(btrim(${t.message})) > 0`),
	],
)

// ---------------------------------------------------------------- subscriptions

export const packages = pgTable('packages', {
	id: id(),
	code: text().notNull().unique(),
	nameEt: text().notNull(),
	nameEn: text().notNull(),
	nameRu: text().notNull(),
	descriptionEt: text().notNull().default(''),
	descriptionEn: text().notNull().default(''),
	descriptionRu: text().notNull().default(''),
	/** Price per month, net of VAT. 0 for the free package. */
	priceCents: integer().notNull().default(0),
	currency: text().notNull().default('EUR'),
	/** Offers a workshop may make per calendar month; null means unlimited. */
	offersPerMonth: integer(),
	/** Shown in the directory's ad block (never ranked higher: decision 0128), with a badge on the public page. */
	featured: boolean().notNull().default(false),
	active: boolean().notNull().default(true),
	sortOrder: integer().notNull().default(0),
	createdAt: createdAt(),
	updatedAt: updatedAt(),
})

export const subscriptions = pgTable(
	'subscriptions',
	{
		id: id(),
		workshopId: uuid()
			.notNull()
			.references(() => workshops.id, { onDelete: 'cascade' }),
		packageId: uuid()
			.notNull()
			.references(() => packages.id),
		status: subscriptionStatusEnum().notNull(),
		periodStart: moment(),
		periodEnd: moment(),
		cancelAtPeriodEnd: boolean().notNull().default(false),
		provider: text(),
		providerReference: text(),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		uniqueIndex('subscriptions_one_active_key')
			.on(t.workshopId)
			.where(sql`${t.status} = 'active'`),
		index('subscriptions_due_idx')
			.on(t.periodEnd)
			.where(sql`${t.status} = 'active'`),
	],
)

export const payments = pgTable(
	'payments',
	{
		id: id(),
		workshopId: uuid()
			.notNull()
			.references(() => workshops.id, { onDelete: 'cascade' }),
		subscriptionId: uuid()
			.notNull()
			.references(() => subscriptions.id, { onDelete: 'cascade' }),
		packageId: uuid()
			.notNull()
			.references(() => packages.id),
		provider: text().notNull(),
		/** The provider's id for this payment (a Checkout session id); activation is keyed on it. */
		providerReference: text().notNull(),
		amountCents: integer().notNull(),
		currency: text().notNull().default('EUR'),
		status: paymentStatusEnum().notNull().default('pending'),
		paidAt: moment(),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [
		unique('payments_provider_reference_key').on(t.provider, t.providerReference),
		index('payments_workshop_idx').on(t.workshopId, t.createdAt.desc()),
	],
)

export const invoiceNumberSequence = pgSequence('invoice_number_seq', { startWith: 1000 })

export const invoices = pgTable(
	'invoices',
	{
		id: id(),
		/** Running number from invoice_number_seq. */
		number: integer()
			.notNull()
			.unique()
			.default(sql`nextval('invoice_number_seq')`),
		workshopId: uuid()
			.notNull()
			.references(() => workshops.id, { onDelete: 'cascade' }),
		paymentId: uuid()
			.notNull()
			.unique()
			.references(() => payments.id),
		packageName: text().notNull(),
		periodStart: moment().notNull(),
		periodEnd: moment().notNull(),
		netCents: integer().notNull(),
		/** VAT rate in basis points: 2400 is 24 %. */
		vatRateBasisPoints: integer().notNull(),
		vatCents: integer().notNull(),
		totalCents: integer().notNull(),
		currency: text().notNull().default('EUR'),
		seller: jsonb().$type<InvoiceParty>().notNull(),
		buyer: jsonb().$type<InvoiceParty>().notNull(),
		pdfUploadId: uuid().references(() => uploads.id),
		createdAt: createdAt(),
	},
	(t) => [index('invoices_workshop_idx').on(t.workshopId, t.createdAt.desc())],
)

export type InvoiceParty = {
	name: string
	companyId?: string
	vatNumber?: string
	address: string
	/** The address in its parts, for the e-invoice (decision 0110); older invoices have `address` only. */
	postal?: { street: string; postalCode: string; city: string; region: string }
	email: string
}

// ---------------------------------------------------------------- site content

export const contentPages = pgTable(
	'content_pages',
	{
		id: id(),
		/** about-us, terms-and-conditions, privacy-policy */
		slug: text().notNull(),
		language: languageEnum().notNull(),
		title: text().notNull(),
		/** Sanitized again when rendered. */
		bodyHtml: text().notNull(),
		updatedAt: updatedAt(),
	},
	(t) => [unique('content_pages_slug_language_key').on(t.slug, t.language)],
)

export const ads = pgTable(
	'ads',
	{
		id: id(),
		/** Spec §3: 1 is an image with an optional link, anything else HTML content. */
		adsType: smallint().notNull(),
		imageUploadId: uuid().references(() => uploads.id, { onDelete: 'set null' }),
		adsLink: text(),
		content: text(),
		/** The language of its text (issue 32): shown only to readers of that language; one ad per language. */
		language: languageEnum().notNull(),
		placement: adPlacementEnum().notNull(),
		active: boolean().notNull().default(true),
		sortOrder: integer().notNull().default(0),
		createdAt: createdAt(),
		updatedAt: updatedAt(),
	},
	(t) => [index('ads_placement_idx').on(t.placement, t.sortOrder).where(sql`${t.active}`)],
)

/** Exactly one row (id is always true). */
export const siteSettings = pgTable(
	'site_settings',
	{
		id: boolean().primaryKey().default(true),
		appname: text().notNull(),
		logoUploadId: uuid().references(() => uploads.id, { onDelete: 'set null' }),
		faviconUploadId: uuid().references(() => uploads.id, { onDelete: 'set null' }),
		siteAddress: text().notNull().default(''),
		siteAddressEstonian: text().notNull().default(''),
		siteAddressRussian: text().notNull().default(''),
		siteEmail: text().notNull(),
		countryCode: text().notNull().default('+372'),
		sitePhoneNumber: text().notNull().default(''),
		facebookLink: text().notNull().default(''),
		twitterLink: text().notNull().default(''),
		instagramLink: text().notNull().default(''),
		linkedinLink: text().notNull().default(''),
		/** The seller on invoices. */
		companyName: text().notNull().default(''),
		companyRegistryCode: text().notNull().default(''),
		vatNumber: text().notNull().default(''),
		vatRateBasisPoints: integer().notNull().default(2400),
		/** The seasonal tyres' reminder days, "MM-DD" (issue 20; Estonia: early October and mid-March). */
		tyreAutumnDay: text().notNull().default('10-01'),
		tyreSpringDay: text().notNull().default('03-15'),
		/**
		 * Bookings (issue 33): a booked time is changed or cancelled freely until this many hours
		 * before its start, later only by agreement; the customer is reminded this many hours before
		 * (the day before, and shortly before); a "typical job" for the next free times shown publicly.
		 */
		bookingFreeChangeHours: integer().notNull().default(24),
		bookingFirstReminderHours: integer().notNull().default(24),
		bookingSecondReminderHours: integer().notNull().default(2),
		bookingTypicalMinutes: integer().notNull().default(60),
		updatedAt: updatedAt(),
	},
	(t) => [check('site_settings_single_row', sql`${t.id}`)],
)

export const contactMessages = pgTable(
	'contact_messages',
	{
		id: id(),
		name: text().notNull(),
		email: text().notNull(),
		message: text().notNull(),
		language: languageEnum().notNull().default('et'),
		handledAt: moment(),
		handledById: uuid().references(() => users.id, { onDelete: 'set null' }),
		createdAt: createdAt(),
	},
	(t) => [index('contact_messages_created_idx').on(t.createdAt.desc())],
)

/**
 * A file the outbox attaches: a stored upload (read when the e-mail is sent), or a small text made
 * with the e-mail and kept in its row (an invoice's e-invoice XML, decision 0110).
 */
export type EmailAttachment = { uploadId: string; filename: string } | { filename: string; contentType: string; content: string }

/** Every e-mail goes through here; a worker sends it with retries (SMTP_URL) or leaves it for the log. */
export const emailOutbox = pgTable(
	'email_outbox',
	{
		id: id(),
		to: text().notNull(),
		subject: text().notNull(),
		text: text().notNull(),
		html: text(),
		attachments: jsonb().$type<EmailAttachment[]>().notNull().default([]),
		/** Extra headers: List-Unsubscribe and List-Unsubscribe-Post on the e-mails one may turn off. */
		headers: jsonb().$type<Record<string, string>>().notNull().default({}),
		/** The event an e-mail reports ("notification:<id>"): one e-mail per event, however often it is enqueued. */
		dedupeKey: text(),
		status: emailStatusEnum().notNull().default('pending'),
		attempts: integer().notNull().default(0),
		nextAttemptAt: moment().notNull().defaultNow(),
		lastError: text(),
		sentAt: moment(),
		createdAt: createdAt(),
	},
	(t) => [
		index('email_outbox_due_idx')
			.on(t.nextAttemptAt)
			.where(sql`${t.status} = 'pending'`),
		index('email_outbox_created_idx').on(t.createdAt.desc()),
		uniqueIndex('email_outbox_dedupe_key').on(t.dedupeKey),
	],
)

/**
 * A partner site (issue 37, docs/decisions/0152): a publishable key that widgets and API calls
 * carry (`?partner=` or `X-Partner-Key`), good only from the allowed origins, with its own rate
 * limit. The key itself is never stored: its SHA-256, and a prefix to tell keys apart on screen.
 */
export const partners = pgTable('partners', {
	id: id(),
	name: text().notNull(),
	/** The key's first characters ("pk_3fA9…"), shown to administrators. */
	keyPrefix: text().notNull(),
	keyHash: text().notNull().unique(),
	/** Origins allowed to use the key, as browsers send them ("https://www.example.ee"). */
	allowedOrigins: text().array().notNull().default(sql`'{}'`),
	/** Calls a minute this key may make (all its visitors together). */
	rateLimitPerMinute: integer().notNull().default(600),
	createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
	createdAt: createdAt(),
	revokedAt: moment(),
})

/**
 * Daily counts (issue 37): how often something happened on a day, per workshop and per partner
 * where that applies, never who did it. Kinds are listed in app/counting/kinds.ts.
 */
export const dailyCounts = pgTable(
	'daily_counts',
	{
		/** Tallinn's calendar day. */
		day: date({ mode: 'string' }).notNull(),
		kind: text().notNull(),
		workshopId: uuid().references(() => workshops.id, { onDelete: 'cascade' }),
		partnerId: uuid().references(() => partners.id, { onDelete: 'cascade' }),
		count: integer().notNull().default(0),
	},
	(t) => [
		unique('daily_counts_key').on(t.day, t.kind, t.workshopId, t.partnerId).nullsNotDistinct(),
		index('daily_counts_workshop_idx').on(t.workshopId, t.day),
		index('daily_counts_partner_idx').on(t.partnerId, t.day),
	],
)

/**
 * A request asked through the "ask for an offer" widget (issue 37), waiting for its e-mailed link:
 * nothing reaches a workshop before the link is opened; opening it creates the account (if need
 * be) and the real request. The token is kept as its SHA-256.
 */
export const widgetRequests = pgTable(
	'widget_requests',
	{
		id: id(),
		tokenHash: text().notNull().unique(),
		email: text().notNull(),
		language: languageEnum().notNull(),
		/** What the visitor filled in (services, car, time, details, phone, held upload ids). */
		payload: jsonb().notNull(),
		workshopId: uuid().references(() => workshops.id, { onDelete: 'cascade' }),
		partnerId: uuid().references(() => partners.id, { onDelete: 'set null' }),
		/** A salted hash of the sender's address (as visits), for the daily limit; never the address. */
		sourceHash: text().notNull(),
		createdAt: createdAt(),
		expiresAt: moment().notNull(),
		confirmedAt: moment(),
		requestId: uuid().references(() => serviceRequests.id, { onDelete: 'set null' }),
	},
	(t) => [index('widget_requests_email_idx').on(t.email, t.createdAt), index('widget_requests_source_idx').on(t.sourceHash, t.createdAt)],
)

/** One row per visitor per day (visitor = a salted hash, never the raw address). */
export const visits = pgTable(
	'visits',
	{
		day: date().notNull(),
		visitorHash: text().notNull(),
		/** The address alone, hashed the same way: at most a few visitors count per address and day. */
		sourceHash: text(),
		createdAt: createdAt(),
	},
	(t) => [primaryKey({ columns: [t.day, t.visitorHash] }), index('visits_day_source_idx').on(t.day, t.sourceHash)],
)

/**
 * A person's consent to the terms or the privacy policy (issue 21, decision 0107): when, and to
 * which version (the content page's last change, in the language they read it in).
 */
export const consents = pgTable(
	'consents',
	{
		id: id(),
		userId: uuid()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		kind: consentKindEnum().notNull(),
		/** The page's version: the time of its last change, ISO 8601; 'none' if there was no such page. */
		version: text().notNull(),
		language: languageEnum().notNull(),
		acceptedAt: moment().notNull().defaultNow(),
	},
	(t) => [index('consents_user_idx').on(t.userId, t.acceptedAt)],
)

/**
 * A large data export made in the background (issue 21, decision 0111): the ZIP in the file store,
 * the owner's only, linked by e-mail and kept for a week.
 */
export const dataExports = pgTable(
	'data_exports',
	{
		id: id(),
		userId: uuid()
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		/** Null until the job has made it. */
		storageKey: text(),
		byteSize: integer(),
		readyAt: moment(),
		expiresAt: moment().notNull(),
		createdAt: createdAt(),
	},
	(t) => [index('data_exports_user_idx').on(t.userId, t.createdAt.desc())],
)

export const auditLog = pgTable(
	'audit_log',
	{
		id: id(),
		actorId: uuid().references(() => users.id, { onDelete: 'set null' }),
		action: text().notNull(),
		entityType: text().notNull(),
		entityId: text(),
		before: jsonb(),
		after: jsonb(),
		createdAt: createdAt(),
	},
	(t) => [index('audit_log_created_idx').on(t.createdAt.desc())],
)

// ---------------------------------------------------------------- relations (for relational queries)

export const usersRelations = relations(users, ({ one, many }) => ({
	workshop: one(workshops, { fields: [users.id], references: [workshops.userId] }),
	vehicles: many(vehicles),
	requests: many(serviceRequests),
}))

export const workshopsRelations = relations(workshops, ({ one, many }) => ({
	user: one(users, { fields: [workshops.userId], references: [users.id] }),
	city: one(cities, { fields: [workshops.cityId], references: [cities.id] }),
	logo: one(uploads, { fields: [workshops.logoUploadId], references: [uploads.id] }),
	photos: many(workshopPhotos),
	services: many(workshopServices),
	carBrands: many(workshopCarBrands),
	spareParts: many(workshopSpareParts),
	paymentMethods: many(workshopPaymentMethods),
	offers: many(offers),
	reviews: many(reviews),
}))

export const workshopPhotosRelations = relations(workshopPhotos, ({ one }) => ({
	workshop: one(workshops, { fields: [workshopPhotos.workshopId], references: [workshops.id] }),
	upload: one(uploads, { fields: [workshopPhotos.uploadId], references: [uploads.id] }),
}))

export const workshopServicesRelations = relations(workshopServices, ({ one }) => ({
	workshop: one(workshops, { fields: [workshopServices.workshopId], references: [workshops.id] }),
	item: one(services, { fields: [workshopServices.itemId], references: [services.id] }),
}))
export const workshopCarBrandsRelations = relations(workshopCarBrands, ({ one }) => ({
	workshop: one(workshops, { fields: [workshopCarBrands.workshopId], references: [workshops.id] }),
	item: one(carBrands, { fields: [workshopCarBrands.itemId], references: [carBrands.id] }),
}))
export const workshopSparePartsRelations = relations(workshopSpareParts, ({ one }) => ({
	workshop: one(workshops, { fields: [workshopSpareParts.workshopId], references: [workshops.id] }),
	item: one(spareParts, { fields: [workshopSpareParts.itemId], references: [spareParts.id] }),
}))
export const workshopPaymentMethodsRelations = relations(workshopPaymentMethods, ({ one }) => ({
	workshop: one(workshops, { fields: [workshopPaymentMethods.workshopId], references: [workshops.id] }),
	item: one(paymentMethods, { fields: [workshopPaymentMethods.itemId], references: [paymentMethods.id] }),
}))

export const vehiclesRelations = relations(vehicles, ({ one, many }) => ({
	owner: one(users, { fields: [vehicles.ownerId], references: [users.id] }),
	brand: one(carBrands, { fields: [vehicles.brandId], references: [carBrands.id] }),
	requests: many(serviceRequests),
}))

export const serviceRequestsRelations = relations(serviceRequests, ({ one, many }) => ({
	customer: one(users, { fields: [serviceRequests.customerId], references: [users.id] }),
	vehicle: one(vehicles, { fields: [serviceRequests.vehicleId], references: [vehicles.id] }),
	city: one(cities, { fields: [serviceRequests.cityId], references: [cities.id] }),
	selectedOffer: one(offers, { fields: [serviceRequests.selectedOfferId], references: [offers.id] }),
	services: many(serviceRequestServices),
	images: many(serviceRequestImages),
	events: many(requestEvents),
	offers: many(offers),
	review: one(reviews, { fields: [serviceRequests.id], references: [reviews.requestId] }),
}))

export const serviceRequestServicesRelations = relations(serviceRequestServices, ({ one }) => ({
	request: one(serviceRequests, { fields: [serviceRequestServices.requestId], references: [serviceRequests.id] }),
	service: one(services, { fields: [serviceRequestServices.serviceId], references: [services.id] }),
}))

export const serviceRequestImagesRelations = relations(serviceRequestImages, ({ one }) => ({
	request: one(serviceRequests, { fields: [serviceRequestImages.requestId], references: [serviceRequests.id] }),
	upload: one(uploads, { fields: [serviceRequestImages.uploadId], references: [uploads.id] }),
}))

export const requestEventsRelations = relations(requestEvents, ({ one }) => ({
	request: one(serviceRequests, { fields: [requestEvents.requestId], references: [serviceRequests.id] }),
}))

export const offersRelations = relations(offers, ({ one }) => ({
	request: one(serviceRequests, { fields: [offers.requestId], references: [serviceRequests.id] }),
	workshop: one(workshops, { fields: [offers.workshopId], references: [workshops.id] }),
	attachment: one(uploads, { fields: [offers.attachmentUploadId], references: [uploads.id] }),
}))

export const reviewsRelations = relations(reviews, ({ one }) => ({
	request: one(serviceRequests, { fields: [reviews.requestId], references: [serviceRequests.id] }),
	workshop: one(workshops, { fields: [reviews.workshopId], references: [workshops.id] }),
	customer: one(users, { fields: [reviews.customerId], references: [users.id] }),
}))

export const subscriptionsRelations = relations(subscriptions, ({ one }) => ({
	workshop: one(workshops, { fields: [subscriptions.workshopId], references: [workshops.id] }),
	package: one(packages, { fields: [subscriptions.packageId], references: [packages.id] }),
}))

/** Any reference list's table (they share their columns). */
export type ReferenceTable = typeof services

export type ContentLanguage = (typeof languages)[number]
