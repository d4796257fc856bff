import { and, count, eq } from 'drizzle-orm'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { notifications, offers, requestEvents, reviews, serviceRequestImages, serviceRequests, subscriptions, uploads, workshops } from '~/db/schema'
import { DomainError } from '~/utils/errors'
import { completeJob } from '~/domain/service-flow/job-moves.server'
import { deleteOffer, makeOffer, selectOffer, updateOffer } from '~/domain/service-flow/offer-moves.server'
import { cancelRequest, createServiceRequest } from '~/domain/service-flow/request-moves.server'
import { addReview, replyToReview } from '~/domain/service-flow/review-moves.server'
import { deleteVehicle } from '~/domain/service-flow/vehicles.server'
import { db } from '~/db/db.server'
import { prepareUpload, UploadRejected } from '~/uploads/storage.server'
import { customerWithVehicle, inDays, openRequest, workshopOffering } from '#tests/support/flow'

const offer = (euros: number) => ({ price: euros * 100, notes: '', description: 'Work as described' })

async function refused(promise: Promise<unknown>, key: string) {
	const error = await promise.then(
		() => null,
		(e: unknown) => e,
	)
	expect(error, `expected ${key}`).toBeInstanceOf(DomainError)
	expect((error as DomainError).key).toBe(key)
}

const statusOf = async (requestId: string) => (await db.select().from(serviceRequests).where(eq(serviceRequests.id, requestId)))[0]!.status
const offerStatus = async (offerId: string) => (await db.select().from(offers).where(eq(offers.id, offerId)))[0]!.status
const notificationsOf = (userId: string) => db.select().from(notifications).where(eq(notifications.userId, userId))

