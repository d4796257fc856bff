import { createHash, randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import fs from 'node:fs/promises'
import { and, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm'
import type { Sharp } from 'sharp'
import { dataExports, uploads, type uploadPurposes } from '~/db/schema'
import { afterCommit, db, getConnection, queryRows, transaction, type DbOrTx } from '~/db/db.server'
import {
	deleteStagedFile,
	discardStaged,
	getFileStore,
	listStagedFiles,
	localFileStore,
	newStagingKey,
	openStoredFile,
	promote,
	stagedPath,
	storageRoot,
	writeStaged,
	type FileStore,
	type StoredFileEntry,
} from '~/uploads/file-store.server'
import { DomainError } from '~/utils/errors'
import { logger } from '~/utils/logger.server'
import { lazily } from '~/utils/singleton.server'
import { message } from '~/utils/messages'
import { IMAGE_TYPES, PDF_TYPES, THUMBNAIL_WIDTH, VARIANT_FORMATS, variantMimeType, type VariantFormat } from '~/uploads/upload-url'

export { readStoredFile } from '~/uploads/file-store.server'

export type UploadPurpose = (typeof uploadPurposes)[number]
export type Upload = typeof uploads.$inferSelect

/** What each kind of upload may be, by content (spec §5, §9). */
const allowedTypes: Record<UploadPurpose, readonly string[]> = {
	workshop_logo: IMAGE_TYPES,
	workshop_photo: IMAGE_TYPES,
	request_image: IMAGE_TYPES,
	site_logo: IMAGE_TYPES,
	site_favicon: IMAGE_TYPES,
	ad_image: IMAGE_TYPES,
	warranty_document: PDF_TYPES,
	offer_attachment: PDF_TYPES,
	invoice: PDF_TYPES,
	job_invoice: PDF_TYPES,
	service_document: PDF_TYPES,
}

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024
/** The most files one upload form may bring in all; past it, the form's later files are that field's error (docs/decisions/0115). */
export const MAX_FORM_BYTES = 40 * 1024 * 1024
/** Refused before decoding: a small file can claim a huge canvas (a 31 KB PNG of 16000 × 16000). */
export const MAX_IMAGE_PIXELS = 50_000_000
/** Larger images are scaled down to this on the long side, not refused. */
export const MAX_IMAGE_SIDE = 2560
const THUMBNAIL_TYPE = 'image/webp'
/** The widths of an image's smaller copies (issue 18): a logo on a card, a phone's gallery, a phone's full width, a desktop's. */
const VARIANT_WIDTHS = [160, 320, 640, 1280] as const
/** AVIF at effort 2: close to the default's size at a third of its time, so an upload waits little. */
const variantEncoders: Record<VariantFormat, (image: Sharp) => Sharp> = {
	avif: (image) => image.avif({ quality: 50, effort: 2 }),
	webp: (image) => image.webp({ quality: 75 }),
}
const extensions: Record<string, string> = {
	'image/png': 'png',
	'image/jpeg': 'jpg',
	'image/webp': 'webp',
	'application/pdf': 'pdf',
}

export class UploadRejected extends Error {
	constructor(
		/** A translation key under `common:upload.*`. */
		public readonly reason: 'tooLarge' | 'formTooLarge' | 'wrongType' | 'unreadable' | 'empty' | 'tooManyPixels',
	) {
		super(`upload rejected: ${reason}`)
	}
}

/** The form field's message for a refused file. */
export function rejectionMessage(error: UploadRejected) {
	if (error.reason === 'tooManyPixels') return message('common:upload.tooManyPixels', { max: MAX_IMAGE_PIXELS / 1_000_000 })
	if (error.reason === 'formTooLarge') return message('common:upload.formTooLarge', { max: MAX_FORM_BYTES / 1024 / 1024 })
	return `common:upload.${error.reason}`
}

/** The type a file really is, from its first bytes; the name and the browser's claim are ignored. */
export function sniffMimeType(bytes: Uint8Array): string | null {
	const starts = (signature: number[], offset = 0) => signature.every((byte, i) => bytes[offset + i] === byte)
	if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
	if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg'
	if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp'
	if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf'
	return null
}

/**
 * A checked file, waiting in the staging area: an image re-encoded without its metadata, with
 * its thumbnail; a PDF as sent. Size, hash and dimensions describe the staged file.
 */
export type PreparedUpload = {
	purpose: UploadPurpose
	mimeType: string
	width: number | null
	height: number | null
	byteSize: number
	sha256: string
	stagedKey: string
	stagedThumbnailKey: string | null
	/** The image's smaller copies, staged (none for a PDF). */
	stagedVariants: StagedVariant[]
	variantWidths: number[]
	originalName: string | null
}

type StagedVariant = { width: number; format: VariantFormat; stagedKey: string }

/** The copies an image of `width` gets, each with its place in the staging area. */
const stagedVariantsFor = (width: number): StagedVariant[] =>
	variantWidthsFor(width).flatMap((w) => VARIANT_FORMATS.map((format) => ({ width: w, format, stagedKey: newStagingKey(`w${w}.${format}`) })))

/** The widths staged copies have, each once (the upload row's variant_widths). */
const widthsOf = (variants: StagedVariant[]) => [...new Set(variants.map((variant) => variant.width))]

/** Every staged file of a prepared upload. */
const stagedKeysOf = (file: PreparedUpload) => [
	file.stagedKey,
	...(file.stagedThumbnailKey ? [file.stagedThumbnailKey] : []),
	...file.stagedVariants.map((variant) => variant.stagedKey),
]

/**
 * The widths an image of `width` gets copies at: the standard ones well below it (a copy within
 * a fifth of the next would cost a file and save nothing), and its own width up to the largest.
 */
export function variantWidthsFor(width: number): number[] {
	const largest = VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1]!
	const widths: number[] = VARIANT_WIDTHS.filter((candidate) => candidate <= width * 0.8)
	widths.push(Math.min(width, largest))
	return [...new Set(widths)].sort((a, b) => a - b)
}

/** Where a copy of a stored image lives: next to it, `2026/11/{id}.w640.avif`. */
export function variantKey(storageKey: string, width: number, format: VariantFormat) {
	return `${storageKey.replace(/\.[^./]*$/, '')}.w${width}.${format}`
}

/** The keys of every copy an upload row names. */
export function variantKeysOf(row: Pick<Upload, 'storageKey' | 'variantWidths'>) {
	return (row.variantWidths ?? []).flatMap((width) => VARIANT_FORMATS.map((format) => variantKey(row.storageKey, width, format)))
}

/** A file held from an earlier, failed sending of the form (see holdUpload), claimed when it is stored. */
export type HeldUpload = { heldUploadId: string; purpose: UploadPurpose }
/** A file of a form: checked and staged now, or held from the form's earlier sending. */
export type FormUpload = PreparedUpload | HeldUpload

export function isHeld(file: FormUpload): file is HeldUpload {
	return 'heldUploadId' in file
}

type UploadInput = ({ bytes: Uint8Array } | { stagedKey: string }) & { purpose: UploadPurpose; originalName?: string | null }

/**
 * Checks a file by its content and stages what will be stored: the first bytes must be a type
 * the purpose allows; an image must decode within the pixel limit, and is re-encoded (turned
 * upright, metadata dropped, at most MAX_IMAGE_SIDE) with a thumbnail. Throws UploadRejected.
 * Nothing enters the store here: savePreparedUpload does, after its transaction commits.
 * A staged input (`stagedKey`) is left for its owner to discard.
 */
export async function prepareUpload(input: UploadInput): Promise<PreparedUpload> {
	if ('stagedKey' in input) return prepareStaged(input.stagedKey, input.purpose, input.originalName)
	if (input.bytes.byteLength > MAX_UPLOAD_BYTES) throw new UploadRejected('tooLarge')
	const raw = newStagingKey('upload')
	try {
		await writeStaged(raw, input.bytes)
		return await prepareStaged(raw, input.purpose, input.originalName)
	} finally {
		await discardStaged([raw])
	}
}

async function prepareStaged(rawKey: string, purpose: UploadPurpose, originalName?: string | null): Promise<PreparedUpload> {
	const source = stagedPath(rawKey)
	const { size } = await fs.stat(source)
	if (size === 0) throw new UploadRejected('empty')
	if (size > MAX_UPLOAD_BYTES) throw new UploadRejected('tooLarge')
	const mimeType = sniffMimeType(await readHead(source))
	if (!mimeType || !allowedTypes[purpose].includes(mimeType)) throw new UploadRejected('wrongType')

	const stagedKey = newStagingKey(extensions[mimeType]!)
	const stagedThumbnailKey = mimeType.startsWith('image/') ? newStagingKey('thumb.webp') : null
	let stagedVariants: StagedVariant[] = []
	try {
		let dimensions: { width: number; height: number } | null = null
		if (stagedThumbnailKey) {
			dimensions = await reencodeImage(source, stagedPath(stagedKey), mimeType)
			stagedVariants = stagedVariantsFor(dimensions.width)
			await Promise.all([makeThumbnail(stagedPath(stagedKey), stagedPath(stagedThumbnailKey)), makeVariants(stagedPath(stagedKey), stagedVariants)])
		} else {
			await fs.copyFile(source, stagedPath(stagedKey))
		}
		const { byteSize, sha256 } = await describeFile(stagedPath(stagedKey))
		return {
			purpose,
			mimeType,
			width: dimensions?.width ?? null,
			height: dimensions?.height ?? null,
			byteSize,
			sha256,
			stagedKey,
			stagedThumbnailKey,
			stagedVariants,
			variantWidths: widthsOf(stagedVariants),
			originalName: originalName?.slice(0, 200) ?? null,
		}
	} catch (error) {
		await discardStaged([stagedKey, ...(stagedThumbnailKey ? [stagedThumbnailKey] : []), ...stagedVariants.map((variant) => variant.stagedKey)])
		throw error
	}
}

async function readHead(file: string) {
	const handle = await fs.open(file, 'r')
	try {
		const head = new Uint8Array(16)
		const { bytesRead } = await handle.read(head, 0, head.length, 0)
		return head.subarray(0, bytesRead)
	} finally {
		await handle.close()
	}
}

/** The same format out as in; sharp writes no metadata unless asked to. */
const encoders: Record<string, (image: Sharp, isPalette: boolean) => Sharp> = {
	'image/jpeg': (image) => image.jpeg({ quality: 85 }),
	// A palette PNG stays one, or a logo would grow several times over.
	'image/png': (image, isPalette) => image.png({ compressionLevel: 9, palette: isPalette }),
	'image/webp': (image) => image.webp({ quality: 85 }),
}

/** sharp (and libvips), loaded with the first image, not at start (decision 0094). */
const loadSharp = lazily(async () => (await import('sharp')).default)

async function reencodeImage(source: string, target: string, mimeType: string) {
	const sharp = await loadSharp()
	try {
		const image = sharp(source, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS })
		const meta = await image.metadata()
		const resized = image.rotate().resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: 'inside', withoutEnlargement: true })
		const info = await encoders[mimeType]!(resized, meta.isPalette === true).toFile(target)
		return { width: info.width, height: info.height }
	} catch (error) {
		// Decoding proves it is a real image, not just the right first bytes.
		throw new UploadRejected(error instanceof Error && /pixel limit/i.test(error.message) ? 'tooManyPixels' : 'unreadable')
	}
}

