import { parseWithZod } from '@conform-to/zod/v4'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { emailOutbox, notifications, offers, serviceRecords, users, vehicles, workshops } from '~/db/schema'
import { findViewableUpload } from '~/uploads/access.server'
import { CompleteJobSchema } from '~/domain/service-flow/final-bill-schema'
import { completeJob, confirmBill } from '~/domain/service-flow/job-moves.server'
import { type WorkshopActor } from '~/utils/auth.server'
import { makeOffer, selectOffer } from '~/domain/service-flow/offer-moves.server'
import { addMonths, warrantyLeft } from '~/domain/service-flow/passport'
import { ServiceRecordSchema } from '~/domain/service-flow/passport-schema'
import {
	addServiceRecord,
	deleteServiceRecord,
	linkedVehicle,
	sendWarrantyNotices,
	setVehicleLink,
	shareHistoryOnRequest,
	sharedHistory,
	vehiclePassport,
} from '~/domain/service-flow/passport.server'
import { getCustomerRequest, getRequestForWorkshop } from '~/domain/service-flow/requests.server'
import { createServiceRequest } from '~/domain/service-flow/request-moves.server'
import { vehicleCalendar } from '~/domain/service-flow/passport-calendar.server'
import { renderHistoryPdf } from '~/domain/service-flow/passport-pdf.server'
import { getVehicle } from '~/domain/service-flow/vehicles.server'
import { db } from '~/db/db.server'
import { prepareUpload } from '~/uploads/storage.server'
import { dateToTallinnInput } from '~/utils/time'
import { createCustomer } from '#tests/support/accounts'
import { refused } from '#tests/support/refusals'
import { customerWithVehicle, inDays, openRequest, referenceData, workshopOffering } from '#tests/support/flow'
import { pdfText } from '#tests/support/pdf-text'

/**
 * Issue 20, the vehicle passport: a completed job lands in the vehicle's history with its mileage,
 * documents and warranty; the owner adds work done elsewhere; warranty ends are told a month ahead;
 * the calendar is the owner's or the link's. Nobody else sees any of it.
 */

const DAY = 86_400_000
const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')
const day = (offsetDays: number) => dateToTallinnInput(new Date(Date.now() + offsetDays * DAY)).slice(0, 10)

/** A job in progress on a €150 offer, for a vehicle at 60,000 km, by a workshop with 20,000 km / 6 months of warranty. */
async function itemisedJob() {
	const owner = await customerWithVehicle()
	const workshop: WorkshopActor = await workshopOffering([owner.refs.brakes])
	await db.update(workshops).set({ warrantyWorkKm: 20_000, warrantyPartsMonths: 6 }).where(eq(workshops.id, workshop.workshopId))
	const requestId = await openRequest(owner.customer.id, owner.vehicleId, [owner.refs.brakes])
	const offerId = await makeOffer(
		workshop,
		requestId,
		{ lines: [{ kind: 'part', description: 'Brake pads, front', reference: 'ATE 13.0460', quantity: 100, unitPrice: 6000 }, { kind: 'labour', description: 'Fitting', reference: '', quantity: 100, unitPrice: 5000 }] },
		null,
	)
	await selectOffer(owner.customer.id, requestId, offerId)
	return { customerId: owner.customer.id, vehicleId: owner.vehicleId, workshop, requestId, offerId }
}

/** The owner's vehicle's passport, as its page reads it. */
const passportOf = async (ownerId: string, vehicleId: string) => vehiclePassport(await getVehicle(ownerId, vehicleId), 'en')
const serviceHistory = async (ownerId: string, vehicleId: string) => (await passportOf(ownerId, vehicleId)).history

const vehicleMileage = async (id: string) => (await db.select({ mileage: vehicles.mileage }).from(vehicles).where(eq(vehicles.id, id)))[0]!.mileage

