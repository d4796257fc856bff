import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { serviceRequestImages } from '~/db/schema'
import { createServiceRequest, makeOffer } from '~/domain/service-flow.server'
import { findViewableUpload } from '~/domain/uploads.server'
import { getOptionalUser } from '~/utils/auth.server'
import { db } from '~/utils/db.server'
import { prepareUpload } from '~/utils/storage.server'
import { signedInRequest } from '#tests/support/accounts'
import { customerWithVehicle, inDays, workshopOffering } from '#tests/support/flow'

const viewer = async (userId: string) => getOptionalUser((await signedInRequest(userId)).request)
const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')

describe('private files', () => {
	test('request images: the owner and workshops, nobody else', async () => {
		const owner = await customerWithVehicle()
		const stranger = await customerWithVehicle()
		const workshop = await workshopOffering([owner.refs.bodywork])
		const image = await prepareUpload({
			bytes: await sharp({ create: { width: 100, height: 80, channels: 3, background: '#333' } }).png().toBuffer(),
			purpose: 'request_image',
		})
		const requestId = await createServiceRequest(
			owner.customer.id,
			{ vehicleId: owner.vehicleId, serviceIds: [owner.refs.tyres], preferredAt: inDays(2), location: 'Tallinn', details: 'Scratch' },
			[image],
		)
		const [link] = await db.select().from(serviceRequestImages).where(eq(serviceRequestImages.requestId, requestId))
		expect(await findViewableUpload(link!.uploadId, await viewer(owner.customer.id))).not.toBeNull()
		expect(await findViewableUpload(link!.uploadId, await viewer(workshop.userId))).not.toBeNull()
		expect(await findViewableUpload(link!.uploadId, await viewer(stranger.customer.id))).toBeNull()
		expect(await findViewableUpload(link!.uploadId, null)).toBeNull()
	})

	test('offer attachments: the offer’s workshop and the request’s customer only', async () => {
		const owner = await customerWithVehicle()
		const stranger = await customerWithVehicle()
		const bidder = await workshopOffering([owner.refs.tyres])
		const rival = await workshopOffering([owner.refs.tyres])
		const requestId = await createServiceRequest(
			owner.customer.id,
			{ vehicleId: owner.vehicleId, serviceIds: [owner.refs.tyres], preferredAt: inDays(2), location: 'Tallinn', details: 'Tyres' },
			[],
		)
		const attachment = await prepareUpload({ bytes: pdf, purpose: 'offer_attachment', originalName: 'offer.pdf' })
		const offerId = await makeOffer(bidder, requestId, { price: 9900 }, attachment)
		const { offers } = await import('~/db/schema')
		const [offer] = await db.select().from(offers).where(eq(offers.id, offerId))
		const uploadId = offer!.attachmentUploadId!
		expect(await findViewableUpload(uploadId, await viewer(owner.customer.id))).not.toBeNull()
		expect(await findViewableUpload(uploadId, await viewer(bidder.userId))).not.toBeNull()
		expect(await findViewableUpload(uploadId, await viewer(rival.userId))).toBeNull()
		expect(await findViewableUpload(uploadId, await viewer(stranger.customer.id))).toBeNull()
	})
})
