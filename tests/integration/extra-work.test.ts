import { parseWithZod } from '@conform-to/zod/v4'
import { and, count, eq } from 'drizzle-orm'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { emailOutbox, extraWork, extraWorkImages, notifications, offers, uploads, users } from '~/db/schema'
import { ExtraWorkSchema, type ExtraWorkInput } from '~/domain/service-flow/extra-work-schema'
import { listExtraWork } from '~/domain/service-flow/extra-work.server'
import { answerExtraWork, askForExtraWork, withdrawExtraWork } from '~/domain/service-flow/extra-work-moves.server'
import { completeJob } from '~/domain/service-flow/job-moves.server'
import { makeOffer, selectOffer } from '~/domain/service-flow/offer-moves.server'
import { getOwnOffer } from '~/domain/service-flow/offers.server'
import { getCustomerRequest, listCustomerRequests } from '~/domain/service-flow/requests.server'
import { findViewableUpload } from '~/uploads/access.server'
import { getOptionalUser } from '~/utils/auth.server'
import { db, transactionStats } from '~/db/db.server'
import { prepareUpload } from '~/uploads/storage.server'
import { createCustomer, signedInRequest } from '#tests/support/accounts'
import { rejection, refused } from '#tests/support/refusals'
import { customerWithVehicle, jobInProgress, openRequest, referenceData, workshopOffering } from '#tests/support/flow'

/** Issue 19, part 3: extra work during a job only with the customer's yes. */


const form = (fields: Record<string, string>) => {
	const data = new FormData()
	for (const [name, value] of Object.entries(fields)) data.set(name, value)
	return data
}
const parsed = (fields: Record<string, string>): ExtraWorkInput => {
	const submission = parseWithZod(form(fields), { schema: ExtraWorkSchema })
	if (submission.status !== 'success') throw new Error(JSON.stringify(submission.error))
	return submission.value
}
const errorsOf = (fields: Record<string, string>) => {
	const submission = parseWithZod(form(fields), { schema: ExtraWorkSchema })
	if (submission.status !== 'error') throw new Error(`accepted: ${JSON.stringify(fields)}`)
	return submission.error ?? {}
}

/** A worn drive belt: 0.5 h at €60 and the belt at €34 (VAT included): €64. */
const belt = {
	reason: 'The drive belt is cracked.',
	'lines[0].kind': 'labour',
	'lines[0].description': 'Replace the drive belt',
	'lines[0].quantity': '0,5',
	'lines[0].unitPrice': '60',
	'lines[1].kind': 'part',
	'lines[1].description': 'Drive belt',
	'lines[1].reference': 'GATES 6PK1070',
	'lines[1].quantity': '1',
	'lines[1].unitPrice': '34',
}

const extraRow = async (id: string) => (await db.select().from(extraWork).where(eq(extraWork.id, id)))[0]!
const bindingExtra = async (offerId: string) => (await db.select({ cents: offers.approvedExtraCents }).from(offers).where(eq(offers.id, offerId)))[0]!.cents
const notesOf = (userId: string) => db.select().from(notifications).where(eq(notifications.userId, userId))
const emailOf = async (userId: string) => (await db.select({ email: users.email }).from(users).where(eq(users.id, userId)))[0]!.email
const outboxTo = async (userId: string) => db.select().from(emailOutbox).where(eq(emailOutbox.to, await emailOf(userId)))

