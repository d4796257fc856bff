import { createHash, randomUUID } from 'node:crypto'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { uploads, type uploadPurposes } from '~/db/schema'
import { type DbOrTx } from './db.server'
import { getEnv } from './env.server'

export type UploadPurpose = (typeof uploadPurposes)[number]
export type Upload = typeof uploads.$inferSelect

/** What each kind of upload may be, by content (spec §5, §9). */
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const
const PDF_TYPES = ['application/pdf'] as const
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
}

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024
const THUMBNAIL_WIDTH = 480
const extensions: Record<string, string> = {
	'image/png': 'png',
	'image/jpeg': 'jpg',
	'image/webp': 'webp',
	'application/pdf': 'pdf',
}

export class UploadRejected extends Error {
	constructor(
		/** A translation key under `common:upload.*`. */
		public readonly reason: 'tooLarge' | 'wrongType' | 'unreadable' | 'empty',
	) {
		super(`upload rejected: ${reason}`)
	}
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

export function storageRoot() {
	const { dataDir } = getEnv()
	return dataDir.startsWith('memory://')
		? path.join(os.tmpdir(), 'autohub-uploads')
		: path.join(dataDir, 'uploads')
}

function resolveKey(key: string) {
	const root = storageRoot()
	const full = path.resolve(root, key)
	if (!full.startsWith(root + path.sep)) throw new Error('storage key escapes the storage root')
	return full
}

async function writeAtomically(key: string, bytes: Uint8Array) {
	const full = resolveKey(key)
	await fs.mkdir(path.dirname(full), { recursive: true })
	const temporary = `${full}.${randomUUID()}.tmp`
	await fs.writeFile(temporary, bytes)
	await fs.rename(temporary, full)
}

export async function readStoredFile(key: string): Promise<Buffer> {
	return fs.readFile(resolveKey(key))
}

export type PreparedUpload = {
	bytes: Uint8Array
	purpose: UploadPurpose
	mimeType: string
	width: number | null
	height: number | null
	thumbnail: Buffer | null
	originalName: string | null
}

/**
 * Checks a file by its content, writing nothing: the first bytes must be a type the purpose
 * allows, and an image must decode (it also gets its thumbnail). Throws UploadRejected.
 * Check every file of a form first, then store them, so a bad file stores nothing.
 */
export async function prepareUpload(input: {
	bytes: Uint8Array
	purpose: UploadPurpose
	originalName?: string | null
}): Promise<PreparedUpload> {
	const { bytes, purpose } = input
	if (bytes.byteLength === 0) throw new UploadRejected('empty')
	if (bytes.byteLength > MAX_UPLOAD_BYTES) throw new UploadRejected('tooLarge')
	const mimeType = sniffMimeType(bytes)
	if (!mimeType || !allowedTypes[purpose].includes(mimeType)) throw new UploadRejected('wrongType')
	let width: number | null = null
	let height: number | null = null
	let thumbnail: Buffer | null = null
	if (mimeType.startsWith('image/')) {
		try {
			// Decoding proves it is a real image, not just the right first bytes.
			const image = sharp(bytes, { failOn: 'error' })
			const meta = await image.metadata()
			width = meta.width ?? null
			height = meta.height ?? null
			thumbnail = await image
				.rotate()
				.resize({ width: THUMBNAIL_WIDTH, withoutEnlargement: true })
				.webp({ quality: 78 })
				.toBuffer()
		} catch {
			throw new UploadRejected('unreadable')
		}
	}
	return { bytes, purpose, mimeType, width, height, thumbnail, originalName: input.originalName?.slice(0, 200) ?? null }
}

/** Writes a checked file under DATA_DIR/uploads and records it. */
export async function savePreparedUpload(tx: DbOrTx, file: PreparedUpload, ownerId?: string | null): Promise<Upload> {
	const id = randomUUID()
	const now = new Date()
	const folder = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`
	const storageKey = `${folder}/${id}.${extensions[file.mimeType]}`
	const thumbnailKey = file.thumbnail ? `${folder}/${id}.thumb.webp` : null
	if (file.thumbnail && thumbnailKey) await writeAtomically(thumbnailKey, file.thumbnail)
	await writeAtomically(storageKey, file.bytes)
	const [row] = await tx
		.insert(uploads)
		.values({
			id,
			ownerId: ownerId ?? null,
			purpose: file.purpose,
			mimeType: file.mimeType,
			byteSize: file.bytes.byteLength,
			sha256: createHash('sha256').update(file.bytes).digest('hex'),
			storageKey,
			thumbnailKey,
			width: file.width,
			height: file.height,
			originalName: file.originalName,
		})
		.returning()
	return row!
}

/** Checks one file by its content and stores it (prepareUpload, then savePreparedUpload). */
export async function storeUpload(
	tx: DbOrTx,
	input: { bytes: Uint8Array; purpose: UploadPurpose; ownerId?: string | null; originalName?: string | null },
): Promise<Upload> {
	return savePreparedUpload(tx, await prepareUpload(input), input.ownerId)
}
