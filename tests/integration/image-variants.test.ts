import { randomUUID } from 'node:crypto'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { uploads } from '~/db/schema'
import { imageSourcesFor, uploadVersion } from '~/uploads/access.server'
import { loader as uploadLoader } from '~/routes/uploads.$id'
import { db } from '~/db/db.server'
import { resetEnvCache } from '~/utils/env.server'
import { storageRoot } from '~/uploads/file-store.server'
import { encodeId } from '~/utils/public-id'
import {
	cleanUpStoredFiles,
	holdUpload,
	makeMissingVariants,
	prepareUpload,
	readStoredFile,
	storeUpload,
	UploadRejected,
	variantKey,
	variantKeysOf,
	variantWidthsFor,
	type Upload,
} from '~/uploads/storage.server'
import { uploadUrl } from '~/uploads/upload-url'
import { createCustomer, signedInRequest } from '#tests/support/accounts'
import { stagedFiles, storedFiles } from '#tests/support/local-store'
import { ROUTER_ARGS } from '#tests/support/router-args'

// Counts the files it leaves: on a PostgreSQL server, a folder of its own (as uploads-hardening does).
if (process.env.DATABASE_URL) {
	process.env.DATA_DIR = await fs.mkdtemp(path.join(os.tmpdir(), 'autohub-variants-test-'))
	resetEnvCache()
}

/** A photo-like JPEG: a gradient with shapes, so the encoders have something to do. */
const photo = (width: number, height: number) =>
	sharp(
		Buffer.from(
			`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#0b3d91"/><stop offset="1" stop-color="#e8c547"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 3}" cy="${height / 2}" r="${height / 4}" fill="#c0392b"/></svg>`,
		),
	)
		.jpeg({ quality: 90 })
		.toBuffer()
const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')

const exists = (key: string) =>
	fs.access(path.join(storageRoot(), key)).then(
		() => true,
		() => false,
	)
const get = (upload: Pick<Upload, 'id'>, query: string, request = new Request(`http://localhost/uploads/${encodeId(upload.id)}${query}`)) =>
	uploadLoader({ request, params: { id: encodeId(upload.id) }, ...ROUTER_ARGS, context: {} }).catch((error: unknown) => {
		if (error instanceof Response) return error
		throw error
	})

describe('an image gets smaller copies in AVIF and WebP when it is stored', () => {
	test('a 1600 × 1000 photo: 160, 320, 640 and 1280 wide, each in both formats, next to it in the store', async () => {
		const stored = await storeUpload(db, { bytes: await photo(1600, 1000), purpose: 'workshop_photo' })
		expect(stored.variantWidths).toEqual([160, 320, 640, 1280])
		const keys = variantKeysOf(stored)
		expect(keys).toHaveLength(8)
		for (const width of stored.variantWidths!) {
			for (const [format, sharpFormat] of [
				['avif', 'heif'],
				['webp', 'webp'],
			] as const) {
				const bytes = await readStoredFile(variantKey(stored.storageKey, width, format))
				const meta = await sharp(bytes).metadata()
				expect([meta.format, meta.width, meta.height]).toEqual([sharpFormat, width, Math.round((width * 1000) / 1600)])
				// Smaller than the image itself, or the copy would be no use.
				expect(bytes.byteLength).toBeLessThan(stored.byteSize)
			}
		}
	})

	test('never wider than the image: a 500 px logo gets 160, 320 and its own width; a 64 px icon one copy', async () => {
		expect(variantWidthsFor(500)).toEqual([160, 320, 500])
		expect(variantWidthsFor(64)).toEqual([64])
		expect(variantWidthsFor(2560)).toEqual([160, 320, 640, 1280])
		const icon = await storeUpload(db, { bytes: await photo(64, 64), purpose: 'site_favicon' })
		expect(icon.variantWidths).toEqual([64])
		expect((await sharp(await readStoredFile(variantKey(icon.storageKey, 64, 'avif'))).metadata()).width).toBe(64)
	})

	test('a PDF gets none', async () => {
		const before = await storedFiles()
		const stored = await storeUpload(db, { bytes: pdf, purpose: 'offer_attachment' })
		expect(stored.variantWidths).toEqual([])
		expect((await storedFiles()).filter((key) => !before.includes(key))).toEqual([stored.storageKey])
		expect((await imageSourcesFor([stored.id])).size).toBe(0)
	})

	test('a corrupt image is refused, and leaves nothing in the store or the staging area', async () => {
		const before = await storedFiles()
		const staged = await stagedFiles()
		const good = await photo(1600, 1000)
		// The right first bytes, the body cut off half way.
		const corrupt = good.subarray(0, Math.floor(good.byteLength / 2))
		const rows = (await db.select().from(uploads)).length
		await expect(storeUpload(db, { bytes: corrupt, purpose: 'workshop_photo' })).rejects.toBeInstanceOf(UploadRejected)
		await expect(prepareUpload({ bytes: Buffer.from('not an image at all'), purpose: 'workshop_photo' })).rejects.toMatchObject({ reason: 'wrongType' })
		expect(await storedFiles()).toEqual(before)
		expect(await stagedFiles()).toEqual(staged)
		expect((await db.select().from(uploads)).length).toBe(rows)
	})
})

