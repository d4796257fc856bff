import { and, eq, inArray, ne } from 'drizzle-orm'
import { unzipSync, strFromU8 } from 'fflate'
import { describe, expect, test } from 'vitest'
import {
	auditLog,
	chatMessages,
	consents,
	bookings,
	dataExports,
	emailOutbox,
	invoices,
	notifications,
	packages,
	serviceRequests,
	sessions,
	subscriptions,
	uploads,
	users,
	vehicles,
	workshopBays,
	workshopCalendars,
	workshops,
} from '~/db/schema'
import { getUserForAdmin } from '~/domain/admin/users.server'
import { authenticate } from '~/domain/accounts/accounts.server'
import { payTestPayment, saveBillingDetails, subscribe } from '~/domain/billing/subscription.server'
import { getWorkshopProfile, getWorkshopReviews } from '~/domain/directory/workshops.server'
import { deleteAccountForUser, deleteOwnAccount } from '~/domain/privacy/account-deletion.server'
import { collectAccountData, exportZipStream, makeWaitingExports, requestBackgroundExport } from '~/domain/privacy/data-export.server'
import { applyRetention } from '~/domain/privacy/retention.server'
import { completeJob } from '~/domain/service-flow/job-moves.server'
import { makeOffer } from '~/domain/service-flow/offer-moves.server'
import { addReview } from '~/domain/service-flow/review-moves.server'
import { listWorkshopReviews, workshopServiceHistory } from '~/domain/service-flow/offers.server'
import { addServiceRecord } from '~/domain/service-flow/passport.server'
import { getReportableReview, listReportedReviews, reportReview } from '~/domain/service-flow/review-moderation.server'
import { loader as exportLoader } from '~/routes/settings.export'
import { loader as readyExportLoader } from '~/routes/settings.export.$id'
import { getOptionalUser } from '~/utils/auth.server'
import { db } from '~/db/db.server'
import { decodeId, encodeId } from '~/utils/public-id'
import { openStoredFile } from '~/uploads/file-store.server'
import { cleanUpStoredFiles, prepareUpload } from '~/uploads/storage.server'
import { createAdmin, createCustomer, PASSWORD, signedInRequest } from '#tests/support/accounts'
import { customerWithVehicle, jobInProgress, openRequest, workshopOffering } from '#tests/support/flow'
import { refused, rejection } from '#tests/support/refusals'
import { ROUTER_ARGS } from '#tests/support/router-args'

/**
 * Issue 21, parts 1 and 2 (decision 0111): a person downloads everything the portal keeps about
 * them, and deletes their account. The export holds only the person's own data; the deletion
 * removes what is theirs, keeps what others and the law rely on (reviews as "Former customer",
 * invoices), refuses while a job is under way and on a wrong password, and lets nobody sign in.
 */

const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')

async function streamBytes(stream: NodeJS.ReadableStream) {
	const chunks: Buffer[] = []
	for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array))
	return Buffer.concat(chunks)
}

/** A customer whose job was completed and reviewed, with a record of work done elsewhere and a chat. */
async function reviewedCustomer() {
	const job = await jobInProgress()
	await completeJob(job.workshop, job.offerId, 15000, { mileage: 61000 })
	const reviewId = await addReview(job.customerId, job.requestId, { rating: 4.5, title: 'Hea töö', body: 'Kiire ja korralik, Ивану спасибо.' })
	const document = await prepareUpload({ bytes: pdf, purpose: 'service_document', originalName: 'kviitung.pdf' })
	await addServiceRecord(job.customerId, job.owner.vehicleId, { performedOn: '2026-01-10', mileage: 50000, description: 'Õlivahetus' }, document)
	await db.insert(chatMessages).values([
		{ senderId: job.customerId, receiverId: job.workshop.userId, message: 'Kas auto on valmis?' },
		{ senderId: job.workshop.userId, receiverId: job.customerId, message: 'Jah, tulge järele.' },
	])
	return { ...job, reviewId }
}

