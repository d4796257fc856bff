/**
 * Issue 13, part 2: every form of the signed-in portal (customer, workshop, administrator) with
 * certainly invalid input, against the production build: no 5xx, no internal detail, no changed
 * row (docs/decisions/0073). Plus unreadable bodies and odd file names on the upload forms, and
 * the signed-in pages' odd query strings and bad slugs.
 */
import { afterAll, beforeAll, describe, test } from 'vitest'
import { ChangePasswordSchema, LanguageSchema, ProfileSchema } from '~/domain/accounts/accounts'
import { AdSchema, ChangeEmailSchema, CompanyFieldsSchema, ContentPageSchema, PackageSchema, ReferenceItemSchema, SiteSettingsSchema } from '~/domain/admin/admin'
import { CompleteJobSchema } from '~/domain/service-flow/final-bill-schema'
import { OfferSchema } from '~/domain/service-flow/offers'
import { ServiceRecordSchema } from '~/domain/service-flow/passport-schema'
import { InspectionReminderSchema, ServiceReminderSchema } from '~/domain/service-flow/reminder-schema'
import { ReopenRequestSchema, ServiceRequestSchema, WidenRequestSchema } from '~/domain/service-flow/requests'
import { ReplySchema, ReviewSchema } from '~/domain/service-flow/reviews'
import { BillingDetailsSchema } from '~/domain/billing/subscription'
import { VehicleSchema } from '~/domain/service-flow/vehicles'
import { WorkshopProfileSchema } from '~/domain/directory/profile'
import { EmailPreferencesSchema } from '~/domain/messaging/email-preferences'
import { slug } from './support/demo'
import { fuzzEveryAction, specNamed, type ActionSpec, type Field } from './support/fuzz'
import { pendingTestPayment, setUpWorld, type World } from './support/setup'
import { badSlugBatch, oddQueryBatch, transportBatch, type QueryPage, type SlugRoute } from './support/transport'

let world: World
let testPayment = ''

beforeAll(async () => {
	world = await setUpWorld()
	testPayment = await pendingTestPayment(world.workshop, slug(world.demo.paidPackage))
})
afterAll(async () => world?.server.close())

const others = () => ({ stranger: world.stranger })
const thisYear = new Date().getFullYear()
/** A year that stays ahead: dates the forms want in the future. */
const ahead = thisYear + 2

const text = (name: string, valid: string, max: number, required = true): Field => ({ name, kind: 'text', valid, required, max })
const multiline = (name: string, valid: string, max: number, required = false): Field => ({ name, kind: 'multiline', valid, required, max })
const nameText = (name: string, valid: string): Field => ({ name, kind: 'text', valid, required: true, max: 100, invalid: ['ab', ' ab '] })
const email = (name: string, valid: string, required = true): Field => ({ name, kind: 'email', valid, required, max: 254 })
const mobile = (name: string): Field => ({ name, kind: 'pattern', valid: '+372 5555 0013', required: true, invalid: ['abc', '12', '+372 55 55 55 55 55 55 55 55', '5555-5555-'] })
const hidden = (name: string, valid: string): Field => ({ name, kind: 'hidden', valid })
const websites = ['javascript:alert(1)', 'ftp://example.com', 'www.example.com', 'http://', 'https://exa mple.com']

/** The vehicle form (add and edit): VehicleSchema. */
const vehicleFields = (brand: string, foreign: string[]): Field[] => [
	{
		name: 'registrationNumber',
		kind: 'pattern',
		valid: 'FUZZ13',
		unique: true,
		required: true,
		max: 20,
		invalid: ['!!', 'A', 'ABCDEFGHIJK', '12 34 56 78 90 1', 'ÆØÅ', '<b>1</b>'],
	},
	{ name: 'vin', kind: 'pattern', valid: '1HGCM82633A004352', invalid: ['IOQIOQIOQIOQIOQIO', '1HGCM82633A00435', '1HGCM82633A0043521', '1HGCM82633A00435!'] },
	text('shortDescription', 'Pere auto', 200, false),
	{ name: 'vehicleYear', kind: 'int', valid: '2015', required: true, range: [1900, thisYear + 1] },
	{ name: 'registrationYear', kind: 'int', valid: '2016', range: [1900, thisYear + 1] },
	{ name: 'manufactureYear', kind: 'int', valid: '2015', range: [1900, thisYear + 1] },
	{ name: 'fuelType', kind: 'enum', valid: 'petrol', invalid: ['gasoline', 'PETROL', 'steam'] },
	{ name: 'brandId', kind: 'ref', valid: brand, required: true, foreign },
	text('model', 'Corolla', 60),
	text('modelSpecification', '1.6 VVT-i', 100),
	{ name: 'transmission', kind: 'enum', valid: 'manual', required: true, invalid: ['stick', 'MANUAL', 'auto'] },
	{ name: 'mileage', kind: 'int', valid: '123456', required: true, range: [0, 999_999] },
]