describe('serving a copy', () => {
	test('with its type, and kept for good when its URL names its version', async () => {
		const stored = await storeUpload(db, { bytes: await photo(1600, 1000), purpose: 'workshop_photo' })
		const version = uploadVersion(stored)
		const avif = await get(stored, `?w=640&f=avif&v=${version}`)
		expect(avif.status).toBe(200)
		expect(avif.headers.get('Content-Type')).toBe('image/avif')
		expect(avif.headers.get('Cache-Control')).toBe('public, max-age=31536000, s-maxage=86400, immutable')
		const body = Buffer.from(await avif.arrayBuffer())
		expect(body.equals(await readStoredFile(variantKey(stored.storageKey, 640, 'avif')))).toBe(true)
		expect(avif.headers.get('Content-Length')).toBe(String(body.byteLength))
		const webp = await get(stored, '?w=1280&f=webp')
		expect([webp.status, webp.headers.get('Content-Type'), webp.headers.get('Cache-Control')]).toEqual([200, 'image/webp', 'public, max-age=86400'])
		// The URL the pages use is the one served.
		expect(uploadUrl(stored.id, { width: 640, format: 'avif', version })).toBe(`/uploads/${encodeId(stored.id)}?w=640&f=avif&v=${version}`)
	})

	test('a copy it does not have, or a bad parameter, is a 404, never an error', async () => {
		const stored = await storeUpload(db, { bytes: await photo(1600, 1000), purpose: 'workshop_photo' })
		const attachment = await storeUpload(db, { bytes: pdf, purpose: 'offer_attachment' })
		for (const query of ['?w=500&f=avif', '?w=2560&f=webp', '?w=640&f=gif', '?w=640', '?f=avif', '?w=abc&f=avif', '?w=-640&f=avif', '?w=640.0&f=webp', '?w=640&f=avif&v=stale', `?w=${'9'.repeat(400)}&f=avif`]) {
			expect([query, (await get(stored, query)).status]).toEqual([query, 404])
		}
		// Another upload's copies are not this one's; a PDF has none.
		expect((await get(attachment, '?w=640&f=avif')).status).toBe(404)
		expect((await get({ id: randomUUID() }, '?w=640&f=avif')).status).toBe(404)
	})

	test('only to those who may see the image itself', async () => {
		const owner = await createCustomer()
		const file = await prepareUpload({ bytes: await photo(800, 600), purpose: 'request_image' })
		// A held file is its owner's only.
		const held = await holdUpload(file, owner.id)
		expect(held.variantWidths).toEqual([160, 320, 640, 800])
		const url = `http://localhost/uploads/${encodeId(held.id)}?w=320&f=webp&v=${uploadVersion(held)}`
		expect((await get(held, '', new Request(url))).status).toBe(404)
		const stranger = await createCustomer()
		expect((await get(held, '', (await signedInRequest(stranger.id, url)).request)).status).toBe(404)
		const mine = await get(held, '', (await signedInRequest(owner.id, url)).request)
		expect([mine.status, mine.headers.get('Content-Type'), mine.headers.get('Cache-Control')]).toEqual([200, 'image/webp', 'private, max-age=3600, immutable'])
	})
})