describe('the data export', () => {
	test('holds the person’s account, vehicles, requests, offers, reviews, chats, notifications, consents and log-ins, with their files', async () => {
		const job = await reviewedCustomer()
		const { request } = await signedInRequest(job.customerId, 'http://localhost/settings/export')
		const response = await exportLoader({ request, params: {}, ...ROUTER_ARGS, context: {} })
		expect(response.status).toBe(200)
		expect(response.headers.get('Content-Type')).toBe('application/zip')
		expect(response.headers.get('Content-Disposition')).toMatch(/^attachment; filename="autohub-data-\d{4}-\d{2}-\d{2}\.zip"$/)
		const zip = unzipSync(new Uint8Array(await response.arrayBuffer()))
		const data = JSON.parse(strFromU8(zip['data.json']!))
		const [customer] = await db.select().from(users).where(eq(users.id, job.customerId))
		expect(data.account).toMatchObject({ email: customer!.email, firstName: customer!.firstName, role: 'customer' })
		expect(data.vehicles).toHaveLength(1)
		expect(data.vehicles[0].serviceRecords[0]).toMatchObject({ description: 'Õlivahetus', mileage: 50000 })
		expect(data.serviceRequests[0].offers[0]).toMatchObject({ priceCents: 15000, finalPriceCents: 15000, mileageAtJob: 61000 })
		expect(data.reviews[0]).toMatchObject({ body: 'Kiire ja korralik, Ивану спасибо.', writtenByYou: true })
		// Sent in one statement: the same time, in either order.
		expect(data.chatMessages.map((m: { message: string; sentByYou: boolean }) => [m.message, m.sentByYou]).sort()).toEqual([
			['Jah, tulge järele.', false],
			['Kas auto on valmis?', true],
		])
		expect(data.chatMessages[0].counterpart).toBe(job.workshop.workshopName)
		expect(data.notifications.length).toBeGreaterThan(0)
		expect(typeof data.notifications[0].text).toBe('string')
		expect(data.consents.map((c: { kind: string }) => c.kind).sort()).toEqual(['privacy', 'terms'])
		expect(data.logIns.length).toBeGreaterThan(0)
		expect(JSON.stringify(data)).not.toMatch(/token_hash|tokenHash|passwordHash|password_hash/)
		// The receipt uploaded with the record is in the ZIP, byte for byte, where data.json says.
		const document = data.vehicles[0].serviceRecords[0].document as string
		expect(document).toMatch(/^files\/service_document\/[0-9a-f]{8}-kviitung\.pdf$/)
		expect(Buffer.from(zip[document]!).equals(pdf)).toBe(true)
	})

	test('holds a booked time (issue 33) for the customer and the workshop, and the workshop’s calendar without its feed’s secret', async () => {
		const job = await jobInProgress()
		const [bay] = await db.insert(workshopBays).values({ workshopId: job.workshop.workshopId, position: 1, name: 'Lift 1' }).returning()
		await db.insert(workshopCalendars).values({ workshopId: job.workshop.workshopId, feedToken: 'feed-secret-of-the-workshop' })
		const startsAt = new Date(Date.now() + 3 * 24 * 3600_000)
		const endsAt = new Date(startsAt.getTime() + 3600_000)
		await db.insert(bookings).values({ workshopId: job.workshop.workshopId, bayId: bay!.id, offerId: job.offerId, requestId: job.requestId, customerId: job.customerId, startsAt, endsAt, blocksUntil: endsAt })
		type Exported = { serviceRequests: Array<{ offers: Array<{ booking: unknown }> }>; offersMade: Array<{ booking: unknown }>; workshop: { calendar: unknown } }
		const customerData = (await collectAccountData(job.customerId)).data as unknown as Exported
		expect(customerData.serviceRequests[0]!.offers[0]!.booking).toMatchObject({ status: 'booked', startsAt, changes: [] })
		const workshopData = (await collectAccountData(job.workshop.userId)).data as unknown as Exported
		expect(workshopData.offersMade[0]!.booking).toMatchObject({ status: 'booked', startsAt })
		expect(workshopData.workshop.calendar).toMatchObject({ settings: { feedLinkMade: true }, bays: [{ name: 'Lift 1' }] })
		expect(JSON.stringify(workshopData)).not.toContain('feed-secret-of-the-workshop')
	})

	test('holds nothing of anyone else: a workshop’s export has its own offers and reviews, not another customer’s vehicles or chats', async () => {
		const job = await reviewedCustomer()
		const other = await customerWithVehicle()
		const zip = unzipSync(new Uint8Array(await streamBytes(exportZipStream(await collectAccountData(job.workshop.userId)))))
		const data = JSON.parse(strFromU8(zip['data.json']!))
		expect(data.account.role).toBe('workshop')
		expect(data.workshop.workshopName).toBe(job.workshop.workshopName)
		expect(data.offersMade).toHaveLength(1)
		expect(data.reviews[0]).toMatchObject({ writtenByYou: false })
		expect(data.vehicles).toEqual([])
		const text = strFromU8(zip['data.json']!)
		const [stranger] = await db.select().from(users).where(eq(users.id, other.customer.id))
		expect(text).not.toContain(stranger!.email)
		// The customer's receipt is theirs, not the workshop's.
		expect(Object.keys(zip).filter((name) => name.includes('kviitung'))).toEqual([])
	})

	test('a large one is made in the background, e-mailed as a link for its owner only, and kept a week', async () => {
		const customer = await createCustomer()
		const { id } = await requestBackgroundExport(customer.id)
		// A second click before it is ready does not queue a second.
		expect((await requestBackgroundExport(customer.id)).id).toBe(id)
		const { request } = await signedInRequest(customer.id, `http://localhost/settings/export/${encodeId(id)}`)
		const waiting = await readyExportLoader({ request, params: { id: encodeId(id) }, ...ROUTER_ARGS, context: {} })
		expect(waiting.status).toBe(302)

		expect((await makeWaitingExports()).made).toBeGreaterThanOrEqual(1)
		const [row] = await db.select().from(dataExports).where(eq(dataExports.id, id))
		expect(row!.readyAt).not.toBeNull()
		const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `data-export:${id}`))
		expect(mail!.to).toBe(customer.email)
		expect(mail!.text).toContain(`/settings/export/${encodeId(id)}`)

		const again = await signedInRequest(customer.id, `http://localhost/settings/export/${encodeId(id)}`)
		const ready = await readyExportLoader({ request: again.request, params: { id: encodeId(id) }, ...ROUTER_ARGS, context: {} })
		expect(ready.headers.get('Content-Type')).toBe('application/zip')
		const data = JSON.parse(strFromU8(unzipSync(new Uint8Array(await ready.arrayBuffer()))['data.json']!))
		expect(data.account.email).toBe(customer.email)

		// Another user's export is "not found", as is an unknown one.
		const stranger = await createCustomer()
		const theirs = await signedInRequest(stranger.id, `http://localhost/settings/export/${encodeId(id)}`)
		await expect(readyExportLoader({ request: theirs.request, params: { id: encodeId(id) }, ...ROUTER_ARGS, context: {} })).rejects.toMatchObject({ status: 404 })

		// The clean-up job keeps the file while its row names it; a week on both go.
		const days = (n: number) => new Date(Date.now() + n * 24 * 60 * 60 * 1000)
		await cleanUpStoredFiles({ now: days(2) })
		expect(await openStoredFile(row!.storageKey!)).not.toBeNull()
		await applyRetention(days(8))
		expect(await db.select().from(dataExports).where(eq(dataExports.id, id))).toEqual([])
		await cleanUpStoredFiles({ now: days(8) })
		expect(await openStoredFile(row!.storageKey!)).toBeNull()
	})
})