describe('a completed job in the history', () => {
	test('the workshop enters the mileage with the final price: the job, its lines, its invoice and its warranty are in the history, the vehicle follows', async () => {
		const job = await itemisedJob()
		const invoice = await prepareUpload({ bytes: pdf, purpose: 'job_invoice', originalName: 'arve.pdf' })
		expect(await completeJob(job.workshop, job.offerId, 11000, { mileage: 61_250, invoice })).toBe('completed')
		expect(await vehicleMileage(job.vehicleId)).toBe(61_250)

		const [entry] = await serviceHistory(job.customerId, job.vehicleId)
		expect(entry).toMatchObject({ source: 'job', mileage: 61_250, paidCents: 11000, quotedCents: 11000, workshopName: job.workshop.workshopName, on: day(0) })
		expect(entry!.lines.map((line) => line.description)).toEqual(['Brake pads, front', 'Fitting'])
		expect(entry!.invoicePdf).toBeTruthy()

		// The invoice: the job's customer and its workshop, nobody else.
		const upload = entry!.invoicePdf!
		const customer = { id: job.customerId, role: 'customer' as const, workshop: null }
		expect(await findViewableUpload(upload, customer as never)).not.toBeNull()
		expect(await findViewableUpload(upload, { id: job.workshop.userId, role: 'workshop', workshop: { id: job.workshop.workshopId } } as never)).not.toBeNull()
		const stranger = await createCustomer()
		expect(await findViewableUpload(upload, { id: stranger.id, role: 'customer', workshop: null } as never)).toBeNull()

		// The warranty the workshop gave then, kept when its profile changes.
		await db.update(workshops).set({ warrantyWorkKm: 1000, warrantyPartsMonths: 1 }).where(eq(workshops.id, job.workshop.workshopId))
		const [warranty] = (await passportOf(job.customerId, job.vehicleId)).warranties
		expect(warranty).toMatchObject({ workKm: 20_000, partsMonths: 6, mileageAtJob: 61_250 })
		expect(warranty!.work).toMatchObject({ untilKm: 81_250, leftKm: 20_000, state: 'valid' })
		expect(warranty!.parts).toMatchObject({ until: addMonths(day(0), 6), state: 'valid' })
	})

	test('a mileage below the last recorded one is a field error and changes nothing; the form asks for it', async () => {
		const job = await itemisedJob()
		await refused(completeJob(job.workshop, job.offerId, 11000, { mileage: 59_999 }), 'workshop:job.mileageBelow.km')
		const [offer] = await db.select().from(offers).where(eq(offers.id, job.offerId))
		expect(offer).toMatchObject({ status: 'selected', finalPriceCents: null, mileageAtJob: null })
		expect(await vehicleMileage(job.vehicleId)).toBe(60_000)

		const form = new FormData()
		form.set('finalPrice', '110')
		expect(parseWithZod(form, { schema: CompleteJobSchema }).status).toBe('error')
		form.set('mileage', 'far')
		expect(parseWithZod(form, { schema: CompleteJobSchema }).status).toBe('error')
		form.set('mileage', '60500')
		expect(parseWithZod(form, { schema: CompleteJobSchema }).status).toBe('success')
	})

	test('a bill above the binding total keeps its mileage until the customer confirms it', async () => {
		const job = await itemisedJob()
		expect(await completeJob(job.workshop, job.offerId, 13000, { mileage: 60_400, reason: 'The discs were worn too.' })).toBe('proposed')
		expect(await vehicleMileage(job.vehicleId)).toBe(60_000)
		expect(await serviceHistory(job.customerId, job.vehicleId)).toEqual([])
		// Confirmed, the job is complete: the history has it at its mileage, and the vehicle follows.
		await confirmBill(job.customerId, job.requestId)
		expect(await vehicleMileage(job.vehicleId)).toBe(60_400)
		expect(await serviceHistory(job.customerId, job.vehicleId)).toMatchObject([{ source: 'job', mileage: 60_400, paidCents: 13000, quotedCents: 11000 }])
	})
})