describe('images stored before the copies', () => {
	/** Makes a stored image look as it did before issue 18: no copies, none named. */
	async function withoutCopies(upload: Upload) {
		for (const key of variantKeysOf(upload)) await fs.rm(path.join(storageRoot(), key))
		await db.update(uploads).set({ variantWidths: null }).where(eq(uploads.id, upload.id))
	}

	test('show their thumbnail meanwhile, and the clean-up job makes their copies, once', async () => {
		const stored = await storeUpload(db, { bytes: await photo(1200, 800), purpose: 'workshop_photo' })
		await withoutCopies(stored)
		expect((await imageSourcesFor([stored.id])).get(stored.id)).toMatchObject({ widths: [], thumbnail: true, width: 1200, height: 800 })
		expect((await get(stored, '?w=640&f=avif')).status).toBe(404)
		expect((await get(stored, '?variant=thumb')).headers.get('Content-Type')).toBe('image/webp')

		const result = await makeMissingVariants(1000)
		expect(result.made).toBeGreaterThanOrEqual(1)
		const [row] = await db.select().from(uploads).where(eq(uploads.id, stored.id))
		expect(row!.variantWidths).toEqual([160, 320, 640, 1200])
		for (const key of variantKeysOf(row!)) expect(await exists(key)).toBe(true)
		expect((await imageSourcesFor([stored.id])).get(stored.id)).toMatchObject({ widths: [160, 320, 640, 1200] })
		expect((await get(row!, '?w=640&f=avif')).status).toBe(200)
		expect(await stagedFiles()).toEqual([])
		expect(await makeMissingVariants(1000)).toEqual({ made: 0, unreadable: 0 })
	})

	test('one whose file is lost, or a PDF, is given none and not tried again', async () => {
		const lost = await storeUpload(db, { bytes: await photo(400, 300), purpose: 'workshop_photo' })
		await withoutCopies(lost)
		await fs.rm(path.join(storageRoot(), lost.storageKey))
		const attachment = await storeUpload(db, { bytes: pdf, purpose: 'offer_attachment' })
		await db.update(uploads).set({ variantWidths: null }).where(eq(uploads.id, attachment.id))
		expect(await makeMissingVariants(1000)).toEqual({ made: 0, unreadable: 1 })
		const rows = await db.select().from(uploads)
		expect(rows.find((row) => row.id === lost.id)!.variantWidths).toEqual([])
		expect(rows.find((row) => row.id === attachment.id)!.variantWidths).toEqual([])
		expect(await stagedFiles()).toEqual([])
	})
})

describe('the clean-up job and the copies', () => {
	test('keeps the copies a row names, and deletes those of an image no row names', async () => {
		const root = await fs.mkdtemp(path.join(os.tmpdir(), 'autohub-variants-cleanup-'))
		const place = async (key: string) => {
			const full = path.join(root, key)
			await fs.mkdir(path.dirname(full), { recursive: true })
			await fs.writeFile(full, 'x')
			const old = new Date(Date.now() - 48 * 60 * 60 * 1000)
			await fs.utimes(full, old, old)
		}
		const kept = await storeUpload(db, { bytes: await photo(800, 600), purpose: 'workshop_photo' })
		for (const key of [kept.storageKey, kept.thumbnailKey!, ...variantKeysOf(kept)]) await place(key)
		const gone = `2020/01/${randomUUID()}.jpg`
		const goneCopies = [variantKey(gone, 320, 'avif'), variantKey(gone, 320, 'webp')]
		for (const key of [gone, ...goneCopies]) await place(key)
		// A copy of a width the row does not name (made before a re-encoding) goes too.
		const stray = variantKey(kept.storageKey, 1280, 'avif')
		await place(stray)

		expect(await cleanUpStoredFiles({ root })).toEqual({ staged: 0, unreferenced: 4 })
		const left = async (key: string) =>
			fs.access(path.join(root, key)).then(
				() => true,
				() => false,
			)
		for (const key of [kept.storageKey, kept.thumbnailKey!, ...variantKeysOf(kept)]) expect([key, await left(key)]).toEqual([key, true])
		for (const key of [gone, ...goneCopies, stray]) expect([key, await left(key)]).toEqual([key, false])
		await fs.rm(root, { recursive: true, force: true })
	})
})