describe('the service flow from request to review', () => {
	test('walks every allowed transition, with its timeline and notifications', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const kask = await workshopOffering([refs.tyres])
		const other = await workshopOffering([refs.tyres, refs.brakes])
		const unrelated = await workshopOffering([refs.bodywork])

		const requestId = await openRequest(customer.id, vehicleId, [refs.tyres])
		expect(await statusOf(requestId)).toBe('pending')
		// Workshops offering the service are told (type 1), others are not.
		expect((await notificationsOf(kask.userId)).map((n) => [n.type, n.receivedId])).toEqual([[1, requestId]])
		expect(await notificationsOf(unrelated.userId)).toEqual([])

		const first = await makeOffer(kask, requestId, offer(185), null)
		expect(await statusOf(requestId)).toBe('offer')
		const second = await makeOffer(other, requestId, offer(210), null)
		const toCustomer = await notificationsOf(customer.id)
		expect(toCustomer.filter((n) => n.type === 2 && n.receivedId === requestId)).toHaveLength(2)

		await selectOffer(customer.id, requestId, first)
		expect(await statusOf(requestId)).toBe('in_progress')
		expect(await offerStatus(first)).toBe('selected')
		expect(await offerStatus(second)).toBe('rejected')
		expect((await notificationsOf(kask.userId)).find((n) => n.type === 3)?.messageKey).toBe('notifications.offerSelected')
		expect((await notificationsOf(other.userId)).find((n) => n.type === 3)?.messageKey).toBe('notifications.offerRejected')

		await completeJob(kask, first, 17_900)
		expect(await statusOf(requestId)).toBe('completed')
		expect(await offerStatus(first)).toBe('job_completed')
		expect((await db.select().from(offers).where(eq(offers.id, first)))[0]!.finalPriceCents).toBe(17_900)
		expect((await notificationsOf(customer.id)).find((n) => n.type === 4)?.receivedId).toBe(requestId)

		// Half stars are stored as given and count in the average as they are.
		const reviewId = await addReview(customer.id, requestId, { rating: 4.5, title: 'Good', body: 'Fast and tidy' })
		const [workshop] = await db.select().from(workshops).where(eq(workshops.id, kask.workshopId))
		expect([workshop!.ratingAverage, workshop!.reviewCount]).toEqual([4.5, 1])
		expect((await db.select().from(reviews).where(eq(reviews.id, reviewId)))[0]!.rating).toBe(4.5)
		// The database refuses anything but half stars from 0.5 to 5, whoever writes.
		for (const rating of [0, 1.25, 5.5]) {
			await expect(db.update(reviews).set({ rating }).where(eq(reviews.id, reviewId))).rejects.toThrow()
		}
		expect((await notificationsOf(kask.userId)).find((n) => n.type === 5)?.receivedId).toBe(reviewId)

		await replyToReview(kask, reviewId, 'Thank you!')
		expect((await db.select().from(reviews).where(eq(reviews.id, reviewId)))[0]!.reply).toBe('Thank you!')
		expect((await notificationsOf(customer.id)).find((n) => n.type === 1)?.receivedId).toBe(reviewId)

		const timeline = await db.select({ status: requestEvents.status }).from(requestEvents).where(eq(requestEvents.requestId, requestId))
		expect(timeline.map((e) => e.status)).toEqual(['pending', 'offer', 'in_progress', 'completed'])
	})

	test('refuses every move the status model does not allow', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const kask = await workshopOffering([refs.tyres])
		const other = await workshopOffering([refs.tyres])
		const requestId = await openRequest(customer.id, vehicleId, [refs.tyres])

		// No offer yet: nothing to select, nothing to review, no job to complete.
		await refused(addReview(customer.id, requestId, { rating: 5, body: 'x' }), 'customer:review.notCompleted')
		const offerId = await makeOffer(kask, requestId, offer(100), null)
		await refused(makeOffer(kask, requestId, offer(90), null), 'workshop:offer.alreadyMade')
		await refused(completeJob(kask, offerId, 100_00), 'workshop:job.cannotComplete')

		// Another workshop cannot edit, delete or complete an offer that is not its own.
		await refused(updateOffer(other, offerId, offer(1), null), 'common:errors.notFoundTitle')
		await refused(deleteOffer(other, offerId), 'common:errors.notFoundTitle')
		await refused(completeJob(other, offerId, 1), 'common:errors.notFoundTitle')

		await selectOffer(customer.id, requestId, offerId)
		// Once in progress: no cancelling, no second selection, no new, changed or withdrawn offers.
		await refused(cancelRequest(customer.id, requestId), 'customer:request.cannotCancel')
		await refused(selectOffer(customer.id, requestId, offerId), 'customer:offers.alreadySelected')
		await refused(makeOffer(other, requestId, offer(50), null), 'workshop:offer.requestClosed')
		await refused(updateOffer(kask, offerId, offer(1), null), 'workshop:offer.notEditable')
		await refused(deleteOffer(kask, offerId), 'workshop:offer.notDeletable')
		await refused(addReview(customer.id, requestId, { rating: 5, body: 'x' }), 'customer:review.notCompleted')

		await completeJob(kask, offerId, 95_00)
		// Completed: an offer is refused, the job cannot be completed twice, one review only.
		await refused(makeOffer(other, requestId, offer(50), null), 'workshop:offer.requestClosed')
		await refused(completeJob(kask, offerId, 1), 'workshop:job.cannotComplete')
		const reviewId = await addReview(customer.id, requestId, { rating: 5, body: 'Great' })
		await refused(addReview(customer.id, requestId, { rating: 1, body: 'Again' }), 'customer:review.alreadyGiven')
		await refused(replyToReview(other, reviewId, 'Not mine'), 'common:errors.notFoundTitle')
		await replyToReview(kask, reviewId, 'Thanks')
		await refused(replyToReview(kask, reviewId, 'Twice'), 'workshop:review.alreadyReplied')
	})

	test('a cancelled request ends its offers and takes no new ones', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const kask = await workshopOffering([refs.tyres])
		const late = await workshopOffering([refs.tyres])
		const requestId = await openRequest(customer.id, vehicleId, [refs.tyres])
		const offerId = await makeOffer(kask, requestId, offer(80), null)
		await cancelRequest(customer.id, requestId)
		expect(await statusOf(requestId)).toBe('cancelled')
		expect(await offerStatus(offerId)).toBe('request_cancelled')
		expect((await notificationsOf(kask.userId)).find((n) => n.type === 3)?.messageKey).toBe('notifications.requestCancelled')
		await refused(makeOffer(late, requestId, offer(70), null), 'workshop:offer.requestClosed')
		await refused(selectOffer(customer.id, requestId, offerId), 'customer:offers.cannotSelect')
		await refused(cancelRequest(customer.id, requestId), 'customer:request.cannotCancel')
	})

	test('withdrawing the only offer makes the request pending again', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const kask = await workshopOffering([refs.tyres])
		const requestId = await openRequest(customer.id, vehicleId, [refs.tyres])
		const offerId = await makeOffer(kask, requestId, offer(80), null)
		await updateOffer(kask, offerId, offer(75), null)
		expect((await db.select().from(offers).where(eq(offers.id, offerId)))[0]!.priceCents).toBe(7500)
		await deleteOffer(kask, offerId)
		expect(await statusOf(requestId)).toBe('pending')
	})

	test('another customer cannot see, select, cancel or review a request', async () => {
		const owner = await customerWithVehicle()
		const stranger = await customerWithVehicle()
		const kask = await workshopOffering([owner.refs.tyres])
		const requestId = await openRequest(owner.customer.id, owner.vehicleId, [owner.refs.tyres])
		const offerId = await makeOffer(kask, requestId, offer(80), null)
		await refused(selectOffer(stranger.customer.id, requestId, offerId), 'common:errors.notFoundTitle')
		await refused(cancelRequest(stranger.customer.id, requestId), 'common:errors.notFoundTitle')
		// A request cannot be made for someone else's vehicle.
		await refused(openRequest(stranger.customer.id, owner.vehicleId, [owner.refs.tyres]), 'customer:request.unknownVehicle')
	})

	test('a workshop only bids on requests for the services it offers', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const bodyshop = await workshopOffering([refs.bodywork])
		const requestId = await openRequest(customer.id, vehicleId, [refs.tyres])
		await refused(makeOffer(bodyshop, requestId, offer(80), null), 'common:errors.notFoundTitle')
	})

	test('50 simultaneous selections on one request end with exactly one selected offer', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const requestId = await openRequest(customer.id, vehicleId, [refs.tyres])
		const offerIds: string[] = []
		for (let n = 0; n < 5; n++) {
			const workshop = await workshopOffering([refs.tyres])
			offerIds.push(await makeOffer(workshop, requestId, offer(100 + n), null))
		}
		const attempts = await Promise.allSettled(
			Array.from({ length: 50 }, (_, i) => selectOffer(customer.id, requestId, offerIds[i % offerIds.length]!)),
		)
		expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1)
		for (const attempt of attempts.filter((a) => a.status === 'rejected')) {
			expect((attempt as PromiseRejectedResult).reason).toBeInstanceOf(DomainError)
		}
		const selected = await db.select().from(offers).where(and(eq(offers.requestId, requestId), eq(offers.status, 'selected')))
		expect(selected).toHaveLength(1)
		const rejected = await db.select().from(offers).where(and(eq(offers.requestId, requestId), eq(offers.status, 'rejected')))
		expect(rejected).toHaveLength(4)
		const [request] = await db.select().from(serviceRequests).where(eq(serviceRequests.id, requestId))
		expect(request!.selectedOfferId).toBe(selected[0]!.id)
	})

	test('the free package allows 5 offers a calendar month; the sixth is refused clearly', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const kask = await workshopOffering([refs.tyres])
		expect((await db.select().from(subscriptions).where(eq(subscriptions.workshopId, kask.workshopId)))[0]!.status).toBe('active')
		for (let n = 0; n < 5; n++) {
			const requestId = await openRequest(customer.id, vehicleId, [refs.tyres])
			await makeOffer(kask, requestId, offer(50 + n), null)
		}
		const sixth = await openRequest(customer.id, vehicleId, [refs.tyres])
		const error = await makeOffer(kask, sixth, offer(99), null).catch((e: unknown) => e)
		expect(error).toBeInstanceOf(DomainError)
		expect(error).toMatchObject({ key: 'workshop:offer.limitReached', status: 403, params: { limit: 5 } })
		expect((await db.select({ n: count() }).from(offers).where(eq(offers.requestId, sixth)))[0]!.n).toBe(0)
	})
})