describe('work done elsewhere', () => {
	const record = (fields: Record<string, string>) => {
		const form = new FormData()
		for (const [name, value] of Object.entries({ performedOn: day(-30), mileage: '59000', description: 'Oil and filter', ...fields })) form.set(name, value)
		return parseWithZod(form, { schema: ServiceRecordSchema })
	}
	const errorsOf = (fields: Record<string, string>) => {
		const parsed = record(fields)
		return parsed.status === 'error' ? parsed.error : undefined
	}

	test('the owner adds it with a PDF, sees it in the history in date order, and removes it', async () => {
		const { customer, vehicleId } = await customerWithVehicle()
		const parsed = record({ workshopName: 'Garage elsewhere', price: '45,50' })
		if (parsed.status !== 'success') throw new Error('the record should pass')
		const document = await prepareUpload({ bytes: pdf, purpose: 'service_document', originalName: 'receipt.pdf' })
		const id = await addServiceRecord(customer.id, vehicleId, parsed.value, document)
		const older = record({ performedOn: day(-300), mileage: '50000', description: 'Inspection' })
		if (older.status !== 'success') throw new Error('the record should pass')
		await addServiceRecord(customer.id, vehicleId, older.value, null)

		const history = await serviceHistory(customer.id, vehicleId)
		expect(history.map((entry) => [entry.title, entry.mileage, entry.paidCents])).toEqual([
			['Oil and filter', 59_000, 4550],
			['Inspection', 50_000, null],
		])
		const upload = history[0]!.documentPdf!
		expect(await findViewableUpload(upload, { id: customer.id, role: 'customer', workshop: null } as never)).not.toBeNull()
		const stranger = await createCustomer()
		expect(await findViewableUpload(upload, { id: stranger.id, role: 'customer', workshop: null } as never)).toBeNull()
		// The vehicle's mileage (60,000) is newer than both: it stays.
		expect(await vehicleMileage(vehicleId)).toBe(60_000)

		await refused(deleteServiceRecord(stranger.id, vehicleId, id), 'common:errors.notFoundTitle')
		await deleteServiceRecord(customer.id, vehicleId, id)
		expect((await serviceHistory(customer.id, vehicleId)).map((entry) => entry.title)).toEqual(['Inspection'])
	})

	test('bad input is a field error and changes nothing: a future day, a mileage out of order, absurd numbers, a file that is not a PDF', async () => {
		const { customer, vehicleId } = await customerWithVehicle()
		expect(errorsOf({ performedOn: day(2) })).toMatchObject({ performedOn: ['customer:passport.futureDate'] })
		expect(errorsOf({ performedOn: '2026-02-30' })).toHaveProperty('performedOn')
		expect(errorsOf({ mileage: '-5' })).toHaveProperty('mileage')
		expect(errorsOf({ mileage: '99999999' })).toHaveProperty('mileage')
		expect(errorsOf({ description: '' })).toHaveProperty('description')
		expect(errorsOf({ price: 'free' })).toHaveProperty('price')

		const first = record({ performedOn: day(-100), mileage: '55000' })
		if (first.status !== 'success') throw new Error('the record should pass')
		await addServiceRecord(customer.id, vehicleId, first.value, null)
		const value = (fields: Record<string, string>) => {
			const parsed = record(fields)
			if (parsed.status !== 'success') throw new Error('the record should pass the schema')
			return parsed.value
		}
		// Later than the first, but a lower mileage; earlier, but a higher one; older than today, above today's mileage.
		await refused(addServiceRecord(customer.id, vehicleId, value({ performedOn: day(-50), mileage: '54000' }), null), 'customer:passport.mileageBelow.km')
		await refused(addServiceRecord(customer.id, vehicleId, value({ performedOn: day(-200), mileage: '56000' }), null), 'customer:passport.mileageAbove.km')
		await refused(addServiceRecord(customer.id, vehicleId, value({ performedOn: day(-10), mileage: '70000' }), null), 'customer:passport.mileageAbove.km')
		expect(await serviceHistory(customer.id, vehicleId)).toHaveLength(1)

		// Today's record may pass the vehicle's mileage, which follows it.
		await addServiceRecord(customer.id, vehicleId, value({ performedOn: day(0), mileage: '60500' }), null)
		expect(await vehicleMileage(vehicleId)).toBe(60_500)

		const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')
		await expect(prepareUpload({ bytes: png, purpose: 'service_document', originalName: 'receipt.pdf' })).rejects.toMatchObject({ reason: 'wrongType' })
		await expect(prepareUpload({ bytes: Buffer.from('<html>not a pdf</html>'), purpose: 'service_document', originalName: 'x.pdf' })).rejects.toBeTruthy()
	})

	test("another customer's vehicle is not found, for every part of the passport", async () => {
		const { vehicleId } = await customerWithVehicle()
		const stranger = await createCustomer()
		const parsed = record({})
		if (parsed.status !== 'success') throw new Error('the record should pass')
		await refused(addServiceRecord(stranger.id, vehicleId, parsed.value, null), 'common:errors.notFoundTitle')
		await refused(getVehicle(stranger.id, vehicleId), 'common:errors.notFoundTitle')
		await refused(setVehicleLink(stranger.id, vehicleId, 'calendar', 'make'), 'common:errors.notFoundTitle')
		// Its queries name the owner too: asked for another owner, the passport is empty.
		const { mileage } = (await db.select({ mileage: vehicles.mileage }).from(vehicles).where(eq(vehicles.id, vehicleId)))[0]!
		expect(await vehiclePassport({ id: vehicleId, ownerId: stranger.id, mileage }, 'en')).toEqual({ history: [], warranties: [] })
		expect(await db.select().from(serviceRecords).where(eq(serviceRecords.vehicleId, vehicleId))).toEqual([])
	})
})

