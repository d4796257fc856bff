import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { beforeAll, describe, expect, test } from 'vitest'
import { dailyCounts, emailOutbox, notifications, partners, serviceRequestImages, serviceRequests, serviceRequestServices, uploads, users, vehicles, widgetRequests, workshops } from '~/db/schema'
import { flushDailyCounts } from '~/counting/daily-counts.server'
import { ErrorBodySchema, MessageResponseSchema, ValidationErrorBodySchema } from '~/domain/api/responses.server'
import { openApiDocument } from '~/domain/api/openapi.server'
import { applyRetention } from '~/domain/privacy/retention.server'
import { WIDGET_REQUEST_DAYS } from '~/domain/privacy/retention'
import { newPartnerKey } from '~/domain/partners/partners.server'
import { referenceLists } from '~/domain/site/reference.server'
import { confirmWidgetRequest, readWidgetRequest } from '~/domain/service-flow/widget-confirm.server'
import { MAX_UNCONFIRMED_PER_DAY, WIDGET_REQUEST_HOURS } from '~/domain/service-flow/widget-request'
import { action as confirmAction, loader as confirmLoader } from '~/routes/_public.confirm-request.$token'
import { action as widgetRequest, loader as widgetRequestLoader } from '~/routes/admin.api.widget-request'
import { db } from '~/db/db.server'
import { getSessionStorage } from '~/utils/session.server'
import { commitCsrfToken } from '~/utils/csrf.server'
import { encodeId } from '~/utils/public-id'
import { dateToTallinnInput } from '~/utils/time'
import { createCustomer, requestWithToken, uniqueEmail } from '#tests/support/accounts'
import { demoData } from '#tests/support/demo-data'

/**
 * The "ask for an offer" widget's call and its e-mailed link (issue 37, decision 0153): checked with
 * the portal's rules, kept without an account, nothing to any workshop until the link is opened,
 * then one account, one car and exactly one request, however often the link is opened.
 */

type Codes = { service: string; otherService: string; brand: string; city: string }
let codes: Codes
let workshop: { id: string; userId: string; name: string }

beforeAll(async () => {
	await demoData()
	const lists = await referenceLists()
	const [service, otherService] = lists.services.items.en
	codes = { service: service!.code, otherService: otherService!.code, brand: lists.carBrands.items.en[0]!.code, city: lists.cities.items.en.find((c) => c.code === 'tallinn')?.code ?? lists.cities.items.en[0]!.code }
	const [row] = await db.select({ id: workshops.id, userId: workshops.userId, name: workshops.workshopName }).from(workshops).limit(1)
	workshop = row!
})

const tomorrow = () => dateToTallinnInput(new Date(Date.now() + 26 * 60 * 60 * 1000))
let plates = 0
/** A plate nobody has: letters and digits, unique per test run. */
const newPlate = () => `WR${String(Date.now() % 100000).padStart(5, '0')}${++plates}`.slice(0, 10)

function fields(overrides: Record<string, string | string[]> = {}): Record<string, string | string[]> {
	return {
		services: [codes.service, codes.otherService],
		workshopId: encodeId(workshop.id),
		alsoOthers: 'on',
		brand: codes.brand,
		model: 'Corolla',
		vehicleYear: '2016',
		registrationNumber: newPlate(),
		transmission: 'automatic',
		mileage: '154 000',
		preferredAt: tomorrow(),
		city: codes.city,
		location: 'Tallinn, Mustamäe',
		details: 'The brakes squeak when I stop.',
		firstName: 'Mari',
		lastName: 'Maasikas',
		email: uniqueEmail('widget'),
		mobile: '+372 5123 4567',
		...overrides,
	}
}

const png = () => sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a6' } }).png().toBuffer()