describe('request images', () => {
	const image = (format: 'png' | 'jpeg' | 'webp') =>
		sharp({ create: { width: 640, height: 480, channels: 3, background: '#c0392b' } })[format]().toBuffer()

	test('up to three png, jpeg or webp images are stored with the request', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const files = await Promise.all(
			(['png', 'jpeg', 'webp'] as const).map(async (format) => prepareUpload({ bytes: await image(format), purpose: 'request_image', originalName: `car.${format}` })),
		)
		const requestId = await createServiceRequest(customer.id, { vehicleId, serviceIds: [refs.tyres], preferredAt: inDays(2), location: 'Tartu', details: 'Photos' }, files)
		const stored = await db.select().from(serviceRequestImages).where(eq(serviceRequestImages.requestId, requestId))
		expect(stored.map((s) => s.position)).toEqual([0, 1, 2])
	})

	test('a renamed .exe is refused before anything is stored', async () => {
		const exe = Buffer.concat([Buffer.from('MZ\x90\x00'), Buffer.alloc(4096, 0x41)])
		await expect(prepareUpload({ bytes: exe, purpose: 'request_image', originalName: 'car.jpg' })).rejects.toBeInstanceOf(UploadRejected)
		const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'binary')
		await expect(prepareUpload({ bytes: gif, purpose: 'request_image' })).rejects.toMatchObject({ reason: 'wrongType' })
	})

	test('a fourth image refuses the whole request and stores nothing', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const before = (await db.select({ n: count() }).from(uploads))[0]!.n
		const requestsBefore = (await db.select({ n: count() }).from(serviceRequests))[0]!.n
		const files = await Promise.all([1, 2, 3, 4].map(async () => prepareUpload({ bytes: await image('png'), purpose: 'request_image' })))
		await refused(
			createServiceRequest(customer.id, { vehicleId, serviceIds: [refs.tyres], preferredAt: inDays(2), location: 'Tartu', details: 'Too many' }, files),
			'customer:request.tooManyImages',
		)
		expect((await db.select({ n: count() }).from(uploads))[0]!.n).toBe(before)
		expect((await db.select({ n: count() }).from(serviceRequests))[0]!.n).toBe(requestsBefore)
	})
})