describe('warranty ends', () => {
	test('what is left: km from the mileage at the job, months from the day; expiring within 30 days or 1,000 km', () => {
		const terms = { offerId: 'o', workshopName: 'W', title: 'Brakes', completedOn: '2026-01-31', mileageAtJob: 10_000, workKm: 10_000, partsMonths: 1 }
		expect(addMonths('2026-01-31', 1)).toBe('2026-02-28')
		expect(addMonths('2024-01-31', 1)).toBe('2024-02-29')
		expect(addMonths('2026-11-24', 14)).toBe('2028-01-24')
		const early = warrantyLeft(terms, 10_000, '2026-02-01')
		expect(early.work).toMatchObject({ untilKm: 20_000, leftKm: 10_000, state: 'valid' })
		expect(early.parts).toMatchObject({ until: '2026-02-28', daysLeft: 27, state: 'expiring' })
		expect(warrantyLeft(terms, 19_500, '2026-01-31').work).toMatchObject({ leftKm: 500, state: 'expiring' })
		expect(warrantyLeft(terms, 20_000, '2026-03-01')).toMatchObject({ work: { leftKm: 0, state: 'expired' }, parts: { daysLeft: 0, state: 'expired' } })
		expect(warrantyLeft({ ...terms, mileageAtJob: null }, 12_000, '2026-02-01').work).toBeNull()
	})

	test('a parts warranty ending within 30 days is told once, by the bell and e-mail, with the clock moved', async () => {
		const job = await itemisedJob()
		await completeJob(job.workshop, job.offerId, 11000, { mileage: 60_100 })
		const keys = async () => (await db.select({ key: notifications.messageKey }).from(notifications).where(eq(notifications.userId, job.customerId))).map((row) => row.key)
		const [owner] = await db.select({ email: users.email }).from(users).where(eq(users.id, job.customerId))
		const mails = async () => (await db.select({ subject: emailOutbox.subject }).from(emailOutbox).where(eq(emailOutbox.to, owner!.email))).map((row) => row.subject)

		// Five months on: more than 30 days left, nothing yet.
		await sendWarrantyNotices(new Date(Date.now() + 140 * DAY))
		expect(await keys()).not.toContain('notifications.warrantyEnding')
		// 20 days before the end of six months.
		await sendWarrantyNotices(new Date(Date.now() + 163 * DAY))
		expect((await keys()).filter((key) => key === 'notifications.warrantyEnding')).toHaveLength(1)
		expect((await mails()).some((subject) => subject.includes('ends on'))).toBe(true)
		// Told once.
		await sendWarrantyNotices(new Date(Date.now() + 170 * DAY))
		expect((await keys()).filter((key) => key === 'notifications.warrantyEnding')).toHaveLength(1)
	})
})