type Sent = { status: number; body: { status: number; message: string; errors?: Record<string, string[]> }; response: Response }
async function send(values: Record<string, string | string[]>, init: { ip?: string; lng?: string; files?: Array<{ name: string; bytes: Uint8Array; type: string }>; headers?: Record<string, string>; query?: string } = {}): Promise<Sent> {
	const form = new FormData()
	for (const [name, value] of Object.entries(values)) for (const item of Array.isArray(value) ? value : [value]) form.append(name, item)
	for (const file of init.files ?? []) form.append('images', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name)
	const url = `http://localhost/admin/api/widget-request?lng=${init.lng ?? 'en'}${init.query ?? ''}`
	const request = new Request(url, { method: 'POST', body: form, headers: init.headers })
	const response = await widgetRequest({ request, params: {}, context: { clientIp: init.ip ?? `192.0.2.${Math.floor(Math.random() * 250) + 1}` } } as never)
	return { status: response.status, body: await response.clone().json(), response }
}

/** The link of the confirmation e-mail sent to `email`: its token. */
async function linkTokenOf(email: string) {
	const [mail] = await db
		.select()
		.from(emailOutbox)
		.where(and(eq(emailOutbox.to, email), sql`${emailOutbox.text} like '%/confirm-request/%'`))
		.orderBy(desc(emailOutbox.createdAt))
		.limit(1)
	const match = /\/confirm-request\/([\w-]+)\?lng=(\w+)/.exec(mail!.text)
	return { token: match![1]!, language: match![2]!, mail: mail! }
}

/** The page's button, pressed by a browser without a session. */
async function pressButton(token: string) {
	const url = `http://localhost/confirm-request/${token}?lng=en`
	const [csrf, csrfCookie] = await commitCsrfToken(new Request(url))
	const post = new Request(url, {
		method: 'POST',
		headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: csrfCookie!.split(';')[0]!, 'User-Agent': 'vitest' },
		body: new URLSearchParams({ csrf: csrf! }),
	})
	return (await confirmAction({ request: post, params: { token }, context: {} } as never)) as Response
}

const pendingOf = (email: string) => db.select().from(widgetRequests).where(eq(widgetRequests.email, email))

