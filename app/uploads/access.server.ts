import { eq, inArray, sql } from 'drizzle-orm'
import { uploads } from '~/db/schema'
import { isConfirmedAdministrator, type SessionUser } from '~/utils/auth.server'
import { db, queryRows, type DbOrTx } from '~/db/db.server'
import { encodeId } from '~/utils/public-id'
import { type Upload, type UploadPurpose, variantKey } from '~/uploads/storage.server'
import { type ImageSource, type UploadAsked, variantMimeType } from '~/uploads/upload-url'
import { requestMatchesWorkshopId, valueList } from '~/db/sql'
import { statusLists } from '~/domain/service-flow/status'

/** Files anyone may see. */
const PUBLIC_PURPOSES: UploadPurpose[] = ['workshop_logo', 'workshop_photo', 'warranty_document', 'site_logo', 'site_favicon', 'ad_image']

/** A file anyone may see, and caches may keep: a public kind, and not held for a failed form. */
export function isPublicUpload(upload: Pick<Upload, 'purpose' | 'heldSince'>) {
	return PUBLIC_PURPOSES.includes(upload.purpose) && !upload.heldSince
}

/** Names the version of an upload's smaller copies in their URLs: a re-encoded image gets new ones. */
export function uploadVersion(upload: Pick<Upload, 'sha256'>) {
	return upload.sha256.slice(0, 12)
}

type ImageRow = Pick<Upload, 'id' | 'width' | 'height' | 'variantWidths' | 'sha256' | 'thumbnailKey' | 'mimeType'>

/**
 * The stored file that answers what was asked: the upload itself, its thumbnail (the upload when
 * it has none), or one of its copies; null for a copy it does not have or of another version.
 * `versioned`: the address names the file's hash, so caches may keep it for good.
 */
export function fileToServe(upload: Upload, asked: UploadAsked): { key: string; mimeType: string; versioned: boolean } | null {
	if (asked === 'original') return { key: upload.storageKey, mimeType: upload.mimeType, versioned: false }
	if (asked === 'thumb') return upload.thumbnailKey ? { key: upload.thumbnailKey, mimeType: 'image/webp', versioned: false } : fileToServe(upload, 'original')
	if (!upload.variantWidths?.includes(asked.width)) return null
	if (asked.version !== undefined && asked.version !== uploadVersion(upload)) return null
	return { key: variantKey(upload.storageKey, asked.width, asked.format), mimeType: variantMimeType(asked.format), versioned: asked.version !== undefined }
}

/** What ResponsiveImage needs of an upload; null for one that is not an image of known size. */
export function imageSource(row: ImageRow): ImageSource | null {
	if (!row.mimeType.startsWith('image/') || !row.width || !row.height) return null
	return {
		id: encodeId(row.id),
		width: row.width,
		height: row.height,
		widths: row.variantWidths ?? [],
		version: uploadVersion(row),
		thumbnail: Boolean(row.thumbnailKey),
	}
}

/**
 * The images among `ids`, by id, in one query: a page of cards, a gallery. Who may see them is the
 * caller's question, as it is for uploadUrl; a missing one is left out.
 */
export async function imageSourcesFor(ids: Array<string | null | undefined>, database: DbOrTx = db): Promise<Map<string, ImageSource>> {
	const known = [...new Set(ids.filter((id): id is string => Boolean(id)))]
	if (!known.length) return new Map()
	const rows = await database
		.select({
			id: uploads.id,
			width: uploads.width,
			height: uploads.height,
			variantWidths: uploads.variantWidths,
			sha256: uploads.sha256,
			thumbnailKey: uploads.thumbnailKey,
			mimeType: uploads.mimeType,
		})
		.from(uploads)
		.where(inArray(uploads.id, known))
	return new Map(rows.flatMap((row) => {
		const source = imageSource(row)
		return source ? [[row.id, source] as const] : []
	}))
}

/**
 * The stored file if this viewer may have it, else null (the route answers 404 either way).
 * Request photos: the request's customer; a workshop while the request is open to it (pending or
 * with offers, and it needs one of the workshop's services or the workshop has bid on it); once
 * the customer has chosen (in progress, completed, or cancelled after that) only the chosen
 * workshop. The workshop's request page lists them on the same terms (getRequestForWorkshop).
 * A photo of extra work (issue 19): the job's customer and its workshop.
 * Offer attachments and a job's invoice or receipt: the offer's workshop and the request's
 * customer. A document of work done elsewhere: the owner who added it. Invoices: their workshop.
 * Administrators see every file (but another's held one), once their session is confirmed by a
 * second factor (decision 0156); before that, what anyone sees.
 */
export async function findViewableUpload(uploadId: string, viewer: SessionUser | null): Promise<Upload | null> {
	const [upload] = await db.select().from(uploads).where(eq(uploads.id, uploadId))
	if (!upload) return null
	if (isPublicUpload(upload)) return upload
	// A file held for a form that failed is its owner's only, whatever it is for.
	if (upload.heldSince) return viewer && upload.ownerId === viewer.id ? upload : null
	if (!viewer) return null
	if (isConfirmedAdministrator(viewer)) return upload
	if (upload.purpose === 'request_image') {
		const workshopId = viewer.workshop?.id ?? null
		const [row] = await queryRows<{ ok: boolean }>(
			db,
			sql`select exists (
			      select 1 from service_request_images i join service_requests r on r.id = i.request_id
			      where i.upload_id = ${uploadId}
			        and (r.customer_id = ${viewer.id}
			             or (r.status in ${valueList(statusLists.openRequests)} and (
			                   exists (select 1 from offers o where o.request_id = r.id and o.workshop_id = ${workshopId})
			                   ${workshopId ? sql`or ${requestMatchesWorkshopId(workshopId)}` : sql``}))
			             or exists (select 1 from offers so where so.id = r.selected_offer_id and so.workshop_id = ${workshopId}))
			    ) or exists (
			      select 1 from extra_work_images ei join extra_work e on e.id = ei.extra_work_id
			      join offers o on o.id = e.offer_id join service_requests r on r.id = o.request_id
			      where ei.upload_id = ${uploadId} and (r.customer_id = ${viewer.id} or o.workshop_id = ${workshopId})
			    ) as ok`,
		)
		return row?.ok ? upload : null
	}
	if (upload.purpose === 'offer_attachment' || upload.purpose === 'job_invoice') {
		const column = upload.purpose === 'offer_attachment' ? sql`o.attachment_upload_id` : sql`o.invoice_upload_id`
		const [row] = await queryRows<{ ok: boolean }>(
			db,
			sql`select exists (select 1 from offers o join service_requests r on r.id = o.request_id
			                   where ${column} = ${uploadId}
			                     and (r.customer_id = ${viewer.id} or o.workshop_id = ${viewer.workshop?.id ?? null})) as ok`,
		)
		return row?.ok ? upload : null
	}
	if (upload.purpose === 'service_document') {
		const [row] = await queryRows<{ ok: boolean }>(
			db,
			// The owner who added it, even after the vehicle changed owner; not the next owner (decision 0123).
			sql`select exists (select 1 from service_records s join uploads u on u.id = s.document_upload_id
			                   where s.document_upload_id = ${uploadId} and u.owner_id = ${viewer.id}) as ok`,
		)
		return row?.ok ? upload : null
	}
	if (upload.purpose === 'invoice' && viewer.workshop) {
		const [row] = await queryRows<{ ok: boolean }>(
			db,
			sql`select exists (select 1 from invoices where pdf_upload_id = ${uploadId} and workshop_id = ${viewer.workshop.id}) as ok`,
		)
		return row?.ok ? upload : null
	}
	return null
}