describe('extra work', () => {
	test('asked with lines, its total computed here; the customer is told by bell and e-mail; approving adds it to the binding total', async () => {
		const { customerId, workshop, requestId, offerId } = await jobInProgress()
		const id = await askForExtraWork(workshop, offerId, parsed(belt), [])
		const [item] = await listExtraWork(offerId)
		expect(item).toMatchObject({ id, status: 'waiting', reason: 'The drive belt is cracked.', priceCents: 6400, labourCents: 3000, partsCents: 3400, vatMode: 'included' })
		expect(item!.lines).toEqual([
			{ kind: 'labour', description: 'Replace the drive belt', reference: '', quantity: 50, unitPriceCents: 6000, totalCents: 3000 },
			{ kind: 'part', description: 'Drive belt', reference: 'GATES 6PK1070', quantity: 100, unitPriceCents: 3400, totalCents: 3400 },
		])
		expect((await notesOf(customerId)).map((note) => note.messageKey)).toContain('notifications.extraWorkRequested')
		const mails = await outboxTo(customerId)
		expect(mails.some((mail) => /\/work-progress\/[A-Za-z0-9_-]+\?lng=\w+#extra-work/.test(mail.text))).toBe(true)
		// Nothing is added before the yes; the customer's list says an answer is awaited.
		expect(await bindingExtra(offerId)).toBe(0)
		expect((await listCustomerRequests(customerId, 'en', 'open')).find((item) => item.id === requestId)).toMatchObject({ extraWorkWaiting: 1 })

		await answerExtraWork(customerId, requestId, id, 'approve')
		expect(await extraRow(id)).toMatchObject({ status: 'approved' })
		expect((await extraRow(id)).answeredAt).not.toBeNull()
		expect(await bindingExtra(offerId)).toBe(6400)
		const detail = await getCustomerRequest(customerId, requestId, 'en')
		expect(detail.selectedOffer).toMatchObject({ priceCents: 15000, approvedExtraCents: 6400 })
		expect((await listCustomerRequests(customerId, 'en', 'open')).find((item) => item.id === requestId)).toMatchObject({ extraWorkWaiting: 0 })
		expect((await notesOf(workshop.userId)).map((note) => note.messageKey)).toContain('notifications.extraWorkApproved')
	})

	test('with the offer’s VAT added, the extra work’s lines are its net', async () => {
		const { workshop, offerId } = await jobInProgress({ vat: 'added' })
		await askForExtraWork(workshop, offerId, parsed(belt), [])
		// 64.00 net, 24 % on top: 79.36.
		expect((await listExtraWork(offerId))[0]).toMatchObject({ priceCents: 7936, vatCents: 1536, vatMode: 'added' })
	})

	test('declined, it adds nothing; the job is then completed', async () => {
		const { customerId, workshop, requestId, offerId } = await jobInProgress()
		const id = await askForExtraWork(workshop, offerId, parsed(belt), [])
		await answerExtraWork(customerId, requestId, id, 'decline')
		expect(await extraRow(id)).toMatchObject({ status: 'declined' })
		expect(await bindingExtra(offerId)).toBe(0)
		expect((await notesOf(workshop.userId)).map((note) => note.messageKey)).toContain('notifications.extraWorkDeclined')
		await completeJob(workshop, offerId, 15000)
	})

	test('the job cannot be completed while extra work waits; withdrawn, it can', async () => {
		const { customerId, workshop, requestId, offerId } = await jobInProgress()
		const id = await askForExtraWork(workshop, offerId, parsed(belt), [])
		await refused(completeJob(workshop, offerId, 15000), 'workshop:job.extraWorkWaiting')
		expect((await getOwnOffer(workshop.workshopId, offerId)).status).toBe('selected')
		await withdrawExtraWork(workshop, offerId, id)
		expect(await extraRow(id)).toMatchObject({ status: 'withdrawn' })
		await refused(answerExtraWork(customerId, requestId, id, 'approve'), 'customer:extraWork.alreadyAnswered')
		expect((await notesOf(customerId)).map((note) => note.messageKey)).toContain('notifications.extraWorkWithdrawn')
		await completeJob(workshop, offerId, 15000)
		// After the job, nothing more can be asked.
		await refused(askForExtraWork(workshop, offerId, parsed(belt), []), 'workshop:extraWork.notInProgress')
	})

	test('not before an offer is chosen, not by a workshop that was not chosen, not on another workshop’s offer', async () => {
		const owner = await customerWithVehicle()
		const [chosen, other] = await Promise.all([workshopOffering([owner.refs.brakes]), workshopOffering([owner.refs.brakes])])
		const requestId = await openRequest(owner.customer.id, owner.vehicleId, [owner.refs.brakes])
		const chosenOffer = await makeOffer(chosen, requestId, { price: 10000 }, null)
		const otherOffer = await makeOffer(other, requestId, { price: 12000 }, null)
		await refused(askForExtraWork(chosen, chosenOffer, parsed(belt), []), 'workshop:extraWork.notInProgress')
		await selectOffer(owner.customer.id, requestId, chosenOffer)
		await refused(askForExtraWork(other, otherOffer, parsed(belt), []), 'workshop:extraWork.notInProgress')
		expect(await rejection(askForExtraWork(other, chosenOffer, parsed(belt), []))).toMatchObject({ status: 404 })
		expect((await db.select({ n: count() }).from(extraWork).where(eq(extraWork.offerId, chosenOffer)))[0]!.n).toBe(0)
	})

	test('approving twice, someone else’s, or another request’s is refused and changes nothing', async () => {
		const { owner, customerId, workshop, requestId, offerId } = await jobInProgress()
		const id = await askForExtraWork(workshop, offerId, parsed(belt), [])
		const stranger = await createCustomer()
		expect(await rejection(answerExtraWork(stranger.id, requestId, id, 'approve'))).toMatchObject({ status: 404 })
		// The same customer's other job with the same workshop: the extra work is of neither that request nor that offer.
		const other = await jobInProgress({ owner, workshop })
		expect(await rejection(answerExtraWork(customerId, other.requestId, id, 'approve'))).toMatchObject({ status: 404 })
		expect(await rejection(withdrawExtraWork(workshop, other.offerId, id))).toMatchObject({ status: 404 })
		expect(await extraRow(id)).toMatchObject({ status: 'waiting' })
		await answerExtraWork(customerId, requestId, id, 'approve')
		await refused(answerExtraWork(customerId, requestId, id, 'approve'), 'customer:extraWork.alreadyAnswered')
		await refused(answerExtraWork(customerId, requestId, id, 'decline'), 'customer:extraWork.alreadyAnswered')
		await refused(withdrawExtraWork(workshop, offerId, id), 'workshop:extraWork.alreadyAnswered')
		expect(await bindingExtra(offerId)).toBe(6400)
	})

	test('two answers at once: one wins, the price is added once', async () => {
		const { customerId, workshop, requestId, offerId } = await jobInProgress()
		const id = await askForExtraWork(workshop, offerId, parsed(belt), [])
		const retriedBefore = transactionStats.retried
		const results = await Promise.allSettled([
			answerExtraWork(customerId, requestId, id, 'approve'),
			answerExtraWork(customerId, requestId, id, 'approve'),
			withdrawExtraWork(workshop, offerId, id),
		])
		expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
		const { status } = await extraRow(id)
		expect(await bindingExtra(offerId)).toBe(status === 'approved' ? 6400 : 0)
		// The lock order holds: nobody waited on anybody in a circle (decision 0070).
		expect(transactionStats.retried - retriedBefore).toBe(0)
	})

	test('an answer and the job’s completion at once: never a job completed with extra work waiting', async () => {
		const { customerId, workshop, requestId, offerId } = await jobInProgress()
		const id = await askForExtraWork(workshop, offerId, parsed(belt), [])
		const retriedBefore = transactionStats.retried
		await Promise.allSettled([answerExtraWork(customerId, requestId, id, 'approve'), completeJob(workshop, offerId, 21400)])
		expect(transactionStats.retried - retriedBefore).toBe(0)
		const offer = await getOwnOffer(workshop.workshopId, offerId)
		const extra = await extraRow(id)
		if (offer.status === 'job_completed') expect(extra.status).toBe('approved')
		expect(extra.status).not.toBe('waiting')
	})

	test('a job takes at most ten requests, and its total stays within an offer’s cap', async () => {
		const { workshop, offerId } = await jobInProgress()
		for (let i = 0; i < 10; i++) await askForExtraWork(workshop, offerId, parsed(belt), [])
		await refused(askForExtraWork(workshop, offerId, parsed(belt), []), 'workshop:extraWork.tooManyRequests')
		const big = { reason: 'Engine', 'lines[0].kind': 'part', 'lines[0].description': 'Engine', 'lines[0].quantity': '8', 'lines[0].unitPrice': '99999' }
		const second = await jobInProgress()
		// €150, then €499,995 waiting: €799,992 more is over €1,000,000.
		await askForExtraWork(second.workshop, second.offerId, parsed({ ...big, 'lines[0].quantity': '5' }), [])
		await refused(askForExtraWork(second.workshop, second.offerId, parsed(big), []), 'workshop:offer.totalTooLarge')
		expect(await listExtraWork(second.offerId)).toHaveLength(1)
	})

	test('bad lines are field errors: none, zero or absurd quantities and prices, too many, no reason', () => {
		// 0.01 h at €0.01 comes to nothing: refused, not stored as a price of zero.
		expect(errorsOf({ ...belt, 'lines[0].quantity': '0,01', 'lines[0].unitPrice': '0,01' })).toHaveProperty(['lines[0].unitPrice'])
		expect(errorsOf({ reason: 'x' })).toHaveProperty(['lines'])
		expect(errorsOf({ ...belt, reason: '' })).toHaveProperty(['reason'])
		expect(errorsOf({ ...belt, 'lines[0].quantity': '0' })).toHaveProperty(['lines[0].quantity'])
		expect(errorsOf({ ...belt, 'lines[0].quantity': '-1' })).toHaveProperty(['lines[0].quantity'])
		expect(errorsOf({ ...belt, 'lines[1].unitPrice': '0' })).toHaveProperty(['lines[1].unitPrice'])
		expect(errorsOf({ ...belt, 'lines[1].unitPrice': '99999999' })).toHaveProperty(['lines[1].unitPrice'])
		const many: Record<string, string> = { reason: 'Many' }
		for (let i = 0; i < 31; i++) Object.assign(many, { [`lines[${i}].kind`]: 'fee', [`lines[${i}].description`]: `Fee ${i}`, [`lines[${i}].quantity`]: '1', [`lines[${i}].unitPrice`]: '1' })
		expect(errorsOf(many)).toHaveProperty(['lines'])
	})

	test('its photos are stored with it and seen by the job’s customer and workshop only; a fourth refuses all', async () => {
		const photo = async () =>
			prepareUpload({ bytes: await sharp({ create: { width: 120, height: 90, channels: 3, background: '#555' } }).png().toBuffer(), purpose: 'request_image' })
		const { customerId, workshop, offerId } = await jobInProgress()
		const before = (await db.select({ n: count() }).from(uploads))[0]!.n
		await refused(askForExtraWork(workshop, offerId, parsed(belt), await Promise.all([1, 2, 3, 4].map(photo))), 'workshop:extraWork.tooManyImages')
		expect((await db.select({ n: count() }).from(uploads))[0]!.n).toBe(before)

		const id = await askForExtraWork(workshop, offerId, parsed(belt), [await photo(), await photo()])
		const images = await db.select().from(extraWorkImages).where(eq(extraWorkImages.extraWorkId, id))
		expect(images.map((image) => image.position).sort()).toEqual([0, 1])
		const [item] = await listExtraWork(offerId)
		expect(item!.images.map((image) => image.id)).toEqual(images.sort((a, b) => a.position - b.position).map((image) => image.uploadId))
		const viewer = async (userId: string) => getOptionalUser((await signedInRequest(userId)).request)
		const sees = async (userId: string | null) => (await findViewableUpload(images[0]!.uploadId, userId ? await viewer(userId) : null)) !== null
		const stranger = await createCustomer()
		const otherWorkshop = await workshopOffering([(await referenceData()).brakes])
		expect(await sees(customerId)).toBe(true)
		expect(await sees(workshop.userId)).toBe(true)
		expect(await sees(stranger.id)).toBe(false)
		expect(await sees(otherWorkshop.userId)).toBe(false)
		expect(await sees(null)).toBe(false)
		// The rows are what the test made, nothing else.
		expect((await db.select({ n: count() }).from(extraWork).where(and(eq(extraWork.offerId, offerId))))[0]!.n).toBe(1)
	})
})