const specs = (): ActionSpec[] => {
	const { demo, customer, workshop, admin } = world
	const ref = demo.reference
	const [brand, otherBrand] = ref.carBrands as [string, string]
	const [city] = ref.cities as [string]
	const [service, secondService] = ref.services as [string, string]
	const [part] = ref.spareParts as [string]
	const [payment] = ref.paymentMethods as [string]
	const asCustomer = () => customer
	const asWorkshop = () => workshop
	const asAdmin = () => admin

	const customerForms: ActionSpec[] = [
		{
			name: 'POST /add-vehicle',
			as: asCustomer,
			path: () => '/add-vehicle',
			fields: vehicleFields(brand, [city, service, demo.vehicle]),
			encodings: ['urlencoded', 'multipart'],
			schema: VehicleSchema,
			weight: 2,
		},
		{
			name: 'POST /edit-vehicle/{slug}',
			as: asCustomer,
			path: (s) => `/edit-vehicle/${s}`,
			slug: { valid: slug(demo.vehicle), foreign: [demo.otherVehicle, demo.pendingRequest] },
			fields: vehicleFields(otherBrand, [city, service]),
			encodings: ['urlencoded', 'multipart'],
			schema: VehicleSchema,
			weight: 2,
		},
		{
			name: 'POST /vehicle-details/{slug} (delete)',
			as: asCustomer,
			path: (s) => `/vehicle-details/${s}`,
			slug: { valid: slug(demo.vehicle), foreign: [demo.otherVehicle] },
			fields: [hidden('intent', 'delete')],
			encodings: ['urlencoded'],
			slugAndTokenOnly: true,
		},
		{
			name: 'POST /vehicle-details/{slug} (work done elsewhere)',
			as: asCustomer,
			path: (s) => `/vehicle-details/${s}`,
			slug: { valid: slug(demo.vehicle), foreign: [demo.otherVehicle] },
			fields: [
				hidden('intent', 'addRecord'),
				{ name: 'performedOn', kind: 'pattern', valid: '2026-01-15', required: true, invalid: ['2026-02-30', '15.01.2026', '2999-01-01', 'yesterday'] },
				// Below every mileage recorded after that day (the demo's history starts at 52,100).
				{ name: 'mileage', kind: 'int', valid: '50000', required: true, range: [0, 999_999] },
				multiline('description', 'Õlivahetus.\nFilter ka.', 1000, true),
				text('workshopName', 'Garaaž', 120, false),
				{ name: 'price', kind: 'money', valid: '45.50' },
			],
			encodings: ['multipart', 'urlencoded'],
			schema: ServiceRecordSchema,
		},
		{
			name: 'POST /vehicle-details/{slug} (inspection reminder)',
			as: asCustomer,
			path: (s) => `/vehicle-details/${s}`,
			slug: { valid: slug(demo.vehicle), foreign: [demo.otherVehicle] },
			fields: [
				hidden('intent', 'saveReminder'),
				hidden('kind', 'inspection'),
				{ name: 'dueOn', kind: 'pattern', valid: `${ahead}-06-14`, required: true, invalid: ['2026-02-30', '14.06.2027', '2001-01-01', '2099-01-01', 'soon'] },
				{ name: 'everyMonths', kind: 'int', valid: '24', range: [6, 48] },
				{ name: 'daysBefore', kind: 'int', valid: '14', range: [1, 60] },
			],
			encodings: ['urlencoded'],
			schema: InspectionReminderSchema,
		},
		{
			name: 'POST /vehicle-details/{slug} (service reminder)',
			as: asCustomer,
			path: (s) => `/vehicle-details/${s}`,
			slug: { valid: slug(demo.vehicle), foreign: [demo.otherVehicle] },
			fields: [
				hidden('intent', 'saveReminder'),
				hidden('kind', 'service'),
				{ name: 'lastDoneOn', kind: 'pattern', valid: '2026-01-15', required: true, invalid: ['2026-02-30', '15.01.2026', '2999-01-01'] },
				{ name: 'lastDoneMileage', kind: 'int', valid: '50000', required: true, range: [0, 2_000_000] },
				{ name: 'everyKm', kind: 'int', valid: '15000', required: true, range: [1000, 100_000] },
				{ name: 'everyMonths', kind: 'int', valid: '12', required: true, range: [1, 36] },
				{ name: 'daysBefore', kind: 'int', valid: '14', range: [1, 60] },
			],
			encodings: ['urlencoded', 'multipart'],
			schema: ServiceReminderSchema,
		},
		{
			name: 'POST /new-service-register',
			as: asCustomer,
			path: () => '/new-service-register',
			fields: [
				{ name: 'vehicleId', kind: 'ref', valid: demo.vehicle, required: true, foreign: [demo.otherVehicle, brand] },
				{ name: 'serviceIds', kind: 'refs', valid: [service, secondService], required: true, maxItems: 10, foreign: [brand, city] },
				{ name: 'preferredAt', kind: 'datetime', valid: `${ahead}-06-14T10:00`, required: true, invalid: ['2001-01-01T10:00'] },
				text('location', 'Tallinn, Peterburi tee 46', 200),
				{ name: 'cityId', kind: 'ref', valid: city, foreign: [service, brand] },
				multiline('details', 'Vilet pidurdamisel.\nPalun vaadake üle.', 2000, true),
				multiline('notes', 'Helistage enne.', 1000),
				{ name: 'shareHistory', kind: 'enum', valid: 'on', invalid: ['yes', 'off', 'ON'] },
			],
			encodings: ['multipart', 'urlencoded'],
			schema: ServiceRequestSchema,
			weight: 2,
		},
		{
			name: 'POST /compaire-offers/{slug} (select)',
			as: asCustomer,
			path: (s) => `/compaire-offers/${s}`,
			slug: { valid: slug(demo.offerRequest), foreign: [demo.otherRequest, demo.pendingRequest, demo.inProgressRequest] },
			fields: [
				hidden('intent', 'select'),
				{ name: 'offer', kind: 'id', idForm: 'slug', valid: slug(demo.offerToSelect), required: true, foreign: [demo.foreignOffer, demo.selectedOffer, demo.otherWorkshopOffer] },
			],
			encodings: ['urlencoded'],
		},
		{
			name: 'POST /request-details/{slug} (cancel)',
			as: asCustomer,
			path: (s) => `/request-details/${s}`,
			slug: { valid: slug(demo.pendingRequest), foreign: [demo.otherRequest] },
			fields: [{ name: 'intent', kind: 'enum', valid: 'cancel', required: true, readWithGet: true, invalid: ['Cancel', 'delete', 'cancel ', 'select'] }],
			encodings: ['urlencoded'],
		},
		{
			name: 'POST /request-details/{slug} (widen)',
			as: asCustomer,
			path: (s) => `/request-details/${s}`,
			slug: { valid: slug(demo.pendingRequest), foreign: [demo.otherRequest] },
			fields: [
				hidden('intent', 'widen'),
				{ name: 'serviceIds', kind: 'refs', valid: [service, secondService], maxItems: 10, foreign: [brand, city] },
				{ name: 'anyCity', kind: 'enum', valid: 'on', invalid: ['yes', 'off', 'ON'] },
			],
			encodings: ['urlencoded'],
			schema: WidenRequestSchema,
		},
		{
			name: 'POST /request-details/{slug} (share history)',
			as: asCustomer,
			path: (s) => `/request-details/${s}`,
			slug: { valid: slug(demo.pendingRequest), foreign: [demo.otherRequest] },
			fields: [hidden('intent', 'shareHistory'), { name: 'share', kind: 'enum', valid: 'on', required: true, invalid: ['yes', 'true', 'ON', 'on '] }],
			encodings: ['urlencoded'],
		},
		{
			name: 'POST /request-details/{slug} (reopen)',
			as: asCustomer,
			path: (s) => `/request-details/${s}`,
			slug: { valid: slug(demo.expiredRequest), foreign: [demo.otherRequest] },
			fields: [
				hidden('intent', 'reopen'),
				{ name: 'preferredAt', kind: 'datetime', valid: `${ahead}-06-14T10:00`, required: true, invalid: ['2001-01-01T10:00'] },
			],
			encodings: ['urlencoded'],
			schema: ReopenRequestSchema,
		},
		{
			name: 'POST /leave-feedback/{slug}',
			as: asCustomer,
			path: (s) => `/leave-feedback/${s}`,
			slug: { valid: slug(demo.unreviewedRequest), foreign: [demo.otherRequest, demo.pendingRequest, demo.inProgressRequest] },
			fields: [
				{ name: 'rating', kind: 'int', valid: '4', required: true, range: [1, 5] },
				text('title', 'Hea töö', 120, false),
				multiline('body', 'Kõik korras.\nAitäh!', 4000, true),
			],
			encodings: ['urlencoded', 'multipart'],
			schema: ReviewSchema,
		},
		{
			name: 'POST /profile',
			as: asCustomer,
			path: () => '/profile',
			fields: [nameText('firstName', 'Marie'), nameText('lastName', 'Tammik'), mobile('mobile')],
			encodings: ['urlencoded', 'multipart'],
			schema: ProfileSchema,
		},
		{
			name: 'POST /settings (password)',
			as: asCustomer,
			path: () => '/settings',
			fields: [
				hidden('intent', 'password'),
				// The right old password: a corruption let through would change the password.
				{ name: 'oldPassword', kind: 'password', valid: 'demo12345', required: true },
				{ name: 'password', kind: 'password', valid: 'Fuzz1234', required: true, max: 12, invalid: ['short'] },
				{ name: 'confirmPassword', kind: 'password', valid: 'Fuzz1234', required: true, max: 200 },
			],
			encodings: ['urlencoded', 'multipart'],
			schema: ChangePasswordSchema,
		},
		{
			name: 'POST /settings (language)',
			as: asWorkshop,
			path: () => '/settings',
			fields: [hidden('intent', 'language'), { name: 'language', kind: 'enum', valid: 'ru', required: true, invalid: ['xx', 'EN', 'de', 'et-EE'] }],
			encodings: ['urlencoded'],
			schema: LanguageSchema,
		},
		{
			name: 'POST /settings (e-mails)',
			as: asWorkshop,
			path: () => '/settings',
			fields: [
				hidden('intent', 'emails'),
				{ name: 'newRequests', kind: 'enum', valid: 'digest', invalid: ['xx', 'Digest', 'weekly', 'instant '] },
				{ name: 'emails', kind: 'enum', valid: 'reviews', readWithGet: true, invalid: ['admin', 'passwordReset', 'Reviews', 'invoices'] },
			],
			encodings: ['urlencoded'],
			schema: EmailPreferencesSchema,
		},
		{
			name: 'POST /notifications (open one)',
			as: asCustomer,
			path: () => '/notifications',
			fields: [{ name: 'id', kind: 'id', idForm: 'raw', valid: demo.customerNotification, required: true, foreign: [demo.workshopNotification] }],
			encodings: ['urlencoded'],
		},
		{
			name: 'POST /chat/{slug}',
			as: asCustomer,
			path: (s) => `/chat/${s}`,
			slug: { valid: slug(demo.workshopUserId), foreign: [demo.otherCustomerId, demo.adminId, demo.customerId, demo.nonPartnerWorkshopUserId] },
			fields: [multiline('message', 'Tere!\nMillal saan auto tuua?', 2000, true)],
			encodings: ['urlencoded', 'multipart'],
		},
	]

	const offerFields = (): Field[] => [
		{ name: 'price', kind: 'money', valid: '185.50', required: true },
		multiline('notes', 'Hind sisaldab varuosi.', 1000),
		multiline('description', 'Vahetame piduriklotsid.\nTöö võtab 2 tundi.', 4000),
	]
	const workshopForms: ActionSpec[] = [
		{
			name: 'POST /customer-request-details/{slug} (new offer)',
			as: asWorkshop,
			path: (s) => `/customer-request-details/${s}`,
			slug: { valid: slug(demo.openRequestWithoutBid), foreign: [demo.cancelledRequest, demo.inProgressRequest] },
			fields: offerFields(),
			encodings: ['multipart', 'urlencoded'],
			schema: OfferSchema,
			weight: 1.5,
		},
		{
			name: 'POST /customer-request-details/{slug} (update offer)',
			as: asWorkshop,
			path: (s) => `/customer-request-details/${s}`,
			slug: { valid: slug(demo.openRequestWithBid), foreign: [demo.closedRequestWithoutBid] },
			fields: [hidden('intent', 'update'), ...offerFields()],
			encodings: ['multipart', 'urlencoded'],
			schema: OfferSchema,
		},
		{
			name: 'POST /customer-request-details/{slug} (delete offer)',
			as: asWorkshop,
			path: (s) => `/customer-request-details/${s}`,
			slug: { valid: slug(demo.openRequestWithBid), foreign: [demo.closedRequestWithoutBid] },
			fields: [hidden('intent', 'delete')],
			encodings: ['urlencoded', 'multipart'],
			slugAndTokenOnly: true,
		},
		{
			name: 'POST /workshop-bid-details/{slug} (complete the job)',
			as: asWorkshop,
			path: (s) => `/workshop-bid-details/${s}`,
			slug: { valid: slug(demo.selectedOffer), foreign: [demo.otherWorkshopOffer, demo.foreignOffer] },
			fields: [
				{ name: 'finalPrice', kind: 'money', valid: '190', required: true },
				// The vehicle passport (issue 20): at least the vehicle's mileage (the demo's 58,200).
				{ name: 'mileage', kind: 'int', valid: '99000', required: true, range: [0, 999_999] },
			],
			encodings: ['urlencoded', 'multipart'],
			schema: CompleteJobSchema,
		},
		{
			name: 'POST /customer-reviews (reply)',
			as: asWorkshop,
			path: () => '/customer-reviews',
			fields: [
				{ name: 'review', kind: 'id', idForm: 'slug', valid: slug(demo.reviewToAnswer), required: true, foreign: [demo.otherWorkshopReview] },
				multiline('reply', 'Aitäh!\nOotame teid jälle.', 4000, true),
			],
			encodings: ['urlencoded', 'multipart'],
			schema: ReplySchema,
		},
		{
			name: 'POST /workshop-profile',
			as: asWorkshop,
			path: () => '/workshop-profile',
			fields: [
				nameText('contactFirstName', 'Peeter'),
				nameText('contactLastName', 'Kask'),
				nameText('workshopName', 'Kask Autoteenindus'),
				mobile('phone'),
				email('email', 'info@kask.example'),
				email('billingEmail', 'arved@kask.example', false),
				{ name: 'website', kind: 'pattern', valid: 'https://kask.example', max: 300, invalid: websites },
				{ name: 'foundedYear', kind: 'int', valid: '2009', range: [1850, thisYear] },
				{ name: 'installersCount', kind: 'int', valid: '8', range: [0, 1000] },
				text('state', 'Harju maakond', 80),
				{ name: 'cityId', kind: 'ref', valid: city, required: true, foreign: [service, brand] },
				text('streetName', 'Peterburi tee 46', 120),
				{ name: 'zipCode', kind: 'pattern', valid: '11415', required: true, max: 10, invalid: ['!!', '12', 'ABCDEFGHIJK', '114_15'] },
				multiline('marketingText', 'Pereettevõte.\nSõbralik teenindus.', 4000),
				multiline('additionalServices', 'Rehvihotell', 1000),
				{ name: 'serviceIds', kind: 'refs', valid: [service, secondService], required: true, foreign: [brand, city] },
				{ name: 'carBrandIds', kind: 'refs', valid: [brand, otherBrand], required: true, foreign: [service, part] },
				{ name: 'sparePartIds', kind: 'refs', valid: [part], required: true, foreign: [payment, brand] },
				{ name: 'paymentMethodIds', kind: 'refs', valid: [payment], required: true, foreign: [part, city] },
				{ name: 'weekdayOpens', kind: 'time', valid: '08:00' },
				{ name: 'weekdayCloses', kind: 'time', valid: '18:00' },
				{ name: 'saturdayOpens', kind: 'time', valid: '10:00' },
				{ name: 'saturdayCloses', kind: 'time', valid: '15:00' },
				{ name: 'sundayOpens', kind: 'time', valid: '' },
				{ name: 'sundayCloses', kind: 'time', valid: '' },
				{ name: 'warrantyWorkKm', kind: 'int', valid: '10000', range: [0, 1_000_000] },
				{ name: 'warrantyPartsMonths', kind: 'int', valid: '12', range: [0, 240] },
				multiline('warrantyInfo', 'Garantii kehtib arvega.', 2000),
			],
			encodings: ['multipart', 'urlencoded'],
			schema: WorkshopProfileSchema,
			weight: 5,
		},
		{
			name: 'POST /subscription (billing e-mail)',
			as: asWorkshop,
			path: () => '/subscription',
			fields: [hidden('intent', 'billingEmail'), email('billingEmail', 'billing2@example.com')],
			encodings: ['urlencoded'],
			schema: BillingDetailsSchema,
		},
		{
			name: 'POST /subscription (subscribe)',
			as: asWorkshop,
			path: () => '/subscription',
			fields: [{ name: 'packageId', kind: 'id', idForm: 'slug', valid: slug(demo.freePackage), required: true, foreign: [demo.workshopId, demo.otherPayment] }],
			encodings: ['urlencoded'],
		},
		{
			name: 'POST /subscription/test-payment/{slug} (pay)',
			as: asWorkshop,
			path: (s) => `/subscription/test-payment/${s}`,
			slug: { valid: testPayment, foreign: [demo.otherPayment, demo.paidPackage] },
			fields: [],
			encodings: ['urlencoded'],
			slugAndTokenOnly: true,
		},
		{
			name: 'POST /subscription/test-payment/{slug} (cancel)',
			as: asWorkshop,
			path: (s) => `/subscription/test-payment/${s}`,
			slug: { valid: testPayment, foreign: [demo.otherPayment, demo.paidPackage] },
			fields: [hidden('intent', 'cancel')],
			encodings: ['urlencoded'],
			slugAndTokenOnly: true,
		},
	]

	const adminForms: ActionSpec[] = [
		{
			name: 'POST /admin/ads/{id}',
			as: asAdmin,
			path: (s) => `/admin/ads/${s}`,
			slug: { valid: slug(demo.ad), foreign: [demo.contactMessage] },
			fields: [
				{ name: 'adsType', kind: 'enum', valid: 'html', required: true, invalid: ['1', 'HTML', 'video'] },
				{ name: 'placement', kind: 'enum', valid: 'Footer', required: true, invalid: ['footer', 'Sidebar'] },
				{ name: 'language', kind: 'enum', valid: 'en', required: true, invalid: ['EN', 'de', 'eesti'] },
				{ name: 'adsLink', kind: 'pattern', valid: '/workshop-list', max: 500, invalid: ['javascript:alert(1)', '//evil.example', 'http://', 'a b', 'workshop-list'] },
				{ name: 'content', kind: 'multiline', valid: '<p><strong>Talv</strong> tuleb</p>', required: true, max: 20_000 },
				{ name: 'sortOrder', kind: 'int', valid: '3', range: [0, 9999] },
				{ name: 'active', kind: 'flag', valid: 'on' },
			],
			encodings: ['multipart', 'urlencoded'],
			schema: AdSchema,
		},
		{
			name: 'POST /admin/ads/new',
			as: asAdmin,
			path: () => '/admin/ads/new',
			fields: [
				{ name: 'adsType', kind: 'enum', valid: 'html', required: true, invalid: ['1', 'HTML', 'video'] },
				{ name: 'placement', kind: 'enum', valid: 'Header', required: true, invalid: ['header', 'Sidebar'] },
				{ name: 'language', kind: 'enum', valid: 'en', required: true, invalid: ['EN', 'de', 'eesti'] },
				{ name: 'adsLink', kind: 'pattern', valid: 'https://partner.example/offer', max: 500, invalid: ['javascript:alert(1)', '//evil.example', 'http://', 'a b'] },
				{ name: 'content', kind: 'multiline', valid: '<p>Uus pakkumine</p>', required: true, max: 20_000 },
				{ name: 'sortOrder', kind: 'int', valid: '9', range: [0, 9999] },
			],
			encodings: ['multipart', 'urlencoded'],
			schema: AdSchema,
		},
		{
			name: 'POST /admin/ads/{id} (delete)',
			as: asAdmin,
			path: (s) => `/admin/ads/${s}`,
			slug: { valid: slug(demo.ad), foreign: [demo.contactMessage, demo.paidPackage] },
			fields: [hidden('intent', 'delete')],
			encodings: ['urlencoded', 'multipart'],
			slugAndTokenOnly: true,
		},
		{
			name: 'POST /admin/content/{slug}/{language}',
			as: asAdmin,
			path: (s) => `/admin/content/${s}/en`,
			slug: { valid: 'about-us' },
			fields: [text('title', 'About us', 150), multiline('bodyHtml', '<h2>Who we are</h2>\n<p>Autohub.</p>', 100_000, true)],
			encodings: ['urlencoded', 'multipart'],
			schema: ContentPageSchema,
		},
		{
			name: 'POST /admin/lists',
			as: asAdmin,
			path: () => '/admin/lists',
			fields: [
				hidden('list', 'services'),
				{ name: 'item', kind: 'id', idForm: 'slug', valid: slug(service), required: true, foreign: [brand, city] },
				{ name: 'code', kind: 'pattern', valid: 'fuzz-code', required: true, invalid: ['UPPER CASE', '-leading', 'a'.repeat(61), 'ä', 'a_b', 'a/b'] },
				text('nameEt', 'Hooldus', 100),
				text('nameEn', 'Maintenance', 100),
				text('nameRu', 'Обслуживание', 100),
				{ name: 'sortOrder', kind: 'int', valid: '7', range: [0, 99_999] },
				{ name: 'active', kind: 'flag', valid: 'on' },
			],
			encodings: ['urlencoded'],
			schema: ReferenceItemSchema,
		},
		{
			name: 'POST /admin/lists (new item)',
			as: asAdmin,
			path: () => '/admin/lists',
			fields: [
				hidden('list', 'carBrands'),
				hidden('item', 'new'),
				{ name: 'code', kind: 'pattern', valid: 'fuzz-brand', required: true, invalid: ['UPPER CASE', '-leading', 'a'.repeat(61), 'ä', 'a_b', 'a/b'] },
				text('nameEt', 'Fuzz', 100),
				text('nameEn', 'Fuzz', 100),
				text('nameRu', 'Фазз', 100),
				{ name: 'sortOrder', kind: 'int', valid: '99', range: [0, 99_999] },
				{ name: 'active', kind: 'flag', valid: 'on' },
			],
			encodings: ['urlencoded'],
			schema: ReferenceItemSchema,
		},
		{
			name: 'POST /admin/messages (mark handled)',
			as: asAdmin,
			path: () => '/admin/messages',
			fields: [
				{ name: 'message', kind: 'id', idForm: 'slug', valid: slug(demo.contactMessage), required: true, foreign: [demo.ad, demo.customerId] },
				hidden('returnTo', '/admin/messages'),
			],
			encodings: ['urlencoded'],
		},
		{
			name: 'POST /admin/packages',
			as: asAdmin,
			path: () => '/admin/packages',
			fields: [
				{ name: 'package', kind: 'id', idForm: 'slug', valid: slug(demo.paidPackage), required: true, foreign: [demo.otherPayment, demo.ad] },
				text('nameEt', 'Pro', 60),
				text('nameEn', 'Pro', 60),
				text('nameRu', 'Про', 60),
				{ name: 'price', kind: 'pattern', valid: '35.96', required: true, invalid: ['-5', '1e309', 'NaN', '1234567', '1.234', 'abc', '€5', '5,5,5'] },
				{ name: 'offersPerMonth', kind: 'pattern', valid: '', invalid: ['-1', '123456', 'abc', '1.5', '1e3'] },
				{ name: 'active', kind: 'flag', valid: 'on' },
			],
			encodings: ['urlencoded'],
			schema: PackageSchema,
		},
		{
			name: 'POST /admin/settings',
			as: asAdmin,
			path: () => '/admin/settings',
			fields: [
				text('appname', 'Autohub', 60),
				text('siteAddress', 'Narva Road 7, Tallinn', 300, false),
				text('siteAddressEstonian', 'Narva mnt 7, Tallinn', 300, false),
				text('siteAddressRussian', 'Нарвское шоссе 7', 300, false),
				email('siteEmail', 'info@autohub.example'),
				{ name: 'countryCode', kind: 'pattern', valid: '+372', invalid: ['372a', '+12345', '++1', '+'] },
				{ name: 'sitePhoneNumber', kind: 'pattern', valid: '600 1234', invalid: ['abc', '1', '+372 600', '600-'] },
				{ name: 'facebookLink', kind: 'pattern', valid: 'https://www.facebook.com/autohub', max: 300, invalid: websites },
				{ name: 'twitterLink', kind: 'pattern', valid: '', max: 300, invalid: websites },
				{ name: 'instagramLink', kind: 'pattern', valid: '', max: 300, invalid: websites },
				{ name: 'linkedinLink', kind: 'pattern', valid: '', max: 300, invalid: websites },
				text('companyName', 'Autohub OÜ', 200, false),
				text('companyRegistryCode', '12345678', 40, false),
				text('vatNumber', 'EE123456789', 40, false),
				{ name: 'vatRate', kind: 'pattern', valid: '24', required: true, invalid: ['100', '-1', '24.555', 'abc', '1e2', '24%'] },
				{ name: 'tyreAutumnDay', kind: 'pattern', valid: '1.10', invalid: ['31.09', '29.02', '13.13', '0.10', '1/10', 'October'] },
				{ name: 'tyreSpringDay', kind: 'pattern', valid: '15.03.', invalid: ['32.03', '15.3.2026', '-1.03'] },
			],
			encodings: ['multipart', 'urlencoded'],
			schema: SiteSettingsSchema,
			weight: 2,
		},
		{
			name: 'POST /admin/users/{id} (e-mail)',
			as: asAdmin,
			path: (s) => `/admin/users/${s}`,
			slug: { valid: slug(demo.otherCustomerId) },
			fields: [hidden('intent', 'email'), email('email', 'fuzz.changed@example.com')],
			encodings: ['urlencoded'],
			schema: ChangeEmailSchema,
		},
		{
			name: 'POST /admin/users/{id} (company fields)',
			as: asAdmin,
			path: (s) => `/admin/users/${s}`,
			slug: { valid: slug(demo.otherWorkshopUserId) },
			fields: [
				hidden('intent', 'company'),
				nameText('companyName', 'Fuzz Garage OÜ'),
				{ name: 'companyId', kind: 'pattern', valid: '1234567890', required: true, invalid: ['123', 'abcdefghij', '12345678901'] },
			],
			encodings: ['urlencoded'],
			schema: CompanyFieldsSchema,
		},
		{
			name: 'POST /admin/users/{id} (block)',
			as: asAdmin,
			path: (s) => `/admin/users/${s}`,
			slug: { valid: slug(demo.otherCustomerId) },
			fields: [hidden('intent', 'block')],
			encodings: ['urlencoded'],
			slugAndTokenOnly: true,
		},
	]
	return [...customerForms, ...workshopForms, ...adminForms]
}