describe('the calendar', () => {
	test("the owner's, or the private link's while it is not revoked; its events are the warranty ends", async () => {
		const job = await itemisedJob()
		await completeJob(job.workshop, job.offerId, 11000, { mileage: 60_100 })
		const stranger = await createCustomer()
		const owner = await linkedVehicle(job.vehicleId, 'calendar', { userId: job.customerId, token: null })
		await refused(linkedVehicle(job.vehicleId, 'calendar', { userId: stranger.id, token: null }), 'common:errors.notFoundTitle')
		await refused(linkedVehicle(job.vehicleId, 'calendar', { userId: job.workshop.userId, token: null }), 'common:errors.notFoundTitle')
		await refused(linkedVehicle(job.vehicleId, 'calendar', { userId: null, token: 'guess' }), 'common:errors.notFoundTitle')

		const token = (await setVehicleLink(job.customerId, job.vehicleId, 'calendar', 'make'))!
		expect((await linkedVehicle(job.vehicleId, 'calendar', { userId: null, token })).id).toBe(job.vehicleId)
		const renewed = (await setVehicleLink(job.customerId, job.vehicleId, 'calendar', 'make'))!
		await refused(linkedVehicle(job.vehicleId, 'calendar', { userId: null, token }), 'common:errors.notFoundTitle')
		await setVehicleLink(job.customerId, job.vehicleId, 'calendar', 'revoke')
		await refused(linkedVehicle(job.vehicleId, 'calendar', { userId: null, token: renewed }), 'common:errors.notFoundTitle')

		const ics = await vehicleCalendar(owner)
		expect(ics).toMatch(/^BEGIN:VCALENDAR\r\n/)
		expect(ics).toContain('BEGIN:VEVENT')
		expect(ics).toContain(`DTSTART;VALUE=DATE:${addMonths(day(0), 6).replaceAll('-', '')}`)
		expect(ics).toContain(`Parts warranty ends: ${job.workshop.workshopName}`)
	})
})

describe('the history as a PDF', () => {
	/** The PDF the route answers for that viewer. */
	async function historyPdf(vehicleId: string, viewer: { userId: string | null; token: string | null }) {
		const vehicle = await linkedVehicle(vehicleId, 'history', viewer)
		const { history, warranties } = await vehiclePassport(vehicle, vehicle.language)
		return renderHistoryPdf({
			vehicle: { name: vehicle.name, registrationNumber: vehicle.registrationNumber, vin: vehicle.vin, year: vehicle.vehicleYear, mileage: vehicle.mileage, odometerUnit: vehicle.odometerUnit },
			history,
			warranties,
			language: vehicle.language,
			appName: 'Autohub',
		})
	}

	test("in the owner's language, every letter printed (an embedded font), with the jobs, the records and the warranties", async () => {
		const job = await itemisedJob()
		await completeJob(job.workshop, job.offerId, 11000, { mileage: 60_100 })
		await db.update(users).set({ preferredLanguage: 'ru' }).where(eq(users.id, job.customerId))
		await addServiceRecord(job.customerId, job.vehicleId, { performedOn: day(-40), mileage: 59_000, description: 'Замена масла и фильтра; Õlivahetus, šassii ÄÖÜ', workshopName: 'Сервис Ласнамяэ', price: 5990 }, null)

		const bytes = await historyPdf(job.vehicleId, { userId: job.customerId, token: null })
		expect(Buffer.from(bytes.slice(0, 5)).toString()).toBe('%PDF-')
		const text = await pdfText(bytes)
		expect(text).toContain('История обслуживания')
		expect(text).toContain('Замена масла и фильтра; Õlivahetus, šassii ÄÖÜ')
		expect(text).toContain('Сервис Ласнамяэ')
		expect(text).toContain('Brake pads, front')
		expect(text).toMatch(/60\s100/)
		expect(text).toContain('Гарантия на запчасти до')
		expect(text).not.toContain('?')
	})

	test("the owner's, or a buyer's with the read-only link while it is not revoked; nobody else's", async () => {
		const { customer, vehicleId } = await customerWithVehicle()
		const stranger = await createCustomer()
		await refused(historyPdf(vehicleId, { userId: stranger.id, token: null }), 'common:errors.notFoundTitle')
		await refused(historyPdf(vehicleId, { userId: null, token: null }), 'common:errors.notFoundTitle')
		await refused(setVehicleLink(stranger.id, vehicleId, 'history', 'make'), 'common:errors.notFoundTitle')

		const token = (await setVehicleLink(customer.id, vehicleId, 'history', 'make'))!
		expect((await pdfText(await historyPdf(vehicleId, { userId: null, token }))).length).toBeGreaterThan(0)
		// The calendar's link does not open the history, nor the history's the calendar.
		await refused(linkedVehicle(vehicleId, 'calendar', { userId: null, token }), 'common:errors.notFoundTitle')
		await setVehicleLink(customer.id, vehicleId, 'history', 'revoke')
		await refused(historyPdf(vehicleId, { userId: null, token }), 'common:errors.notFoundTitle')
	})
})

