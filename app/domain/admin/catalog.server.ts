import { asc, eq } from 'drizzle-orm'
import { ads, carBrands, cities, packages, paymentMethods, services, spareParts, type ReferenceTable } from '~/db/schema'
import { db, isUniqueViolation } from '~/db/db.server'
import { savePreparedUpload, type FormUpload } from '~/uploads/storage.server'
import { uploadUrl } from '~/uploads/upload-url'
import { type Language } from '~/i18n/config'
import { type AdInput, type AdminReferenceList, type CityItemInput, type PackageInput, type ReferenceItemInput } from './admin'
import { audited } from './audit.server'
import { forgetAds } from '~/domain/site/ads.server'
import { DomainError, FieldError, notFound } from '~/utils/errors'
import { forgetReferenceLists } from '~/domain/site/reference.server'

/**
 * Ads, packages and the reference lists in the administration area. Every change is audited in
 * its own transaction and drops the public site's caches in every process when it commits, so the
 * change shows at once.
 */

// ---------------------------------------------------------------- ads

export type AdminAd = {
	id: string
	adsType: 'image' | 'html'
	placement: 'Header' | 'Footer'
	language: Language
	image: string | null
	adsLink: string
	content: string
	active: boolean
	sortOrder: number
}

const toAdminAd = (row: typeof ads.$inferSelect): AdminAd => ({
	id: row.id,
	adsType: row.adsType === 1 ? 'image' : 'html',
	placement: row.placement,
	language: row.language,
	// Shown as a small preview: the thumbnail fits.
	image: row.imageUploadId ? uploadUrl(row.imageUploadId, 'thumb') : null,
	adsLink: row.adsLink ?? '',
	content: row.content ?? '',
	active: row.active,
	sortOrder: row.sortOrder,
})

export async function listAds(): Promise<AdminAd[]> {
	const rows = await db.select().from(ads).orderBy(asc(ads.placement), asc(ads.language), asc(ads.sortOrder), asc(ads.createdAt))
	return rows.map(toAdminAd)
}

export async function getAd(adId: string): Promise<AdminAd | null> {
	const [row] = await db.select().from(ads).where(eq(ads.id, adId))
	return row ? toAdminAd(row) : null
}

const adSnapshot = (row: typeof ads.$inferSelect) => ({
	adsType: row.adsType,
	placement: row.placement,
	language: row.language,
	imageUploadId: row.imageUploadId,
	adsLink: row.adsLink,
	content: row.content,
	active: row.active,
	sortOrder: row.sortOrder,
})

/**
 * Creates an ad (adId null) or changes one. An image ad needs an image: a new file, or the one it
 * has. Spec §3: type 1 is an image with an optional link, 2 is HTML.
 */
export async function saveAd(actorId: string, adId: string | null, input: AdInput, image: FormUpload | undefined): Promise<string> {
	const id = await audited(actorId, { action: adId ? 'ad.update' : 'ad.create', entityType: 'ad', entityId: adId }, async (tx) => {
		const [current] = adId ? await tx.select().from(ads).where(eq(ads.id, adId)).for('update') : []
		if (adId && !current) throw notFound()
		const imageUploadId = image ? (await savePreparedUpload(tx, image, actorId)).id : (current?.imageUploadId ?? null)
		if (input.adsType === 'image' && !imageUploadId) throw new DomainError('admin:ads.imageRequired', 422)
		const values = {
			adsType: input.adsType === 'image' ? 1 : 2,
			placement: input.placement,
			language: input.language,
			imageUploadId: input.adsType === 'image' ? imageUploadId : null,
			adsLink: input.adsType === 'image' ? input.adsLink || null : null,
			content: input.adsType === 'html' ? input.content : null,
			active: input.active,
			sortOrder: input.sortOrder,
		}
		const [saved] = current
			? await tx.update(ads).set(values).where(eq(ads.id, current.id)).returning()
			: await tx.insert(ads).values(values).returning()
		await forgetAds(tx)
		return { before: current ? adSnapshot(current) : null, after: adSnapshot(saved!), result: saved!.id, entityId: saved!.id }
	})
	return id
}

export async function deleteAd(actorId: string, adId: string) {
	await audited(actorId, { action: 'ad.delete', entityType: 'ad', entityId: adId }, async (tx) => {
		const [current] = await tx.delete(ads).where(eq(ads.id, adId)).returning()
		if (!current) throw notFound()
		await forgetAds(tx)
		return { before: adSnapshot(current), after: null, result: undefined }
	})
}