const ACTIONS = [
	'POST /add-vehicle',
	'POST /edit-vehicle/{slug}',
	'POST /vehicle-details/{slug} (delete)',
	'POST /vehicle-details/{slug} (work done elsewhere)',
	'POST /vehicle-details/{slug} (inspection reminder)',
	'POST /vehicle-details/{slug} (service reminder)',
	'POST /new-service-register',
	'POST /compaire-offers/{slug} (select)',
	'POST /request-details/{slug} (cancel)',
	'POST /request-details/{slug} (widen)',
	'POST /request-details/{slug} (share history)',
	'POST /request-details/{slug} (reopen)',
	'POST /leave-feedback/{slug}',
	'POST /profile',
	'POST /settings (password)',
	'POST /settings (language)',
	'POST /settings (e-mails)',
	'POST /notifications (open one)',
	'POST /chat/{slug}',
	'POST /customer-request-details/{slug} (new offer)',
	'POST /customer-request-details/{slug} (update offer)',
	'POST /customer-request-details/{slug} (delete offer)',
	'POST /workshop-bid-details/{slug} (complete the job)',
	'POST /customer-reviews (reply)',
	'POST /workshop-profile',
	'POST /subscription (billing e-mail)',
	'POST /subscription (subscribe)',
	'POST /subscription/test-payment/{slug} (pay)',
	'POST /subscription/test-payment/{slug} (cancel)',
	'POST /admin/ads/{id}',
	'POST /admin/ads/new',
	'POST /admin/ads/{id} (delete)',
	'POST /admin/content/{slug}/{language}',
	'POST /admin/lists',
	'POST /admin/lists (new item)',
	'POST /admin/messages (mark handled)',
	'POST /admin/packages',
	'POST /admin/settings',
	'POST /admin/users/{id} (e-mail)',
	'POST /admin/users/{id} (company fields)',
	'POST /admin/users/{id} (block)',
]