describe('vehicles', () => {
	test('a vehicle with an open request cannot be deleted; afterwards it can, and its history stays', async () => {
		const { customer, vehicleId, refs } = await customerWithVehicle()
		const requestId = await openRequest(customer.id, vehicleId, [refs.tyres])
		await refused(deleteVehicle(customer.id, vehicleId), 'customer:vehicle.hasOpenRequest')
		await cancelRequest(customer.id, requestId)
		await deleteVehicle(customer.id, vehicleId)
		expect(await statusOf(requestId)).toBe('cancelled')
	})

	test('the registration number is unique, whatever spacing or case', async () => {
		const { customer, refs } = await customerWithVehicle()
		const { createVehicle } = await import('~/domain/service-flow/vehicles.server')
		const { VehicleSchema } = await import('~/domain/service-flow/vehicles')
		const base = { vehicleYear: 2015, brandId: refs.brandId, model: 'Golf', modelSpecification: '1.4', transmission: 'manual' as const, mileage: 1000 }
		const plate = `Z${Date.now().toString(36).slice(-6).toUpperCase()}`
		await createVehicle(customer.id, VehicleSchema.parse({ ...base, registrationNumber: plate }))
		await refused(
			createVehicle(customer.id, VehicleSchema.parse({ ...base, registrationNumber: ` ${plate.slice(0, 3).toLowerCase()} ${plate.slice(3)}` })),
			'customer:vehicle.registrationTaken',
		)
	})
})
