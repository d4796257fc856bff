import { randomUUID } from 'node:crypto'
import fs from 'node:fs/promises'
import { parseWithZod } from '@conform-to/zod/v4'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { cities, paymentMethods, spareParts, uploads, workshopPhotos, workshops, workshopServices } from '~/db/schema'
import { DomainError, FieldError } from '~/utils/errors'
import { WorkshopProfileSchema } from '~/domain/directory/profile'
import { findViewableUpload } from '~/uploads/access.server'
import { saveWorkshopProfile } from '~/domain/directory/profile.server'
import { db } from '~/db/db.server'
import { stagedPath } from '~/uploads/file-store.server'
import { discardPrepared, prepareUpload } from '~/uploads/storage.server'
import { referenceData, workshopOffering } from '#tests/support/flow'

async function validForm(overrides: Record<string, string | string[]> = {}) {
	const refs = await referenceData()
	const [city] = await db.select().from(cities).where(eq(cities.code, 'tartu'))
	const [part] = await db.select().from(spareParts)
	const [payment] = await db.select().from(paymentMethods)
	const values: Record<string, string | string[]> = {
		contactFirstName: 'Toomas',
		contactLastName: 'Tamm',
		workshopName: 'Tamme Garaaž',
		phone: '+372 5555 1111',
		email: 'info@tamme.example',
		state: 'Tartu maakond',
		cityId: city!.id,
		streetName: 'Ringtee 1',
		zipCode: '50105',
		serviceIds: [refs.tyres, refs.brakes],
		carBrandIds: [refs.brandId],
		sparePartIds: [part!.id],
		paymentMethodIds: [payment!.id],
		weekdayOpens: '08:00',
		weekdayCloses: '17:00',
		...overrides,
	}
	const form = new FormData()
	for (const [key, value] of Object.entries(values)) for (const item of Array.isArray(value) ? value : [value]) form.append(key, item)
	return parseWithZod(form, { schema: WorkshopProfileSchema })
}

const files = { logo: null, removeLogo: false, photos: [], removePhotoIds: [], warrantyDocument: null, removeWarrantyDocument: false }