const spec = (name: string) => specNamed(specs(), name)

fuzzEveryAction('signed-in forms: malformed fields', ACTIONS, specs, others)

describe('signed-in forms: unreadable bodies and odd file names', () => {
	const sample: Array<[string, string | undefined]> = [
		['POST /add-vehicle', undefined],
		['POST /new-service-register', 'images'],
		['POST /customer-request-details/{slug} (new offer)', 'attachment'],
		['POST /workshop-profile', 'photos'],
		['POST /admin/ads/{id}', 'image'],
		['POST /admin/settings', 'logo'],
		['POST /settings (password)', undefined],
	]
	for (const [name, uploadField] of sample) {
		test(`${name}: transport faults${uploadField ? ` and file names on ${uploadField}` : ''}`, async () => {
			await transportBatch(name, spec(name), others, uploadField)
		})
	}
})

describe('signed-in pages', () => {
	test('GET signed-in lists with odd query strings', async () => {
		const { customer, workshop, admin, demo } = world
		const pages: QueryPage[] = [
			{ path: '/dashboard', as: customer },
			{ path: '/my-requests', keys: ['status'], as: customer },
			{ path: '/my-vehicle', as: customer },
			{ path: '/my-service-history', as: customer },
			{ path: '/notifications', as: customer },
			{ path: '/new-service-register', keys: ['vehicle', 'workshop', 'at'], as: customer },
			{ path: '/add-vehicle', keys: ['returnTo'], as: customer },
			{ path: `/compaire-offers/${slug(demo.offerRequest)}`, keys: ['sort'], as: customer },
			{ path: '/dashboard', as: workshop },
			{ path: '/customer-requests', keys: ['show'], as: workshop },
			{ path: '/workshop-bid-history', keys: ['status'], as: workshop },
			{ path: '/workshop-service-history', as: workshop },
			{ path: '/customer-reviews', as: workshop },
			{ path: '/subscription', as: workshop },
			{ path: '/subscription/stripe-return', keys: ['session_id'], as: workshop },
			{ path: '/workshop-profile', as: workshop },
			{ path: '/admin', as: admin },
			{ path: '/admin/users', keys: ['role'], as: admin },
			{ path: '/admin/messages', keys: ['show'], as: admin },
			{ path: '/admin/audit', as: admin },
			{ path: '/admin/lists', keys: ['list'], as: admin },
			{ path: '/admin/ads', as: admin },
			{ path: '/admin/packages', as: admin },
			{ path: '/admin/settings', as: admin },
			{ path: '/admin/content', as: admin },
		]
		await oddQueryBatch('GET signed-in lists with odd query strings', pages)
	})

	test('GET signed-in pages with bad and foreign slugs', async () => {
		const { customer, workshop, admin, demo } = world
		const routes: SlugRoute[] = [
			{ path: (s) => `/vehicle-details/${s}`, as: customer, foreign: [demo.otherVehicle, demo.pendingRequest] },
			{ path: (s) => `/edit-vehicle/${s}`, as: customer, foreign: [demo.otherVehicle] },
			{ path: (s) => `/service-details/${s}`, as: customer, foreign: [demo.otherRequest] },
			{ path: (s) => `/request-details/${s}`, as: customer, foreign: [demo.otherRequest, demo.vehicle] },
			{ path: (s) => `/compaire-offers/${s}`, as: customer, foreign: [demo.otherRequest] },
			{ path: (s) => `/work-progress/${s}`, as: customer, foreign: [demo.otherRequest] },
			{ path: (s) => `/leave-feedback/${s}`, as: customer, foreign: [demo.otherRequest] },
			{ path: (s) => `/chat/${s}`, as: customer, foreign: [demo.otherCustomerId, demo.adminId, demo.customerId] },
			{ path: (s) => `/notifications/${s}`, as: customer, foreign: [demo.workshopNotification] },
			{ path: (s) => `/workshop-bid-details/${s}`, as: workshop, foreign: [demo.otherWorkshopOffer] },
			{ path: (s) => `/customer-request-details/${s}`, as: workshop, foreign: [demo.vehicle] },
			{ path: (s) => `/subscription/test-payment/${s}`, as: workshop, foreign: [demo.otherPayment] },
			{ path: (s) => `/admin/users/${s}`, as: admin, foreign: [demo.vehicle] },
			{ path: (s) => `/admin/ads/${s}`, as: admin, foreign: [demo.vehicle] },
			{ path: (s) => `/admin/content/${s}/en`, as: admin },
			{ path: (s) => `/admin/content/about-us/${s}`, as: admin },
		]
		await badSlugBatch('GET signed-in pages with bad slugs', routes)
	})
})
