import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { serviceRequestImages } from '~/db/schema'
import { getRequestForWorkshop } from '~/domain/service-flow/requests.server'
import { type WorkshopActor } from '~/utils/auth.server'
import { makeOffer, selectOffer } from '~/domain/service-flow/offer-moves.server'
import { cancelRequest, createServiceRequest } from '~/domain/service-flow/request-moves.server'
import { findViewableUpload } from '~/uploads/access.server'
import { getOptionalUser } from '~/utils/auth.server'
import { encodeId } from '~/utils/public-id'
import { db } from '~/db/db.server'
import { prepareUpload } from '~/uploads/storage.server'
import { adminRequest, createAdmin, signedInRequest } from '#tests/support/accounts'
import { customerWithVehicle, inDays, workshopOffering } from '#tests/support/flow'

const viewer = async (userId: string) => getOptionalUser((await signedInRequest(userId)).request)
const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')

describe('private files', () => {
	const photo = async () =>
		prepareUpload({ bytes: await sharp({ create: { width: 100, height: 80, channels: 3, background: '#333' } }).png().toBuffer(), purpose: 'request_image' })

	/** A tyres request with one photo, and three workshops that do tyres and one that does not. */
	async function requestWithPhoto() {
		const owner = await customerWithVehicle()
		const [chosen, rejected, silent, bodyshop] = await Promise.all([
			workshopOffering([owner.refs.tyres]),
			workshopOffering([owner.refs.tyres]),
			workshopOffering([owner.refs.tyres]),
			workshopOffering([owner.refs.bodywork]),
		])
		const requestId = await createServiceRequest(
			owner.customer.id,
			{ vehicleId: owner.vehicleId, serviceIds: [owner.refs.tyres], preferredAt: inDays(2), location: 'Tallinn', details: 'Scratch' },
			[await photo()],
		)
		const [link] = await db.select().from(serviceRequestImages).where(eq(serviceRequestImages.requestId, requestId))
		const sees = async (userId: string | null) => (await findViewableUpload(link!.uploadId, userId ? await viewer(userId) : null)) !== null
		const listed = async (workshop: WorkshopActor) => (await getRequestForWorkshop(workshop.workshopId, requestId, 'en')).images.map((image) => image.id)
		// Anywhere in what the page gets (its copies' addresses included), not only in the list it shows.
		const mentions = async (workshop: WorkshopActor) => {
			const page = JSON.stringify(await getRequestForWorkshop(workshop.workshopId, requestId, 'en'))
			return page.includes(link!.uploadId) || page.includes(encodeId(link!.uploadId))
		}
		return { owner, requestId, chosen, rejected, silent, bodyshop, uploadId: link!.uploadId, sees, listed, mentions }
	}

	test('request photos while the request is open: its customer and the workshops it is open to', async () => {
		const { owner, requestId, chosen, bodyshop, sees, listed, uploadId } = await requestWithPhoto()
		const stranger = await customerWithVehicle()
		expect(await sees(owner.customer.id)).toBe(true)
		expect(await sees(chosen.userId)).toBe(true) // pending, needs its service
		expect(await listed(chosen)).toEqual([uploadId])
		expect(await sees(bodyshop.userId)).toBe(false) // needs none of its services
		expect(await sees(stranger.customer.id)).toBe(false)
		expect(await sees(null)).toBe(false)
		await makeOffer(chosen, requestId, { price: 5000 }, null)
		expect(await sees(chosen.userId)).toBe(true) // status offer
	})

	test('request photos after the choice: the chosen workshop only', async () => {
		const { owner, requestId, chosen, rejected, silent, bodyshop, sees, listed, mentions, uploadId } = await requestWithPhoto()
		const offerId = await makeOffer(chosen, requestId, { price: 5000 }, null)
		await makeOffer(rejected, requestId, { price: 6000 }, null)
		await selectOffer(owner.customer.id, requestId, offerId)
		expect(await sees(owner.customer.id)).toBe(true)
		expect(await sees(chosen.userId)).toBe(true)
		expect(await listed(chosen)).toEqual([uploadId])
		expect(await sees(rejected.userId)).toBe(false)
		// The losing workshop still sees its bid's request page, without the photos it may not open.
		expect(await listed(rejected)).toEqual([])
		expect(await mentions(rejected)).toBe(false)
		expect(await sees(silent.userId)).toBe(false)
		expect(await sees(bodyshop.userId)).toBe(false)
		// An administrator sees every file once signed in with a second factor (decision 0156); by a password alone, not.
		const admin = await createAdmin()
		expect(await sees(admin.id)).toBe(false)
		expect(await findViewableUpload(uploadId, await getOptionalUser((await adminRequest(admin.id)).request))).not.toBeNull()
	})

	test('request photos of a cancelled request without a chosen offer: its customer only', async () => {
		const { owner, requestId, chosen, rejected, sees, listed, mentions } = await requestWithPhoto()
		await makeOffer(rejected, requestId, { price: 6000 }, null)
		await cancelRequest(owner.customer.id, requestId)
		expect(await sees(owner.customer.id)).toBe(true)
		expect(await sees(rejected.userId)).toBe(false)
		expect(await listed(rejected)).toEqual([])
		expect(await mentions(rejected)).toBe(false)
		expect(await sees(chosen.userId)).toBe(false)
		expect(await sees(null)).toBe(false)
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