async function makeThumbnail(source: string, target: string) {
	const sharp = await loadSharp()
	try {
		await sharp(source).resize({ width: THUMBNAIL_WIDTH, withoutEnlargement: true }).webp({ quality: 78 }).toFile(target)
	} catch {
		throw new UploadRejected('unreadable')
	}
}

/** The copies of a (re-encoded) image, side by side: sharp runs them on its own threads. */
async function makeVariants(source: string, variants: StagedVariant[]) {
	const sharp = await loadSharp()
	try {
		await Promise.all(
			variants.map((variant) =>
				variantEncoders[variant.format](sharp(source).resize({ width: variant.width, withoutEnlargement: true })).toFile(stagedPath(variant.stagedKey)),
			),
		)
	} catch {
		throw new UploadRejected('unreadable')
	}
}

/** Moves a prepared image's copies into the store under the stored image's key. */
async function promoteVariants(variants: StagedVariant[], storageKey: string) {
	for (const variant of variants) await promote(variant.stagedKey, variantKey(storageKey, variant.width, variant.format), variantMimeType(variant.format))
}

async function describeFile(file: string) {
	const hash = createHash('sha256')
	let byteSize = 0
	for await (const chunk of createReadStream(file)) {
		hash.update(chunk as Buffer)
		byteSize += (chunk as Buffer).byteLength
	}
	return { byteSize, sha256: hash.digest('hex') }
}