describe('POST /admin/api/widget-request', () => {
	test('checks the fields with the portal’s rules and answers every error by its field, translated; nothing is kept', async () => {
		const before = (await db.select().from(widgetRequests)).length
		const empty = await send({})
		expect(empty.status).toBe(422)
		expect(empty.response.headers.get('Access-Control-Allow-Origin')).toBe('*')
		expect(empty.body.message).toBe('Please correct the marked fields.')
		for (const field of ['services', 'brand', 'model', 'vehicleYear', 'registrationNumber', 'transmission', 'mileage', 'preferredAt', 'location', 'details', 'firstName', 'lastName', 'email', 'mobile']) {
			expect(empty.body.errors?.[field], field).toBeTruthy()
		}
		expect(empty.body.errors!.email).toEqual(['This field is required.'])
		// The documented shape (docs/api.md, the OpenAPI document).
		expect(ValidationErrorBodySchema.safeParse(empty.body).success).toBe(true)

		const wrong = await send(fields({ email: 'not-an-address', registrationNumber: '!!', mileage: '-5', preferredAt: '2020-01-01T10:00' }), { lng: 'ru' })
		expect(wrong.status).toBe(422)
		expect(wrong.body.errors).toMatchObject({ email: ['Введите действительный адрес e-mail.'], registrationNumber: [expect.any(String)], mileage: [expect.any(String)], preferredAt: [expect.any(String)] })

		// Codes the reference lists do not know, and a workshop that is not there.
		const unknown = await send(fields({ services: ['no-such-service'] }))
		expect(unknown.body.errors).toEqual({ services: ['Choose a value from the list.'] })
		const nowhere = await send(fields({ workshopId: encodeId('00000000-0000-4000-8000-000000000000') }))
		expect(Object.keys(nowhere.body.errors!)).toEqual(['workshopId'])

		// A photo is checked by its content, as on the portal.
		const notAnImage = await send(fields(), { files: [{ name: 'brakes.png', bytes: new TextEncoder().encode('%PDF-1.4 not an image'), type: 'image/png' }] })
		expect(notAnImage.status).toBe(422)
		expect(notAnImage.body.errors!.images).toEqual(['This type of file is not allowed.'])
		const tooMany = await send(fields(), { files: await Promise.all([1, 2, 3, 4].map(async (n) => ({ name: `${n}.png`, bytes: await png(), type: 'image/png' }))) })
		expect(tooMany.body.errors!.images).toEqual(['At most 3 files.'])

		expect((await db.select().from(widgetRequests)).length).toBe(before)
	})

	test('refuses a throwaway address, and treats a filled bot trap as sent while keeping nothing', async () => {
		const throwaway = await send(fields({ email: `someone@${'mailinator.com'}` }))
		expect(throwaway.status).toBe(422)
		expect(throwaway.body.errors).toEqual({ email: ['Use an e-mail address you keep: throwaway addresses cannot confirm a request.'] })
		const email = uniqueEmail('bot')
		const bot = await send(fields({ email, name__confirm: 'I am a bot' }))
		expect(bot.status).toBe(200)
		expect(await pendingOf(email)).toEqual([])
		expect(await db.select().from(emailOutbox).where(eq(emailOutbox.to, email))).toEqual([])
	})

	test('keeps the request with its photos held for nobody, e-mails the link in the visitor’s language, and tells no workshop', async () => {
		const values = fields({ email: uniqueEmail('keep') })
		const email = values.email as string
		const notices = (await db.select().from(notifications).where(eq(notifications.userId, workshop.userId))).length
		const sent = await send(values, { lng: 'ru', ip: '198.51.100.7', files: [{ name: 'brakes.png', bytes: await png(), type: 'image/png' }] })
		expect(sent.status).toBe(200)
		expect(sent.body.message).toContain(email)
		expect(MessageResponseSchema.safeParse(sent.body).success).toBe(true)
		const [row] = await pendingOf(email)
		expect(row).toMatchObject({ language: 'ru', workshopId: workshop.id, partnerId: null, confirmedAt: null, requestId: null })
		// The address only as a salted hash, never itself.
		expect(row!.sourceHash).toMatch(/^[0-9a-f]{64}$/)
		expect(JSON.stringify(row)).not.toContain('198.51.100.7')
		expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(WIDGET_REQUEST_HOURS * 60 * 60 * 1000)
		const payload = row!.payload as { imageIds: string[]; car: { mileage: number; registrationNumber: string } }
		expect(payload.car.mileage).toBe(154000)
		const [photo] = await db.select().from(uploads).where(eq(uploads.id, payload.imageIds[0]!))
		expect(photo).toMatchObject({ ownerId: null, purpose: 'request_image', mimeType: 'image/png' })
		expect(photo!.heldSince).not.toBeNull()

		const { language, mail } = await linkTokenOf(email)
		expect(language).toBe('ru')
		expect(mail.subject).toBe('Подтвердите запрос предложения')
		expect(mail.text).toContain(payload.car.registrationNumber)
		// No account, no request, no notice to the workshop yet.
		expect(await db.select().from(users).where(eq(users.email, email))).toEqual([])
		expect(await db.select().from(vehicles).where(eq(vehicles.registrationNumber, payload.car.registrationNumber))).toEqual([])
		expect((await db.select().from(notifications).where(eq(notifications.userId, workshop.userId))).length).toBe(notices)
	})

	test(`refuses a ${MAX_UNCONFIRMED_PER_DAY + 1}th unconfirmed request of the day from one address, or for one e-mail, with a translated 429`, async () => {
		const ip = '203.0.113.77'
		for (let i = 0; i < MAX_UNCONFIRMED_PER_DAY; i++) expect((await send(fields(), { ip })).status).toBe(200)
		const refused = await send(fields(), { ip, lng: 'et' })
		expect(refused.status).toBe(429)
		expect(Number(refused.response.headers.get('Retry-After'))).toBeGreaterThan(0)
		expect(refused.body).toEqual({ status: 429, message: expect.stringContaining('kinnitamata päringut') })
		expect(ErrorBodySchema.safeParse(refused.body).success).toBe(true)

		const email = uniqueEmail('limit')
		for (let i = 0; i < MAX_UNCONFIRMED_PER_DAY; i++) expect((await send(fields({ email }))).status).toBe(200)
		const byEmail = await send(fields({ email: email.toUpperCase() }))
		expect(byEmail.status).toBe(429)
		expect(await pendingOf(email)).toHaveLength(MAX_UNCONFIRMED_PER_DAY)
	})

	test('carries a partner’s key from its own origin, and refuses it from another', async () => {
		const { key, keyHash, keyPrefix } = newPartnerKey()
		const [partner] = await db.insert(partners).values({ name: 'Car club', keyHash, keyPrefix, allowedOrigins: ['https://club.example'] }).returning()
		const refused = await send(fields(), { query: `&partner=${key}`, headers: { Origin: 'https://elsewhere.example' } })
		expect(refused.status).toBe(403)
		expect(refused.body).toEqual({ status: 403, message: 'This partner key may not be used from this site.' })
		const email = uniqueEmail('partner')
		const sent = await send(fields({ email }), { query: `&partner=${key}`, headers: { Origin: 'https://club.example' } })
		expect(sent.status).toBe(200)
		expect((await pendingOf(email))[0]!.partnerId).toBe(partner!.id)

		// Counted when its link is opened, for the workshop and the partner.
		const { token } = await linkTokenOf(email)
		expect((await confirmWidgetRequest(token)).outcome).toBe('created')
		await flushDailyCounts()
		const [counted] = await db.select().from(dailyCounts).where(and(eq(dailyCounts.kind, 'widget-request'), eq(dailyCounts.partnerId, partner!.id)))
		expect(counted).toMatchObject({ workshopId: workshop.id, count: 1 })
	})

	test('is in the OpenAPI document: a form with up to three photos, the partner key, its errors', () => {
		const operation = openApiDocument().paths['/widget-request']!.post as { requestBody: { content: Record<string, unknown> }; parameters: Array<{ name: string }>; responses: Record<string, unknown> }
		expect(Object.keys(operation.requestBody.content)).toEqual(['multipart/form-data', 'application/x-www-form-urlencoded'])
		expect(operation.parameters).toEqual([{ $ref: '#/components/parameters/lng' }, { $ref: '#/components/parameters/partner' }])
		expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '403', '413', '415', '422', '429']))
		expect(openApiDocument().components.schemas.WidgetRequestInput).toMatchObject({ required: expect.arrayContaining(['services', 'brand', 'registrationNumber', 'email', 'mobile']) })
	})

	test('answers 405 to a GET', async () => {
		const response = await widgetRequestLoader({ request: new Request('http://localhost/admin/api/widget-request?lng=en'), params: {}, context: {} } as never)
		expect(response.status).toBe(405)
	})
})