describe('the history shared on a request', () => {
	test('a workshop that sees the request sees what was done, where, when and at what mileage (no prices, no documents) while the owner shares it there', async () => {
		// A job done through us (its lines, an invoice) and its owner's next request, the history shared.
		const job = await itemisedJob()
		const invoice = await prepareUpload({ bytes: pdf, purpose: 'job_invoice', originalName: 'arve.pdf' })
		await completeJob(job.workshop, job.offerId, 11000, { mileage: 61_250, invoice })
		const refs = await referenceData()
		const other = await workshopOffering([refs.brakes])
		const requestId = await createServiceRequest(
			job.customerId,
			{ vehicleId: job.vehicleId, serviceIds: [refs.brakes], preferredAt: inDays(3), location: 'Tallinn', details: 'Brakes again', shareHistory: 'on' },
			[],
		)
		const seen = await getRequestForWorkshop(other.workshopId, requestId, 'en')
		expect(seen.shareHistory).toBe(true)
		const shared = (await sharedHistory(seen, 'en'))!
		expect(shared).toHaveLength(1)
		expect(shared[0]).toMatchObject({ source: 'job', mileage: 61_250, workshopName: job.workshop.workshopName, on: day(0) })
		expect(shared[0]!.lines.map((line) => line.description)).toEqual(['Brake pads, front', 'Fitting'])
		// The owner's alone: what was paid and the documents.
		expect(shared[0]).toMatchObject({ paidCents: null, quotedCents: null, offerPdf: null, invoicePdf: null, documentPdf: null, requestId: null })

		// The owner stops sharing: the same workshop sees no history; a stranger cannot change it.
		const stranger = await createCustomer()
		await refused(shareHistoryOnRequest(stranger.id, requestId, false), 'common:errors.notFoundTitle')
		await shareHistoryOnRequest(job.customerId, requestId, false)
		expect(await sharedHistory(await getRequestForWorkshop(other.workshopId, requestId, 'en'), 'en')).toBeNull()
		expect((await getCustomerRequest(job.customerId, requestId, 'en')).shareHistory).toBe(false)
		await shareHistoryOnRequest(job.customerId, requestId, true)
		expect(await sharedHistory(await getRequestForWorkshop(other.workshopId, requestId, 'en'), 'en')).toHaveLength(1)
	})

	test('not shared unless the owner ticks it; a workshop that cannot see the request gets nothing', async () => {
		const owner = await customerWithVehicle()
		const requestId = await openRequest(owner.customer.id, owner.vehicleId, [owner.refs.brakes])
		const brakes = await workshopOffering([owner.refs.brakes])
		expect(await sharedHistory(await getRequestForWorkshop(brakes.workshopId, requestId, 'en'), 'en')).toBeNull()
		// A workshop whose services do not match does not see the request at all.
		const elsewhere = await workshopOffering([owner.refs.tyres])
		await shareHistoryOnRequest(owner.customer.id, requestId, true)
		await refused(getRequestForWorkshop(elsewhere.workshopId, requestId, 'en'), 'common:errors.notFoundTitle')
	})
})