/**
 * Records a checked file, and moves it (and its thumbnail) from the staging area into the store
 * once the transaction commits: a rolled-back save leaves no file behind. Outside a transaction
 * the file moves at once. A held file is claimed instead: it is the owner's again to use, and a
 * rolled-back save leaves it held.
 */
export async function savePreparedUpload(tx: DbOrTx, file: FormUpload, ownerId?: string | null): Promise<Upload> {
	if (isHeld(file)) return claimHeldUpload(tx, file, ownerId ?? null)
	return insertUpload(tx, file, ownerId ?? null, null)
}

async function insertUpload(tx: DbOrTx, file: PreparedUpload, ownerId: string | null, heldSince: Date | null): Promise<Upload> {
	const id = randomUUID()
	const now = new Date()
	const folder = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`
	const storageKey = `${folder}/${id}.${extensions[file.mimeType]}`
	const thumbnailKey = file.stagedThumbnailKey ? `${folder}/${id}.thumb.webp` : null
	const [row] = await tx
		.insert(uploads)
		.values({
			id,
			ownerId,
			purpose: file.purpose,
			mimeType: file.mimeType,
			byteSize: file.byteSize,
			sha256: file.sha256,
			storageKey,
			thumbnailKey,
			width: file.width,
			height: file.height,
			variantWidths: file.variantWidths,
			originalName: file.originalName,
			heldSince,
		})
		.returning()
	await afterCommit(tx, async () => {
		// The original last: once it is there, so is everything made from it.
		await promoteVariants(file.stagedVariants, storageKey)
		if (file.stagedThumbnailKey && thumbnailKey) await promote(file.stagedThumbnailKey, thumbnailKey, THUMBNAIL_TYPE)
		await promote(file.stagedKey, storageKey, file.mimeType)
	})
	return row!
}

/**
 * Keeps a checked file of a form that failed on another field, so nobody picks the same photos
 * again: stored at once, held for its owner only (findViewableUpload), until the form is sent
 * again or the clean-up job forgets it. An owner holds at most MAX_HELD_PER_OWNER files; older
 * ones are let go, so failing forms on purpose cannot fill the store.
 */
export async function holdUpload(file: PreparedUpload, ownerId: string | null, within?: DbOrTx): Promise<Upload> {
	const hold = async (tx: DbOrTx) => {
		const upload = await insertUpload(tx, file, ownerId, new Date())
		// Without an owner (a widget request's photos waiting for its link, decision 0153), the
		// request's own daily limit bounds them; nobody may see them until they are claimed.
		if (ownerId) {
			await queryRows(
				tx,
				sql`delete from uploads where id in (
				      select id from uploads where owner_id = ${ownerId} and held_since is not null
				      order by held_since desc, id offset ${MAX_HELD_PER_OWNER})`,
			)
		}
		return upload
	}
	return within ? hold(within) : transaction(hold)
}

/**
 * Gives held files without an owner to the account that now has them (a widget request's photos
 * once its link is opened), in the caller's transaction, so that the owner's save claims them.
 * Answers the ids still held: a file the clean-up forgot meanwhile is left out.
 */
export async function adoptHeldUploads(tx: DbOrTx, ids: string[], ownerId: string): Promise<string[]> {
	if (ids.length === 0) return []
	const rows = await tx
		.update(uploads)
		.set({ ownerId })
		.where(and(inArray(uploads.id, ids), isNull(uploads.ownerId), isNotNull(uploads.heldSince)))
		.returning({ id: uploads.id })
	return ids.filter((id) => rows.some((row) => row.id === id))
}

/** More than any form holds (the workshop profile: a logo, eight photos and a document). */
export const MAX_HELD_PER_OWNER = 24
const HELD_MAX_AGE_MS = 24 * 60 * 60 * 1000

/** The owner's held files of one purpose among `ids`; others' files, and files no longer held, are left out. */
export async function findHeldUploads(ownerId: string, purpose: UploadPurpose, ids: string[]): Promise<Upload[]> {
	if (ids.length === 0) return []
	const rows = await db
		.select()
		.from(uploads)
		.where(and(inArray(uploads.id, ids), eq(uploads.ownerId, ownerId), eq(uploads.purpose, purpose), isNotNull(uploads.heldSince)))
	// In the order the form lists them.
	return ids.flatMap((id) => rows.find((row) => row.id === id) ?? [])
}

/** A held file taken into use in the caller's transaction; gone (let go, or used already) it is a form error. */
async function claimHeldUpload(tx: DbOrTx, file: HeldUpload, ownerId: string | null): Promise<Upload> {
	const [row] = await tx
		.update(uploads)
		.set({ heldSince: null })
		.where(
			and(
				eq(uploads.id, file.heldUploadId),
				ownerId ? eq(uploads.ownerId, ownerId) : isNull(uploads.ownerId),
				eq(uploads.purpose, file.purpose),
				isNotNull(uploads.heldSince),
			),
		)
		.returning()
	if (!row) throw new DomainError('common:upload.heldGone', 409)
	return row
}

/** Held files a day old are forgotten; the clean-up deletes their files once no row names them. */
export async function forgetOldHeldUploads(now = new Date()) {
	const rows = await db
		.delete(uploads)
		.where(and(isNotNull(uploads.heldSince), lt(uploads.heldSince, new Date(now.getTime() - HELD_MAX_AGE_MS))))
		.returning({ id: uploads.id })
	return rows.length
}

/** Checks one file by its content and stores it (prepareUpload, then savePreparedUpload). */
export async function storeUpload(
	tx: DbOrTx,
	input: { bytes: Uint8Array; purpose: UploadPurpose; ownerId?: string | null; originalName?: string | null },
): Promise<Upload> {
	const file = await prepareUpload(input)
	try {
		return await savePreparedUpload(tx, file, input.ownerId)
	} catch (error) {
		await discardPrepared([file])
		throw error
	}
}

/** Deletes prepared files that were not stored; a promoted one is no longer staged, so it stays. */
export async function discardPrepared(files: PreparedUpload[]) {
	await discardStaged(files.flatMap(stagedKeysOf))
}

const STAGED_MAX_AGE_MS = 60 * 60 * 1000
const UNREFERENCED_MIN_AGE_MS = 24 * 60 * 60 * 1000
const BATCH = 500
const UPLOAD_ID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\./

/**
 * The clean-up job: deletes staged files older than an hour (a form that failed, a transaction
 * rolled back) and stored files older than a day that no `uploads` row names. The store is swept
 * only by the database it belongs to (its `.owner`), so a database sharing the folder or bucket by
 * mistake (a test run on a developer's DATA_DIR) never deletes another's files. `root`: a local
 * store and its staging area in another folder (tests); `store`: another store (tests).
 */
export async function cleanUpStoredFiles(options: { root?: string; store?: FileStore; now?: Date } = {}) {
	const root = options.root ?? storageRoot()
	const store = options.store ?? (options.root ? localFileStore(options.root) : getFileStore())
	const now = (options.now ?? new Date()).getTime()
	const result = { staged: 0, unreferenced: 0 }
	for await (const entry of listStagedFiles(root)) {
		if (now - entry.modifiedAt.getTime() > STAGED_MAX_AGE_MS) {
			await deleteStagedFile(entry.key, root)
			result.staged++
		}
	}
	const owner = await databaseName()
	if ((await store.owner(owner)) !== owner) {
		logger.warn('stored files not swept: the store belongs to another database', { store: store.location })
		return result
	}
	const batch: StoredFileEntry[] = []
	for await (const entry of store.list()) {
		if (now - entry.modifiedAt.getTime() <= UNREFERENCED_MIN_AGE_MS) continue
		batch.push(entry)
		if (batch.length >= BATCH) result.unreferenced += await deleteUnreferenced(store, batch.splice(0))
	}
	if (batch.length) result.unreferenced += await deleteUnreferenced(store, batch)
	return result
}

async function deleteUnreferenced(store: FileStore, entries: StoredFileEntry[]) {
	const keys = entries.map((entry) => entry.key)
	const ids = keys.flatMap((key) => UPLOAD_ID.exec(key.split('/').pop()!)?.[1] ?? [])
	const rows = await db
		.select({ storageKey: uploads.storageKey, thumbnailKey: uploads.thumbnailKey, variantWidths: uploads.variantWidths })
		.from(uploads)
		.where(ids.length ? or(inArray(uploads.storageKey, keys), inArray(uploads.id, ids)) : inArray(uploads.storageKey, keys))
	// Data exports (decision 0111) are named by their own rows.
	const exports = await db.select({ storageKey: dataExports.storageKey }).from(dataExports).where(inArray(dataExports.storageKey, keys))
	const referenced = new Set([...rows.flatMap((row) => [row.storageKey, row.thumbnailKey, ...variantKeysOf(row)]), ...exports.map((row) => row.storageKey)])
	let deleted = 0
	for (const key of keys) {
		if (referenced.has(key)) continue
		await store.remove(key)
		deleted++
	}
	return deleted
}

async function databaseName() {
	const connection = getConnection()
	if (connection.kind === 'pglite') return connection.target
	const [row] = await queryRows<{ name: string }>(db, sql`select current_database() as name`)
	return `postgres ${row!.name}`
}

/**
 * Forgets stored files that nothing shows any more (a removed photo, a replaced logo): their rows
 * go in the caller's transaction, so `/uploads/{id}` answers 404 at once; the files themselves are
 * deleted by the clean-up job once no row names them.
 */
export async function forgetUploads(tx: DbOrTx, ids: Array<string | null | undefined>) {
	const known = [...new Set(ids.filter((id): id is string => Boolean(id)))]
	if (known.length) await tx.delete(uploads).where(inArray(uploads.id, known))
}

/**
 * Images stored before uploads were re-encoded (issue 13) still carry their metadata (the EXIF
 * position, the author): each is re-encoded like a new upload, in place under the same key, and
 * its row updated. A few per run, so the job never holds the server up; one that cannot be read
 * is left as it is and logged.
 */
export async function stripLegacyImages(limit = 20): Promise<{ stripped: number; unreadable: number }> {
	const rows = await db.select().from(uploads).where(eq(uploads.metadataStripped, false)).limit(limit)
	const result = { stripped: 0, unreadable: 0 }
	for (const row of rows) {
		const stored = await openStoredFile(row.storageKey)
		const raw = newStagingKey('upload')
		let prepared: PreparedUpload | null = null
		try {
			if (stored) {
				await writeStaged(raw, stored.stream())
				prepared = await prepareUpload({ stagedKey: raw, purpose: row.purpose, originalName: row.originalName })
			}
		} catch (error) {
			if (!(error instanceof UploadRejected)) throw error
		} finally {
			await discardStaged([raw])
		}
		if (!prepared) {
			logger.warn('a stored image could not be re-encoded', { uploadId: row.id })
			await db.update(uploads).set({ metadataStripped: true }).where(eq(uploads.id, row.id))
			result.unreadable++
			continue
		}
		const file = prepared
		await transaction(async (tx) => {
			await tx
				.update(uploads)
				.set({
					byteSize: file.byteSize,
					sha256: file.sha256,
					width: file.width,
					height: file.height,
					variantWidths: file.variantWidths,
					metadataStripped: true,
				})
				.where(eq(uploads.id, row.id))
			await afterCommit(tx, async () => {
				await promoteVariants(file.stagedVariants, row.storageKey)
				await promote(file.stagedKey, row.storageKey, file.mimeType)
				if (file.stagedThumbnailKey) await promote(file.stagedThumbnailKey, row.thumbnailKey ?? `${row.storageKey}.thumb.webp`, THUMBNAIL_TYPE)
			})
		})
		if (!row.thumbnailKey && file.stagedThumbnailKey) {
			await db.update(uploads).set({ thumbnailKey: `${row.storageKey}.thumb.webp` }).where(eq(uploads.id, row.id))
		}
		result.stripped++
	}
	return result
}

/**
 * Images stored before their smaller copies were made (issue 18) get them: a few per run, from
 * the stored image (already re-encoded: images still waiting for that are left to
 * stripLegacyImages, which makes their copies too). The row names the copies only once they are
 * staged, and they move in after it commits; a row deleted meanwhile gets none. An image that
 * cannot be read is logged and given none: its page shows the thumbnail or the original.
 */
export async function makeMissingVariants(limit = 20): Promise<{ made: number; unreadable: number }> {
	const rows = await db
		.select()
		.from(uploads)
		.where(and(isNull(uploads.variantWidths), eq(uploads.metadataStripped, true)))
		.limit(limit)
	const result = { made: 0, unreadable: 0 }
	for (const row of rows) {
		if (!row.mimeType.startsWith('image/')) {
			await db.update(uploads).set({ variantWidths: [] }).where(eq(uploads.id, row.id))
			continue
		}
		// Every re-encoded image has its dimensions recorded: one without is not read at all.
		const stored = row.width ? await openStoredFile(row.storageKey) : null
		const raw = newStagingKey('upload')
		let variants: StagedVariant[] = []
		try {
			if (stored && row.width) {
				await writeStaged(raw, stored.stream())
				variants = stagedVariantsFor(row.width)
				await makeVariants(stagedPath(raw), variants)
			}
		} catch (error) {
			await discardStaged(variants.map((variant) => variant.stagedKey))
			variants = []
			if (!(error instanceof UploadRejected)) throw error
		} finally {
			await discardStaged([raw])
		}
		if (!variants.length) {
			logger.warn('no smaller copies could be made of a stored image', { uploadId: row.id })
			await db.update(uploads).set({ variantWidths: [] }).where(and(eq(uploads.id, row.id), isNull(uploads.variantWidths)))
			result.unreadable++
			continue
		}
		const staged = variants
		const recorded = await transaction(async (tx) => {
			const updated = await tx
				.update(uploads)
				.set({ variantWidths: widthsOf(staged) })
				.where(and(eq(uploads.id, row.id), isNull(uploads.variantWidths)))
				.returning({ id: uploads.id })
			if (updated.length) await afterCommit(tx, () => promoteVariants(staged, row.storageKey))
			return updated.length > 0
		})
		if (recorded) result.made++
		else await discardStaged(staged.map((variant) => variant.stagedKey))
	}
	return result
}