describe('the workshop profile', () => {
	test('needs at least one service, brand, spare part and payment method', async () => {
		const submission = await validForm({ serviceIds: [], paymentMethodIds: [] })
		expect(submission.status).toBe('error')
		expect(submission.reply().error).toMatchObject({ serviceIds: ['validation.choose'], paymentMethodIds: ['validation.choose'] })
	})

	test('opening hours come in pairs, closing after opening; both empty means closed', async () => {
		expect((await validForm({ saturdayOpens: '10:00' })).reply().error).toMatchObject({ saturdayCloses: ['validation.timePair'] })
		expect((await validForm({ sundayOpens: '12:00', sundayCloses: '11:00' })).reply().error).toMatchObject({ sundayCloses: ['validation.closesAfterOpens'] })
		expect((await validForm()).status).toBe('success')
	})

	test('saves every field and replaces the lists, and the workshop enters the directory', async () => {
		const refs = await referenceData()
		const workshop = await workshopOffering([refs.bodywork])
		const submission = await validForm()
		if (submission.status !== 'success') throw new Error('invalid form')
		await saveWorkshopProfile(workshop.workshopId, workshop.userId, submission.value, files)
		const [row] = await db.select().from(workshops).where(eq(workshops.id, workshop.workshopId))
		expect(row).toMatchObject({ workshopName: 'Tamme Garaaž', streetName: 'Ringtee 1', weekdayOpens: '08:00:00', saturdayOpens: null })
		expect(row!.cityId).not.toBeNull()
		// Its hours are its calendar's (issue 33): its next free time was computed after the save.
		expect(row!.nextFreeCheckedAt).not.toBeNull()
		const services = await db.select().from(workshopServices).where(eq(workshopServices.workshopId, workshop.workshopId))
		expect(services.map((s) => s.itemId).sort()).toEqual([refs.tyres, refs.brakes].sort())
	})

	test('refuses a ninth photo and stores nothing', async () => {
		const refs = await referenceData()
		const workshop = await workshopOffering([refs.tyres])
		const submission = await validForm()
		if (submission.status !== 'success') throw new Error('invalid form')
		const photo = async () => prepareUpload({ bytes: await sharp({ create: { width: 300, height: 200, channels: 3, background: '#555' } }).webp().toBuffer(), purpose: 'workshop_photo' })
		const eight = await Promise.all(Array.from({ length: 8 }, photo))
		await saveWorkshopProfile(workshop.workshopId, workshop.userId, submission.value, { ...files, photos: eight })
		const error = await saveWorkshopProfile(workshop.workshopId, workshop.userId, submission.value, { ...files, photos: [await photo()] }).catch((e: unknown) => e)
		expect(error).toBeInstanceOf(DomainError)
		expect(error).toMatchObject({ key: 'workshop:profile.tooManyPhotos' })
		expect(await db.select().from(workshopPhotos).where(eq(workshopPhotos.workshopId, workshop.workshopId))).toHaveLength(8)
	})

	test('a photo taken down and a replaced logo are no longer served to anyone', async () => {
		const refs = await referenceData()
		const workshop = await workshopOffering([refs.tyres])
		const submission = await validForm()
		if (submission.status !== 'success') throw new Error('invalid form')
		const image = async (colour: string, purpose: 'workshop_photo' | 'workshop_logo') =>
			prepareUpload({ bytes: await sharp({ create: { width: 200, height: 150, channels: 3, background: colour } }).png().toBuffer(), purpose })
		await saveWorkshopProfile(workshop.workshopId, workshop.userId, submission.value, { ...files, logo: await image('#123456', 'workshop_logo'), photos: [await image('#654321', 'workshop_photo')] })
		const [before] = await db.select().from(workshops).where(eq(workshops.id, workshop.workshopId))
		const [photo] = await db.select().from(workshopPhotos).where(eq(workshopPhotos.workshopId, workshop.workshopId))
		expect(await findViewableUpload(photo!.uploadId, null)).not.toBeNull()
		expect(await findViewableUpload(before!.logoUploadId!, null)).not.toBeNull()

		await saveWorkshopProfile(workshop.workshopId, workshop.userId, submission.value, { ...files, logo: await image('#abcdef', 'workshop_logo'), removePhotoIds: [photo!.id] })
		expect(await findViewableUpload(photo!.uploadId, null)).toBeNull()
		expect(await findViewableUpload(before!.logoUploadId!, null)).toBeNull()
		const [after] = await db.select().from(workshops).where(eq(workshops.id, workshop.workshopId))
		expect(await findViewableUpload(after!.logoUploadId!, null)).not.toBeNull()
	})

	test('a refused save (an unknown list item) puts no file in the store', async () => {
		const refs = await referenceData()
		const workshop = await workshopOffering([refs.tyres])
		const submission = await validForm({ sparePartIds: [randomUUID()] })
		if (submission.status !== 'success') throw new Error('invalid form')
		const color = `#${randomUUID().slice(0, 6)}`
		const logo = await prepareUpload({ bytes: await sharp({ create: { width: 120, height: 90, channels: 3, background: color } }).png().toBuffer(), purpose: 'workshop_logo' })
		const error = await saveWorkshopProfile(workshop.workshopId, workshop.userId, submission.value, { ...files, logo }).catch((e: unknown) => e)
		// The field's own error, shown next to it: "Choose a value from the list."
		expect(error).toBeInstanceOf(FieldError)
		expect(error).toMatchObject({ field: 'sparePartIds', key: 'common:validation.unknownChoice', status: 422 })
		expect(await db.select().from(uploads).where(eq(uploads.sha256, logo.sha256))).toEqual([])
		// Still staged (the form's clean-up deletes it), never promoted.
		expect(await fs.stat(stagedPath(logo.stagedKey)).then(() => true)).toBe(true)
		await discardPrepared([logo])
		expect(await fs.stat(stagedPath(logo.stagedKey)).catch(() => null)).toBeNull()
	})

	test('every unknown reference id is its field’s error, and nothing is saved', async () => {
		const refs = await referenceData()
		const workshop = await workshopOffering([refs.tyres])
		const [before] = await db.select().from(workshops).where(eq(workshops.id, workshop.workshopId))
		for (const field of ['cityId', 'serviceIds', 'carBrandIds', 'sparePartIds', 'paymentMethodIds']) {
			const submission = await validForm({ [field]: field === 'cityId' ? randomUUID() : [randomUUID()] })
			if (submission.status !== 'success') throw new Error('invalid form')
			await expect(saveWorkshopProfile(workshop.workshopId, workshop.userId, submission.value, files)).rejects.toMatchObject({ field, status: 422 })
		}
		expect((await db.select().from(workshops).where(eq(workshops.id, workshop.workshopId)))[0]).toEqual(before)
		expect(await db.select().from(workshopServices).where(eq(workshopServices.workshopId, workshop.workshopId))).toHaveLength(1)
	})

	test('a non-PDF warranty document is refused by content', async () => {
		const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } }).png().toBuffer()
		await expect(prepareUpload({ bytes: png, purpose: 'warranty_document', originalName: 'warranty.pdf' })).rejects.toMatchObject({ reason: 'wrongType' })
		await expect(prepareUpload({ bytes: png, purpose: 'offer_attachment', originalName: 'offer.pdf' })).rejects.toMatchObject({ reason: 'wrongType' })
	})
})
