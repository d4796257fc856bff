import { and, asc, eq, inArray } from 'drizzle-orm'
import {
	carBrands,
	cities,
	paymentMethods,
	services,
	spareParts,
	workshopCarBrands,
	workshopPaymentMethods,
	workshopPhotos,
	workshops,
	workshopServices,
	workshopSpareParts,
} from '~/db/schema'
import { afterCommit, db, type DbOrTx, transaction } from '~/db/db.server'
import { refreshNextFree } from '~/domain/booking/calendar.server'
import { forgetUsers } from '~/caching/user-cache.server'
import { forgetUploads, savePreparedUpload, type FormUpload } from '~/uploads/storage.server'
import { DomainError, FieldError, notFound } from '~/utils/errors'
import { forgetWorkshopCounts } from './workshops.server'
import { MAX_WORKSHOP_PHOTOS, type WorkshopProfileInput } from './profile'

/** The workshop's profile: what its form shows, and saving it with its lists and files in one transaction. */

const links = {
	serviceIds: workshopServices,
	carBrandIds: workshopCarBrands,
	sparePartIds: workshopSpareParts,
	paymentMethodIds: workshopPaymentMethods,
} as const

export async function loadWorkshopProfile(workshopId: string) {
	const [workshop] = await db.select().from(workshops).where(eq(workshops.id, workshopId))
	if (!workshop) throw notFound()
	const [services, brands, parts, payments, photos] = await Promise.all([
		db.select({ id: workshopServices.itemId }).from(workshopServices).where(eq(workshopServices.workshopId, workshopId)),
		db.select({ id: workshopCarBrands.itemId }).from(workshopCarBrands).where(eq(workshopCarBrands.workshopId, workshopId)),
		db.select({ id: workshopSpareParts.itemId }).from(workshopSpareParts).where(eq(workshopSpareParts.workshopId, workshopId)),
		db.select({ id: workshopPaymentMethods.itemId }).from(workshopPaymentMethods).where(eq(workshopPaymentMethods.workshopId, workshopId)),
		db
			.select({ id: workshopPhotos.id, uploadId: workshopPhotos.uploadId })
			.from(workshopPhotos)
			.where(eq(workshopPhotos.workshopId, workshopId))
			.orderBy(asc(workshopPhotos.position)),
	])
	return {
		workshop,
		serviceIds: services.map((row) => row.id),
		carBrandIds: brands.map((row) => row.id),
		sparePartIds: parts.map((row) => row.id),
		paymentMethodIds: payments.map((row) => row.id),
		photos,
	}
}

export type ProfileFiles = {
	logo: FormUpload | null
	removeLogo: boolean
	photos: FormUpload[]
	removePhotoIds: string[]
	warrantyDocument: FormUpload | null
	removeWarrantyDocument: boolean
}

const lists = {
	serviceIds: services,
	carBrandIds: carBrands,
	sparePartIds: spareParts,
	paymentMethodIds: paymentMethods,
} as const

/** Every chosen list item and the city must exist: an unknown id is that field's error, before anything is written. */
async function assertKnownChoices(tx: DbOrTx, input: WorkshopProfileInput) {
	const [city] = await tx.select({ id: cities.id }).from(cities).where(eq(cities.id, input.cityId))
	if (!city) throw new FieldError('cityId', 'common:validation.unknownChoice')
	for (const [field, table] of Object.entries(lists) as Array<[keyof typeof lists, (typeof lists)[keyof typeof lists]]>) {
		const ids = [...new Set(input[field])]
		if (!ids.length) continue
		const known = await tx.select({ id: table.id }).from(table).where(inArray(table.id, ids))
		if (known.length !== ids.length) throw new FieldError(field, 'common:validation.unknownChoice')
	}
}

async function replaceLinks(tx: DbOrTx, workshopId: string, input: WorkshopProfileInput) {
	for (const [field, table] of Object.entries(links) as Array<[keyof typeof links, (typeof links)[keyof typeof links]]>) {
		const ids = [...new Set(input[field])]
		await tx.delete(table).where(eq(table.workshopId, workshopId))
		await tx.insert(table).values(ids.map((itemId) => ({ workshopId, itemId })))
	}
}