describe('opening the link', () => {
	test('makes a guest account, the car and exactly one request with its photos; the workshop is told; a second opening shows the same request', async () => {
		const values = fields({ email: uniqueEmail('guest') })
		const email = values.email as string
		await send(values, { files: [{ name: 'a.png', bytes: await png(), type: 'image/png' }, { name: 'b.png', bytes: await png(), type: 'image/png' }] })
		const { token } = await linkTokenOf(email)
		const view = await readWidgetRequest(token, 'en')
		expect(view).toMatchObject({ state: 'pending', summary: { email, registrationNumber: values.registrationNumber, workshop: workshop.name, photos: 2, location: 'Tallinn, Mustamäe' } })

		const first = await confirmWidgetRequest(token)
		expect(first).toMatchObject({ outcome: 'created', signIn: true })
		if (first.outcome !== 'created') throw new Error('not created')
		const [guest] = await db.select().from(users).where(eq(users.email, email))
		expect(guest).toMatchObject({ id: first.customerId, role: 'customer', passwordHash: null, firstName: 'Mari', lastName: 'Maasikas', mobile: '+372 5123 4567', preferredLanguage: 'en' })
		const [request] = await db.select().from(serviceRequests).where(eq(serviceRequests.id, first.requestId))
		expect(request).toMatchObject({ customerId: guest!.id, addressedWorkshopId: workshop.id, addressedOnly: false, location: 'Tallinn, Mustamäe', details: 'The brakes squeak when I stop.' })
		const [car] = await db.select().from(vehicles).where(eq(vehicles.id, request!.vehicleId))
		expect(car).toMatchObject({ ownerId: guest!.id, registrationNumber: values.registrationNumber, model: 'Corolla', vehicleYear: 2016, transmission: 'automatic', mileage: 154000 })
		expect(await db.select().from(serviceRequestServices).where(eq(serviceRequestServices.requestId, request!.id))).toHaveLength(2)
		const images = await db.select().from(serviceRequestImages).where(eq(serviceRequestImages.requestId, request!.id))
		expect(images).toHaveLength(2)
		const stored = await db.select().from(uploads).where(inArray(uploads.id, images.map((image) => image.uploadId)))
		expect(stored.every((upload) => upload.ownerId === guest!.id && upload.heldSince === null)).toBe(true)
		// The addressed workshop is told, as for any request.
		const told = await db.select().from(notifications).where(and(eq(notifications.userId, workshop.userId), eq(notifications.receivedId, request!.id)))
		expect(told).toHaveLength(1)

		// Again (a second tab, the back button): the same request, nothing new.
		expect(await confirmWidgetRequest(token)).toEqual({ outcome: 'already', requestId: first.requestId, customerId: guest!.id, signIn: false })
		expect(await db.select().from(serviceRequests).where(eq(serviceRequests.customerId, guest!.id))).toHaveLength(1)
		expect(await readWidgetRequest(token, 'en')).toMatchObject({ state: 'confirmed', requestId: first.requestId })
	})

	test('the page: shows what was asked, its button signs a new guest in and shows the request; opened again by its owner it leads to the request', async () => {
		const values = fields({ email: uniqueEmail('page') })
		await send(values)
		const { token } = await linkTokenOf(values.email as string)
		const url = `http://localhost/confirm-request/${token}?lng=en`
		const page = await confirmLoader({ request: new Request(url), params: { token }, context: {} } as never)
		const shown = page as unknown as { data: { view: { state: string } }; init: { status?: number; headers: Record<string, string> } | null }
		expect(shown.data.view.state).toBe('pending')
		expect(shown.init?.headers['Cache-Control']).toBe('no-store')
		// Opening the page made nothing.
		expect(await db.select().from(users).where(eq(users.email, values.email as string))).toEqual([])

		const answer = await pressButton(token)
		expect(answer.status).toBe(302)
		const [pending] = await pendingOf(values.email as string)
		expect(answer.headers.get('Location')).toBe(`/request-details/${encodeId(pending!.requestId!)}`)
		// Signed in: the cookie holds a session of the new guest.
		const session = await getSessionStorage().getSession(answer.headers.get('Set-Cookie'))
		const signedIn = await requestWithToken(session.get('token') as string, url)
		const again = await confirmLoader({ request: signedIn, params: { token }, context: {} } as never).catch((thrown: unknown) => thrown)
		expect((again as Response).status).toBe(302)
		expect((again as Response).headers.get('Location')).toBe(`/request-details/${encodeId(pending!.requestId!)}`)
	})

	test('an existing account of the address gets the request and signs in its own way', async () => {
		const customer = await createCustomer()
		const values = fields({ email: customer.email.toUpperCase() })
		expect((await send(values)).status).toBe(200)
		const { token } = await linkTokenOf(customer.email)
		const outcome = await confirmWidgetRequest(token)
		expect(outcome).toMatchObject({ outcome: 'created', customerId: customer.id, signIn: false })
		expect(await db.select().from(users).where(sql`lower(${users.email}) = ${customer.email}`)).toHaveLength(1)
		// Through the page, not signed in: to the log-in, which leads on to the request.
		const second = fields({ email: customer.email })
		await send(second)
		const { token: nextToken } = await linkTokenOf(customer.email)
		const answer = await pressButton(nextToken)
		const [made] = (await pendingOf(customer.email)).filter((row) => row.requestId && (row.payload as { car: { registrationNumber: string } }).car.registrationNumber === second.registrationNumber)
		expect(answer.status).toBe(302)
		expect(answer.headers.get('Location')).toBe(`/login?redirectTo=${encodeURIComponent(`/request-details/${encodeId(made!.requestId!)}`)}`)
		expect(await db.select().from(serviceRequests).where(eq(serviceRequests.customerId, customer.id))).toHaveLength(2)
	})

	test('a workshop’s address makes nothing; a link past its day says so and makes nothing', async () => {
		const [owner] = await db.select({ email: users.email }).from(users).where(eq(users.id, workshop.userId))
		const values = fields({ email: owner!.email })
		await send(values)
		const { token } = await linkTokenOf(owner!.email)
		expect(await confirmWidgetRequest(token)).toEqual({ outcome: 'notCustomer' })
		expect(await db.select().from(vehicles).where(eq(vehicles.registrationNumber, values.registrationNumber as string))).toEqual([])

		const late = fields({ email: uniqueEmail('late') })
		await send(late)
		const { token: lateToken } = await linkTokenOf(late.email as string)
		const afterADay = new Date(Date.now() + (WIDGET_REQUEST_HOURS + 1) * 60 * 60 * 1000)
		expect(await readWidgetRequest(lateToken, 'en', afterADay)).toEqual({ state: 'expired' })
		expect(await confirmWidgetRequest(lateToken, afterADay)).toEqual({ outcome: 'expired' })
		expect(await db.select().from(users).where(eq(users.email, late.email as string))).toEqual([])
		expect(await confirmWidgetRequest('no-such-token')).toEqual({ outcome: 'unknown' })
	})

	test('a plate another account took meanwhile makes nothing, not even the account', async () => {
		const values = fields({ email: uniqueEmail('plate') })
		await send(values)
		const { token } = await linkTokenOf(values.email as string)
		const other = await createCustomer()
		const lists = await referenceLists()
		await db.insert(vehicles).values({ ownerId: other.id, registrationNumber: values.registrationNumber as string, brandId: lists.carBrands.idByCode.get(codes.brand)!, model: 'X', modelSpecification: '', vehicleYear: 2010, transmission: 'manual', mileage: 1 })
		expect(await confirmWidgetRequest(token)).toEqual({ outcome: 'plateTaken' })
		expect(await db.select().from(users).where(eq(users.email, values.email as string))).toEqual([])
		// And a new request with that plate is refused at once, as the portal's vehicle form refuses it.
		const again = await send(fields({ registrationNumber: values.registrationNumber as string }))
		expect(again.status).toBe(422)
		expect(Object.keys(again.body.errors!)).toEqual(['registrationNumber'])
	})
})

describe('keeping', () => {
	test(`a waiting request is kept ${WIDGET_REQUEST_DAYS} days past its link's end, then removed`, async () => {
		const values = fields({ email: uniqueEmail('retention') })
		await send(values)
		const [row] = await pendingOf(values.email as string)
		const linkEnd = row!.expiresAt.getTime()
		await applyRetention(new Date(linkEnd + (WIDGET_REQUEST_DAYS - 1) * 24 * 60 * 60 * 1000))
		expect(await pendingOf(values.email as string)).toHaveLength(1)
		const removed = await applyRetention(new Date(linkEnd + (WIDGET_REQUEST_DAYS + 1) * 24 * 60 * 60 * 1000))
		expect(removed.widgetRequests).toBeGreaterThanOrEqual(1)
		expect(await pendingOf(values.email as string)).toEqual([])
	})
})