describe('deleting an account', () => {
	test('a wrong password changes nothing', async () => {
		const customer = await createCustomer()
		const { request } = await signedInRequest(customer.id)
		await expect(deleteOwnAccount({ userId: customer.id, password: 'wrong-pass1' })).rejects.toMatchObject({ field: 'password', key: 'account:deletion.wrongPassword' })
		const [row] = await db.select().from(users).where(eq(users.id, customer.id))
		expect(row).toMatchObject({ email: customer.email, deletedAt: null })
		expect(await getOptionalUser(request)).not.toBeNull()
		// Guessing is slowed down: after ten wrong ones even the right password waits (429), nothing deleted.
		for (let i = 0; i < 9; i++) await rejection(deleteOwnAccount({ userId: customer.id, password: `wrong-pass${i}` }))
		await expect(deleteOwnAccount({ userId: customer.id, password: PASSWORD })).rejects.toMatchObject({ key: 'common:validation.tooManyAttempts', status: 429 })
		expect((await db.select().from(users).where(eq(users.id, customer.id)))[0]!.deletedAt).toBeNull()
	})

	test('is refused while the customer’s job is under way, and for a workshop with a job under way', async () => {
		const job = await jobInProgress()
		await refused(deleteOwnAccount({ userId: job.customerId, password: PASSWORD }), 'account:deletion.jobUnderWay')
		await refused(deleteOwnAccount({ userId: job.workshop.userId, password: PASSWORD }), 'account:deletion.openJobs')
		const rows = await db.select().from(users).where(inArray(users.id, [job.customerId, job.workshop.userId]))
		expect(rows.map((row) => row.deletedAt)).toEqual([null, null])
		expect((await db.select().from(serviceRequests).where(eq(serviceRequests.id, job.requestId)))[0]!.status).toBe('in_progress')
	})

	test('removes the customer’s personal data, keeps the review as "Former customer", ends every session and the login', async () => {
		const job = await reviewedCustomer()
		const [before] = await db.select().from(users).where(eq(users.id, job.customerId))
		const open = await openRequest(job.customerId, job.owner.vehicleId, [job.owner.refs.brakes])
		const { request } = await signedInRequest(job.customerId)
		const plate = (await db.select().from(vehicles).where(eq(vehicles.id, job.owner.vehicleId)))[0]!.registrationNumber
		expect(JSON.stringify((await db.select().from(notifications).where(eq(notifications.userId, job.workshop.userId))).map((notice) => notice.messageParams))).toContain(plate)

		await deleteOwnAccount({ userId: job.customerId, password: PASSWORD })

		const [after] = await db.select().from(users).where(eq(users.id, job.customerId))
		expect(after).toMatchObject({ firstName: '', lastName: '', mobile: '', blocked: true })
		expect(after!.email).not.toContain(before!.email.split('@')[0])
		expect(after!.deletedAt).not.toBeNull()
		expect(await getOptionalUser(request)).toBeNull()
		expect(await db.select().from(sessions).where(eq(sessions.userId, job.customerId))).toEqual([])
		expect(await authenticate({ email: before!.email, password: PASSWORD, ip: '10.9.0.1' })).toMatchObject({ ok: false, error: { key: 'auth:login.invalid' } })

		const [vehicle] = await db.select().from(vehicles).where(eq(vehicles.id, job.owner.vehicleId))
		expect(vehicle).toMatchObject({ registrationNumber: '—', vin: null })
		// The plate named in the workshop's notices about the car goes with it (decision 0131).
		const workshopNotices = await db.select().from(notifications).where(eq(notifications.userId, job.workshop.userId))
		expect(workshopNotices.length).toBeGreaterThan(0)
		expect(JSON.stringify(workshopNotices.map((notice) => notice.messageParams))).not.toContain(plate)
		expect(await db.select().from(chatMessages).where(eq(chatMessages.senderId, job.customerId))).toEqual([])
		expect(await db.select().from(notifications).where(eq(notifications.userId, job.customerId))).toEqual([])
		expect(await db.select().from(consents).where(eq(consents.userId, job.customerId))).toEqual([])
		expect(await db.select().from(uploads).where(and(eq(uploads.ownerId, job.customerId), eq(uploads.purpose, 'service_document')))).toEqual([])
		// The open request was cancelled, its workshops told; the completed job stays for the workshop.
		expect((await db.select().from(serviceRequests).where(eq(serviceRequests.id, open)))[0]!.status).toBe('cancelled')
		expect((await db.select().from(serviceRequests).where(eq(serviceRequests.id, job.requestId)))[0]!.status).toBe('completed')

		const [review] = (await getWorkshopReviews(job.workshop.workshopId, 1, 1, 'en')).items
		expect(review).toMatchObject({ reviewer: 'Former customer', body: 'Kiire ja korralik, Ивану спасибо.' })
		expect((await getWorkshopReviews(job.workshop.workshopId, 1, 1, 'et')).items[0]!.reviewer).toBe('Endine klient')
		// The report page names it the same way.
		const stranger = await createCustomer()
		expect((await getReportableReview(job.reviewId, stranger.id, 'ru')).reviewer).toBe('Бывший клиент')
		// So do the workshop's own pages (its history, its reviews) and the administrators' review queue.
		expect((await workshopServiceHistory(job.workshop.workshopId, 'en')).jobs.map((done) => done.customer)).toEqual(['Former customer'])
		expect((await listWorkshopReviews(job.workshop.workshopId, 'et')).reviews.map((shown) => shown.customer)).toEqual(['Endine klient'])
		await reportReview(job.workshop.userId, job.reviewId, { reason: 'offensive', text: 'Ebaviisakas.' })
		expect((await listReportedReviews('en')).open.find((reported) => reported.id === job.reviewId)?.author).toBe('Former customer')

		const confirmations = await db.select().from(emailOutbox).where(eq(emailOutbox.to, before!.email))
		expect(confirmations.map((mail) => mail.subject)).toEqual(['Your account was deleted'])
		const [audit] = await db.select().from(auditLog).where(eq(auditLog.entityId, job.customerId))
		expect(audit).toMatchObject({ action: 'user.deleteSelf', actorId: job.customerId })
		// The address is free for a new account.
		expect((await createCustomer({ email: before!.email })).email).toBe(before!.email)
	})

	test('a workshop’s account: its pending offers withdrawn, the people behind it removed, and it leaves the directory', async () => {
		const owner = await customerWithVehicle()
		const workshop = await workshopOffering([owner.refs.brakes])
		const requestId = await openRequest(owner.customer.id, owner.vehicleId, [owner.refs.brakes])
		await makeOffer(workshop, requestId, { price: 9900 }, null)
		// A paid package, paid through the test provider: an invoice is issued.
		await saveBillingDetails(workshop.workshopId, { billingEmail: `arved-${workshop.workshopId.slice(0, 8)}@example.com`, vatNumber: null, wantsEInvoice: false })
		const [pro] = await db.select().from(packages).where(eq(packages.code, 'pro'))
		const checkout = await subscribe(workshop.workshopId, pro!.id)
		if (checkout.kind !== 'checkout') throw new Error(`expected a checkout, got ${checkout.kind}`)
		expect((await payTestPayment(workshop.workshopId, decodeId(checkout.url.split('/').pop())!)).outcome).toBe('activated')

		await deleteOwnAccount({ userId: workshop.userId, password: PASSWORD })

		// Never charged again: the paid package ends with its period; its invoice stays (the Accounting Act).
		const [active] = await db.select().from(subscriptions).where(and(eq(subscriptions.workshopId, workshop.workshopId), eq(subscriptions.status, 'active')))
		expect(active!.cancelAtPeriodEnd).toBe(true)
		expect(await db.select().from(invoices).where(eq(invoices.workshopId, workshop.workshopId))).toHaveLength(1)

		const [row] = await db.select().from(workshops).where(eq(workshops.id, workshop.workshopId))
		expect(row).toMatchObject({ contactFirstName: '', contactLastName: '', phone: '', email: '', workshopName: workshop.workshopName })
		// The request has no offer left: it waits for others again.
		expect((await db.select().from(serviceRequests).where(eq(serviceRequests.id, requestId)))[0]!.status).toBe('pending')
		expect(await getWorkshopProfile(workshop.workshopId, 'en')).toBeNull()
	})

	test('an administrator deletes an account on its owner’s request, confirmed with their own password and audited', async () => {
		const admin = await createAdmin()
		const customer = await createCustomer()
		await expect(deleteAccountForUser({ adminId: admin.id, userId: customer.id, password: 'not-mine-1' })).rejects.toMatchObject({ field: 'password', key: 'account:deletion.wrongPassword' })
		expect((await db.select().from(users).where(eq(users.id, customer.id)))[0]!.deletedAt).toBeNull()
		await deleteAccountForUser({ adminId: admin.id, userId: customer.id, password: PASSWORD })
		const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.entityId, customer.id), eq(auditLog.action, 'user.delete')))
		expect(audit!.actorId).toBe(admin.id)
		// The administrators' list says so; the name is gone.
		expect(await getUserForAdmin(customer.id)).toMatchObject({ deleted: true, name: ' ' })
		// A second time: the account is gone.
		await refused(deleteAccountForUser({ adminId: admin.id, userId: customer.id, password: PASSWORD }), 'common:errors.notFoundTitle')
	})

	test('the last administrator who can sign in cannot delete their own account; with another one, they can', async () => {
		const admin = await createAdmin()
		// Every other administrator of this file's database blocked: they cannot sign in.
		await db.update(users).set({ blocked: true }).where(and(eq(users.role, 'admin'), ne(users.id, admin.id)))
		await refused(deleteOwnAccount({ userId: admin.id, password: PASSWORD }), 'account:deletion.lastAdministrator')
		expect((await db.select().from(users).where(eq(users.id, admin.id)))[0]).toMatchObject({ deletedAt: null, email: admin.email })
		await createAdmin()
		await deleteOwnAccount({ userId: admin.id, password: PASSWORD })
		expect((await db.select().from(users).where(eq(users.id, admin.id)))[0]!.deletedAt).not.toBeNull()
	})
})