/**
 * Saves the whole profile: fields, the four lists, opening hours, warranty,
 * logo, photos (at most eight) and the warranty document. A reference to an unknown list item
 * fails the whole save, which changes nothing.
 */
export async function saveWorkshopProfile(workshopId: string, ownerId: string, input: WorkshopProfileInput, files: ProfileFiles) {
	await transaction(async (tx) => {
		const [current] = await tx.select().from(workshops).where(eq(workshops.id, workshopId)).for('update')
		if (!current) throw notFound()
		await assertKnownChoices(tx, input)

		const existingPhotos = await tx.select().from(workshopPhotos).where(eq(workshopPhotos.workshopId, workshopId)).orderBy(asc(workshopPhotos.position))
		const kept = existingPhotos.filter((photo) => !files.removePhotoIds.includes(photo.id))
		if (kept.length + files.photos.length > MAX_WORKSHOP_PHOTOS) {
			throw new DomainError('workshop:profile.tooManyPhotos', 422, { max: MAX_WORKSHOP_PHOTOS })
		}

		const logo = files.logo ? await savePreparedUpload(tx, files.logo, ownerId) : null
		const document = files.warrantyDocument ? await savePreparedUpload(tx, files.warrantyDocument, ownerId) : null
		await tx
			.update(workshops)
			.set({
				contactFirstName: input.contactFirstName,
				contactLastName: input.contactLastName,
				workshopName: input.workshopName,
				phone: input.phone,
				email: input.email,
				billingEmail: input.billingEmail ?? null,
				website: input.website ?? null,
				foundedYear: input.foundedYear ?? null,
				installersCount: input.installersCount ?? null,
				state: input.state,
				cityId: input.cityId,
				streetName: input.streetName,
				zipCode: input.zipCode,
				marketingText: input.marketingText ?? '',
				additionalServices: input.additionalServices ?? '',
				weekdayOpens: input.weekdayOpens ?? null,
				weekdayCloses: input.weekdayCloses ?? null,
				saturdayOpens: input.saturdayOpens ?? null,
				saturdayCloses: input.saturdayCloses ?? null,
				sundayOpens: input.sundayOpens ?? null,
				sundayCloses: input.sundayCloses ?? null,
				warrantyWorkKm: input.warrantyWorkKm ?? null,
				warrantyPartsMonths: input.warrantyPartsMonths ?? null,
				warrantyInfo: input.warrantyInfo ?? '',
				...(logo ? { logoUploadId: logo.id } : files.removeLogo ? { logoUploadId: null } : {}),
				...(document ? { warrantyDocumentUploadId: document.id } : files.removeWarrantyDocument ? { warrantyDocumentUploadId: null } : {}),
			})
			.where(eq(workshops.id, workshopId))
		// The header shows the workshop's name: this process's kept sessions learn it now.
		await forgetUsers(tx, 'user', [ownerId])
		await replaceLinks(tx, workshopId, input)

		if (files.removePhotoIds.length) {
			await tx.delete(workshopPhotos).where(and(eq(workshopPhotos.workshopId, workshopId), inArray(workshopPhotos.id, files.removePhotoIds)))
		}
		// What the workshop took down (or replaced) is no longer public: its files go.
		await forgetUploads(tx, [
			...existingPhotos.filter((photo) => files.removePhotoIds.includes(photo.id)).map((photo) => photo.uploadId),
			...(logo || files.removeLogo ? [current.logoUploadId] : []),
			...(document || files.removeWarrantyDocument ? [current.warrantyDocumentUploadId] : []),
		])
		for (const [index, photo] of files.photos.entries()) {
			const upload = await savePreparedUpload(tx, photo, ownerId)
			await tx.insert(workshopPhotos).values({ workshopId, uploadId: upload.id, position: kept.length + index })
		}
		// Keep the remaining photos numbered 0, 1, 2 …
		for (const [position, photo] of kept.entries()) {
			if (photo.position !== position) await tx.update(workshopPhotos).set({ position }).where(eq(workshopPhotos.id, photo.id))
		}
		// A completed profile enters the directory (decision 0028): its cached counts are stale.
		await forgetWorkshopCounts(tx)
		// Its opening hours are its calendar's unless it keeps its own (issue 33): its next free time may have moved.
		await afterCommit(tx, () => refreshNextFree(workshopId))
	})
}