// ---------------------------------------------------------------- packages

export type AdminPackage = {
	id: string
	code: string
	nameEt: string
	nameEn: string
	nameRu: string
	priceCents: number
	currency: string
	offersPerMonth: number | null
	active: boolean
}

export async function listPackages(): Promise<AdminPackage[]> {
	return db
		.select({
			id: packages.id,
			code: packages.code,
			nameEt: packages.nameEt,
			nameEn: packages.nameEn,
			nameRu: packages.nameRu,
			priceCents: packages.priceCents,
			currency: packages.currency,
			offersPerMonth: packages.offersPerMonth,
			active: packages.active,
		})
		.from(packages)
		.orderBy(asc(packages.sortOrder), asc(packages.priceCents))
}

/** Changes a package's names, monthly price (EUR), offer limit and whether it is offered. */
export async function updatePackage(actorId: string, packageId: string, input: PackageInput) {
	await audited(actorId, { action: 'package.update', entityType: 'package', entityId: packageId }, async (tx) => {
		const [current] = await tx.select().from(packages).where(eq(packages.id, packageId)).for('update')
		if (!current) throw notFound()
		// The free package is where every workshop falls back to (expiry, failed payment): it stays free and offered.
		if (current.code === 'free' && (input.price !== 0 || !input.active)) throw new DomainError('admin:packages.freeStaysFree', 422)
		const values = {
			nameEt: input.nameEt,
			nameEn: input.nameEn,
			nameRu: input.nameRu,
			priceCents: input.price,
			currency: 'EUR',
			offersPerMonth: input.offersPerMonth,
			active: input.active,
		}
		await tx.update(packages).set(values).where(eq(packages.id, packageId))
		const before = {
			nameEt: current.nameEt,
			nameEn: current.nameEn,
			nameRu: current.nameRu,
			priceCents: current.priceCents,
			currency: current.currency,
			offersPerMonth: current.offersPerMonth,
			active: current.active,
		}
		return { before, after: values, result: undefined }
	})
}

// ---------------------------------------------------------------- reference lists

const referenceTables: Record<AdminReferenceList, ReferenceTable> = {
	services,
	carBrands,
	spareParts,
	paymentMethods,
	cities,
}

/** An item of a list; a city's with its county (issue 35), null until an administrator chooses one. */
export type AdminReferenceItem = typeof services.$inferSelect & { county?: string | null }

export async function listReferenceItems(list: AdminReferenceList): Promise<AdminReferenceItem[]> {
	const table = list === 'cities' ? cities : referenceTables[list]
	return db.select().from(table).orderBy(asc(table.sortOrder), asc(table.code))
}

/**
 * Adds an item to a list (itemId null) or changes one. Items are never deleted (requests and
 * vehicles refer to them): an inactive item is no longer offered. The code is unique per list.
 * A new city names its county (one of the fifteen, which the database checks too); a city without
 * one keeps none until one is chosen (issue 35).
 */
export async function saveReferenceItem(actorId: string, list: AdminReferenceList, itemId: string | null, input: ReferenceItemInput | CityItemInput) {
	const table = referenceTables[list]
	const { county, ...item } = input as CityItemInput
	if (list === 'cities' && !itemId && !county) throw new FieldError('county', 'admin:validation.county')
	// Only a city has a county; left out (undefined), an update keeps the one it has.
	const values = list === 'cities' ? { ...item, county } : item
	try {
		await audited(
			actorId,
			{ action: itemId ? 'reference.update' : 'reference.create', entityType: list, entityId: itemId },
			async (tx) => {
				const [current] = itemId ? await tx.select().from(table).where(eq(table.id, itemId)).for('update') : []
				if (itemId && !current) throw notFound()
				const [saved] = current
					? await tx.update(table).set(values).where(eq(table.id, current.id)).returning()
					: await tx.insert(table).values(values).returning()
				const { id: _before, ...before } = current ?? { id: null }
				const { id: savedId, ...after } = saved!
				await forgetReferenceLists(tx)
				return { before: current ? before : null, after, result: undefined, entityId: savedId }
			},
		)
	} catch (error) {
		if (isUniqueViolation(error)) throw new DomainError('admin:validation.codeTaken', 409)
		throw error
	}
}
