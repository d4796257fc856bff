import { createHash, randomUUID } from 'node:crypto'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { and, eq, inArray, isNotNull } from 'drizzle-orm'
import sharp from 'sharp'
import { beforeAll, describe, expect, test } from 'vitest'
import { cities, paymentMethods, spareParts, uploads, workshopPhotos, workshops } from '~/db/schema'
import { getFixedT } from '~/i18n/i18n.server'
import { action as profileAction } from '~/routes/_app.workshop-profile'
import { loader as uploadLoader } from '~/routes/uploads.$id'
import { commitCsrfToken } from '~/utils/csrf.server'
import { db, transaction } from '~/db/db.server'
import { resetEnvCache } from '~/utils/env.server'
import { BadRequest } from '~/utils/failures.server'
import { storageRoot } from '~/uploads/file-store.server'
import { translateMessage } from '~/utils/messages'
import { decodeId, encodeId } from '~/utils/public-id'
import { type HeldFile } from '~/uploads/upload-url'
import { MAX_FILES_PER_FORM } from '~/uploads/multipart.server'
import {
	cleanUpStoredFiles,
	discardPrepared,
	forgetOldHeldUploads,
	holdUpload,
	MAX_HELD_PER_OWNER,
	MAX_UPLOAD_BYTES,
	prepareUpload,
	readStoredFile,
	savePreparedUpload,
	storeUpload,
	stripLegacyImages,
	UploadRejected,
	variantKeysOf,
} from '~/uploads/storage.server'
import { createCustomer, signedInRequest } from '#tests/support/accounts'
import { stagedFiles, storedFiles } from '#tests/support/local-store'
import { referenceData, workshopOffering } from '#tests/support/flow'
import { ROUTER_ARGS } from '#tests/support/router-args'

// On a PostgreSQL server the storage root would be ./data/uploads, shared with other test files
// (and a developer's data); this file counts the files it leaves, so it gets a folder of its own.
if (process.env.DATABASE_URL) {
	process.env.DATA_DIR = await fs.mkdtemp(path.join(os.tmpdir(), 'autohub-uploads-test-'))
	resetEnvCache()
}

const canvas = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#2e86c1' } })
const jpeg = (width = 64, height = 48) => canvas(width, height).jpeg().toBuffer()
const png = (width = 64, height = 48) => canvas(width, height).png().toBuffer()
const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')
const gpsExif = {
	IFD0: { Artist: 'Someone', Copyright: 'x' },
	IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '59/1 26/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '24/1 45/1 0/1' },
}
/** The tag that points to the GPS block, in either byte order. */
const hasGps = (exif: Buffer) => exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]))

async function storedMetadata(storageKey: string) {
	return sharp(await readStoredFile(storageKey)).metadata()
}

/** A PNG that claims 16000 × 16000 pixels in 31 KB: one bit per pixel, all zero, deflated. */
function hugePng(side = 16000) {
	const crc32 = (bytes: Buffer) => {
		let crc = 0xffffffff
		for (const byte of bytes) {
			crc ^= byte
			for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1
		}
		return (crc ^ 0xffffffff) >>> 0
	}
	const chunk = (type: string, data: Buffer) => {
		const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
		const length = Buffer.alloc(4)
		length.writeUInt32BE(data.length)
		const crc = Buffer.alloc(4)
		crc.writeUInt32BE(crc32(body))
		return Buffer.concat([length, body, crc])
	}
	const header = Buffer.alloc(13)
	header.writeUInt32BE(side, 0)
	header.writeUInt32BE(side, 4)
	header[8] = 1 // bit depth
	header[9] = 0 // greyscale
	const rows = Buffer.alloc((1 + side / 8) * side)
	return Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk('IHDR', header),
		chunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
		chunk('IEND', Buffer.alloc(0)),
	])
}

describe('stored images carry no metadata', () => {
	test('a JPEG loses its EXIF GPS, author and copyright, and stays a JPEG', async () => {
		const input = await canvas(640, 480).jpeg().withExif(gpsExif).toBuffer()
		const before = await sharp(input).metadata()
		expect(before.exif).toBeDefined()
		expect(before.exif!.includes('Someone')).toBe(true)
		expect(hasGps(before.exif!)).toBe(true)

		const stored = await storeUpload(db, { bytes: input, purpose: 'request_image', originalName: 'car.jpg' })
		const file = await readStoredFile(stored.storageKey)
		const after = await sharp(file).metadata()
		expect(after.format).toBe('jpeg')
		expect(stored.mimeType).toBe('image/jpeg')
		expect(stored.storageKey).toMatch(/\.jpg$/)
		expect(after.exif).toBeUndefined()
		expect([after.icc, after.xmp, after.iptc]).toEqual([undefined, undefined, undefined])
		expect(file.includes('Someone')).toBe(false)
		// The row describes the stored file, not the upload.
		expect(stored.byteSize).toBe(file.byteLength)
		expect(stored.sha256).toBe(createHash('sha256').update(file).digest('hex'))
		expect([stored.width, stored.height]).toEqual([640, 480])
	})

	test('an image stored before this rule is re-encoded in place by the clean-up job', async () => {
		const withGps = await canvas(800, 600).jpeg().withExif(gpsExif).toBuffer()
		const id = randomUUID()
		const storageKey = `legacy/${id}.jpg`
		const file = path.join(storageRoot(), storageKey)
		await fs.mkdir(path.dirname(file), { recursive: true })
		await fs.writeFile(file, withGps)
		await db.insert(uploads).values({
			id,
			purpose: 'workshop_photo',
			mimeType: 'image/jpeg',
			byteSize: withGps.byteLength,
			sha256: 'old',
			storageKey,
			metadataStripped: false,
		})
		expect((await stripLegacyImages()).stripped).toBeGreaterThanOrEqual(1)
		const [row] = await db.select().from(uploads).where(eq(uploads.id, id))
		const stored = await readStoredFile(storageKey)
		expect((await sharp(stored).metadata()).exif).toBeUndefined()
		expect(stored.includes('Someone')).toBe(false)
		expect(row).toMatchObject({ metadataStripped: true, byteSize: stored.byteLength, width: 800, height: 600 })
		expect(row!.sha256).toBe(createHash('sha256').update(stored).digest('hex'))
		expect(row!.thumbnailKey).toBeTruthy()
		// Its smaller copies are made with it, next to it.
		expect(row!.variantWidths).toEqual([160, 320, 640, 800])
		for (const key of variantKeysOf(row!)) expect(key.startsWith(`legacy/${id}.w`)).toBe(true)
		expect((await storedMetadata(`legacy/${id}.w640.avif`)).format).toBe('heif')
		// Done once: the next run has nothing to do for it.
		expect((await stripLegacyImages()).stripped).toBe(0)
	})

	test('a PNG and a WebP lose their EXIF, ICC profile and XMP, and keep their format', async () => {
		const xmp = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>'
		for (const format of ['png', 'webp'] as const) {
			const input = await canvas(320, 200)[format]().withMetadata({ icc: 'p3' }).withExif(gpsExif).withXmp(xmp).toBuffer()
			const before = await sharp(input).metadata()
			expect([Boolean(before.exif), Boolean(before.icc), Boolean(before.xmp)]).toEqual([true, true, true])
			const stored = await storeUpload(db, { bytes: input, purpose: 'workshop_photo' })
			const after = await storedMetadata(stored.storageKey)
			expect(after.format).toBe(format)
			expect(stored.mimeType).toBe(`image/${format}`)
			expect([after.exif, after.icc, after.xmp, after.iptc]).toEqual([undefined, undefined, undefined, undefined])
		}
	})

	test('an image turned by its EXIF orientation is stored upright', async () => {
		const input = await canvas(400, 300).jpeg().withMetadata({ orientation: 6 }).toBuffer()
		expect((await sharp(input).metadata()).orientation).toBe(6)
		const stored = await storeUpload(db, { bytes: input, purpose: 'workshop_logo' })
		const after = await storedMetadata(stored.storageKey)
		expect([after.width, after.height, after.orientation]).toEqual([300, 400, undefined])
		expect([stored.width, stored.height]).toEqual([300, 400])
	})
})

describe('image size', () => {
	test('a 4000 × 3000 image is stored at 2560 × 1920, its thumbnail at 480 wide', async () => {
		const stored = await storeUpload(db, { bytes: await jpeg(4000, 3000), purpose: 'ad_image' })
		expect([stored.width, stored.height]).toEqual([2560, 1920])
		const after = await storedMetadata(stored.storageKey)
		expect([after.width, after.height]).toEqual([2560, 1920])
		const thumbnail = await storedMetadata(stored.thumbnailKey!)
		expect([thumbnail.format, thumbnail.width]).toEqual(['webp', 480])
	})

	test('a 31 KB PNG of 16000 × 16000 pixels is refused by its pixel count, and leaves nothing staged', async () => {
		const bomb = hugePng()
		expect(bomb.byteLength).toBeLessThan(40_000)
		const staged = await stagedFiles()
		const error = await prepareUpload({ bytes: bomb, purpose: 'request_image' }).catch((e: unknown) => e)
		expect(error).toBeInstanceOf(UploadRejected)
		expect(error).toMatchObject({ reason: 'tooManyPixels' })
		expect(await stagedFiles()).toEqual(staged)
	})
})

describe('forms with files, through the workshop profile’s action', () => {
	let profile: Record<string, string | string[]>
	let workshop: Awaited<ReturnType<typeof workshopOffering>>
	let cookie: string
	let csrf: string

	beforeAll(async () => {
		const refs = await referenceData()
		const [city] = await db.select().from(cities).where(eq(cities.code, 'tartu'))
		const [part] = await db.select().from(spareParts)
		const [payment] = await db.select().from(paymentMethods)
		profile = {
			contactFirstName: 'Ülo',
			contactLastName: 'Õunapuu',
			workshopName: 'Õunapuu Garaaž',
			phone: '+372 5555 1111',
			email: 'info@ounapuu.example',
			state: 'Tartu maakond',
			cityId: city!.id,
			streetName: 'Ringtee 1',
			zipCode: '50105',
			serviceIds: [refs.tyres],
			carBrandIds: [refs.brandId],
			sparePartIds: [part!.id],
			paymentMethodIds: [payment!.id],
		}
		workshop = await workshopOffering([refs.tyres])
		const [token, csrfCookie] = await commitCsrfToken(new Request('http://localhost/'))
		csrf = token
		const signedIn = await signedInRequest(workshop.userId, 'http://localhost/workshop-profile')
		cookie = `${signedIn.request.headers.get('Cookie')}; ${csrfCookie!.split(';')[0]}`
	})

	type Part = { name: string; value: string } | { name: string; filename: string; bytes: Uint8Array; type?: string }
	const BOUNDARY = '----autohubTestBoundaryX7MA4YWxkTrZu0gW'

	const fieldParts = (values = profile): Part[] => [
		{ name: 'csrf', value: csrf },
		...Object.entries(values).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((item) => ({ name, value: item }))),
	]

	/** A multipart body written by hand: file names go into the header exactly as given. */
	function multipart(parts: Part[]) {
		const chunks: Buffer[] = []
		for (const part of parts) {
			const head =
				'filename' in part
					? `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type ?? 'application/octet-stream'}\r\n`
					: `Content-Disposition: form-data; name="${part.name}"\r\n`
			chunks.push(Buffer.from(`--${BOUNDARY}\r\n${head}\r\n`, 'utf8'), Buffer.from('filename' in part ? part.bytes : part.value), Buffer.from('\r\n'))
		}
		chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`))
		return Buffer.concat(chunks)
	}

	const post = (body: BodyInit, contentType: string | null = `multipart/form-data; boundary=${BOUNDARY}`) =>
		profileAction({
			request: new Request('http://localhost/workshop-profile', {
				method: 'POST',
				headers: { Cookie: cookie, ...(contentType ? { 'Content-Type': contentType } : {}) },
				body,
			}),
			params: {},
			...ROUTER_ARGS, context: {},
		})

	type Reply = {
		data: { result: { initialValue?: Record<string, unknown> }; fileErrors: Record<string, string[]>; held: Record<string, HeldFile[]> }
		init: { status: number } | null
	}
	const refusal = async (run: Promise<unknown>) => {
		const error = await run.catch((e: unknown) => e)
		expect(error).toBeInstanceOf(BadRequest)
		return (error as BadRequest).status
	}

	const namesOf = async (ids: string[]) => {
		const rows = await db.select({ id: uploads.id, name: uploads.originalName }).from(uploads).where(inArray(uploads.id, ids))
		return ids.map((id) => rows.find((row) => row.id === id)?.name)
	}

	test('file names with =, ;, quotes, non-ASCII letters or a path are read and stored', async () => {
		const response = (await post(
			multipart([
				...fieldParts(),
				{ name: 'logo', filename: 'ülo ÕUNAPUU.jpg', bytes: await jpeg(), type: 'image/jpeg' },
				{ name: 'photos', filename: 'front=left.png', bytes: await png(), type: 'image/png' },
				{ name: 'photos', filename: '\\"quoted\\".png', bytes: await png(), type: 'image/png' },
				{ name: 'photos', filename: 'C:\\fakepath\\x.png', bytes: await png(), type: 'image/png' },
				{ name: 'warrantyDocument', filename: 'a;b.pdf', bytes: pdf, type: 'application/pdf' },
			]),
		)) as Response
		expect(response.status).toBe(302)
		const [row] = await db.select().from(workshops).where(eq(workshops.id, workshop.workshopId))
		expect(await namesOf([row!.logoUploadId!, row!.warrantyDocumentUploadId!])).toEqual(['ülo ÕUNAPUU.jpg', 'a;b.pdf'])
		const photos = await db.select().from(workshopPhotos).where(eq(workshopPhotos.workshopId, workshop.workshopId)).orderBy(workshopPhotos.position)
		expect(await namesOf(photos.map((photo) => photo.uploadId))).toEqual(['front=left.png', '"quoted".png', 'x.png'])
		expect(await stagedFiles()).toEqual([])
		await db.delete(workshopPhotos).where(eq(workshopPhotos.workshopId, workshop.workshopId))
	})

	test('a form the platform builds (FormData) is read the same, quotes included', async () => {
		const form = new FormData()
		for (const part of fieldParts()) if ('value' in part) form.append(part.name, part.value)
		form.append('photos', new File([new Uint8Array(await png())], '"quoted".png', { type: 'image/png' }))
		form.append('photos', new File([new Uint8Array(await png())], 'a;b=c.png', { type: 'image/png' }))
		const response = (await post(form, null)) as Response
		expect(response.status).toBe(302)
		const photos = await db.select().from(workshopPhotos).where(eq(workshopPhotos.workshopId, workshop.workshopId)).orderBy(workshopPhotos.position)
		expect(await namesOf(photos.map((photo) => photo.uploadId))).toEqual(['"quoted".png', 'a;b=c.png'])
		await db.delete(workshopPhotos).where(eq(workshopPhotos.workshopId, workshop.workshopId))
	})

	test('a file over 5 MB is that field’s error (413); the other fields and the input are kept, the good file is held, not stored for the profile', async () => {
		const before = await storedFiles()
		const big = Buffer.concat([await png(), Buffer.alloc(MAX_UPLOAD_BYTES)])
		const reply = (await post(
			multipart([
				...fieldParts({ ...profile, workshopName: 'Suur Garaaž' }),
				{ name: 'photos', filename: 'big.png', bytes: big, type: 'image/png' },
				{ name: 'logo', filename: 'logo.png', bytes: await png(), type: 'image/png' },
			]),
		)) as unknown as Reply
		expect(reply.init?.status).toBe(413)
		expect(reply.data.fileErrors).toEqual({ photos: ['common:upload.tooLarge'] })
		expect(reply.data.result.initialValue).toMatchObject({ workshopName: 'Suur Garaaž', zipCode: '50105' })
		// The logo waits, held, for the form's next sending: its file, thumbnail and copies, and nothing else.
		expect(reply.data.held).toMatchObject({ photos: [], logo: [{ name: 'logo.png', image: true }], warrantyDocument: [] })
		const [held] = await db.select().from(uploads).where(eq(uploads.id, decodeId(reply.data.held.logo![0]!.id)!))
		expect(held).toMatchObject({ ownerId: workshop.userId, purpose: 'workshop_logo' })
		expect(held!.heldSince).toBeInstanceOf(Date)
		expect((await storedFiles()).filter((key) => !before.includes(key)).sort()).toEqual([held!.storageKey, held!.thumbnailKey!, ...variantKeysOf(held!)].sort())
		const [row] = await db.select().from(workshops).where(eq(workshops.id, workshop.workshopId))
		expect(row!.logoUploadId).not.toBe(held!.id)
		expect(await stagedFiles()).toEqual([])
		await db.delete(uploads).where(eq(uploads.id, held!.id))
	})

	test('files held by a form that failed on another field are its owner’s only, and sent again they are stored', async () => {
		const invalid = multipart([
			...fieldParts({ ...profile, workshopName: '' }),
			{ name: 'photos', filename: 'front.png', bytes: await png(), type: 'image/png' },
			{ name: 'photos', filename: 'back.jpg', bytes: await jpeg(), type: 'image/jpeg' },
		])
		const reply = (await post(invalid)) as unknown as Reply
		expect(reply.init?.status).toBe(400)
		expect(reply.data.fileErrors).toEqual({})
		const held = reply.data.held.photos!
		expect(held.map((file) => file.name)).toEqual(['front.png', 'back.jpg'])

		// A workshop's photo is public once it is on the profile; held, only its owner sees it, and no cache keeps it.
		const get = async (id: string, signedIn: boolean) => {
			const request = signedIn ? (await signedInRequest(workshop.userId, `http://localhost/uploads/${id}`)).request : new Request(`http://localhost/uploads/${id}`)
			return uploadLoader({ request, params: { id }, ...ROUTER_ARGS, context: {} }).catch((e: unknown) => e as Response)
		}
		expect((await get(held[0]!.id, false)).status).toBe(404)
		const own = await get(held[0]!.id, true)
		expect(own.status).toBe(200)
		expect(own.headers.get('Cache-Control')).toBe('private, max-age=3600')
		const stranger = await createCustomer()
		const other = await uploadLoader({
			request: (await signedInRequest(stranger.id, `http://localhost/uploads/${held[0]!.id}`)).request,
			params: { id: held[0]!.id },
			...ROUTER_ARGS, context: {},
		}).catch((e: unknown) => e as Response)
		expect(other.status).toBe(404)

		// Sent again with the boxes that keep them (and one new photo): all three on the profile, none held.
		const response = (await post(
			multipart([
				...fieldParts(),
				...held.map((file) => ({ name: 'photosHeld', value: file.id })),
				{ name: 'photos', filename: 'side.png', bytes: await png(), type: 'image/png' },
			]),
		)) as Response
		expect(response.status).toBe(302)
		const photos = await db.select().from(workshopPhotos).where(eq(workshopPhotos.workshopId, workshop.workshopId)).orderBy(workshopPhotos.position)
		expect(await namesOf(photos.map((photo) => photo.uploadId))).toEqual(['front.png', 'back.jpg', 'side.png'])
		expect(photos.slice(0, 2).map((photo) => photo.uploadId)).toEqual(held.map((file) => decodeId(file.id)))
		const rows = await db.select().from(uploads).where(inArray(uploads.id, photos.map((photo) => photo.uploadId)))
		expect(rows.map((upload) => upload.heldSince)).toEqual([null, null, null])
		expect((await get(held[0]!.id, false)).status).toBe(200)

		// Used once, a held id is no more: sent again it adds nothing.
		const twice = (await post(multipart([...fieldParts({ ...profile, workshopName: '' }), ...held.map((file) => ({ name: 'photosHeld', value: file.id }))]))) as unknown as Reply
		expect(twice.data.held.photos).toEqual([])
		await db.delete(workshopPhotos).where(eq(workshopPhotos.workshopId, workshop.workshopId))
	})

	test('another owner’s held file, or one held for another field, is ignored', async () => {
		const stranger = await createCustomer()
		const theirs = await holdUpload(await prepareUpload({ bytes: await png(), purpose: 'workshop_photo' }), stranger.id)
		const ownLogo = await holdUpload(await prepareUpload({ bytes: await png(), purpose: 'workshop_logo' }), workshop.userId)
		const reply = (await post(
			multipart([
				...fieldParts(),
				{ name: 'photosHeld', value: encodeId(theirs.id) },
				{ name: 'photosHeld', value: encodeId(ownLogo.id) },
				{ name: 'photosHeld', value: 'not-an-id' },
			]),
		)) as Response
		expect(reply.status).toBe(302)
		expect(await db.select().from(workshopPhotos).where(eq(workshopPhotos.workshopId, workshop.workshopId))).toEqual([])
		const after = await db.select().from(uploads).where(inArray(uploads.id, [theirs.id, ownLogo.id]))
		expect(after.map((upload) => upload.heldSince)).toEqual([expect.any(Date), expect.any(Date)])
		await db.delete(uploads).where(inArray(uploads.id, [theirs.id, ownLogo.id]))
	})

	test(`an owner holds at most ${MAX_HELD_PER_OWNER} files, and held files are forgotten after a day`, async () => {
		const owner = await createCustomer()
		const tiny = await png(8, 8)
		for (let i = 0; i < MAX_HELD_PER_OWNER + 2; i++) await holdUpload(await prepareUpload({ bytes: tiny, purpose: 'request_image' }), owner.id)
		const heldOf = () => db.select().from(uploads).where(and(eq(uploads.ownerId, owner.id), isNotNull(uploads.heldSince)))
		expect(await heldOf()).toHaveLength(MAX_HELD_PER_OWNER)
		await forgetOldHeldUploads(new Date(Date.now() + 23 * 60 * 60 * 1000))
		expect(await heldOf()).toHaveLength(MAX_HELD_PER_OWNER)
		await forgetOldHeldUploads(new Date(Date.now() + 25 * 60 * 60 * 1000))
		expect(await heldOf()).toEqual([])
	})

	test('an image over the pixel limit is that field’s error, in the reader’s words', async () => {
		const reply = (await post(multipart([...fieldParts(), { name: 'photos', filename: 'bomb.png', bytes: hugePng(), type: 'image/png' }]))) as unknown as Reply
		expect(reply.init?.status).toBe(400)
		const [error] = reply.data.fileErrors.photos!
		expect(translateMessage(getFixedT('en'), error!)).toBe('The image is too large in pixels (at most 50 megapixels).')
		expect(translateMessage(getFixedT('et'), error!)).toContain('50')
		expect(await stagedFiles()).toEqual([])
	})

	test('a refused file next to a good one leaves neither staged', async () => {
		const reply = (await post(
			multipart([
				...fieldParts(),
				{ name: 'logo', filename: 'logo.png', bytes: await png(), type: 'image/png' },
				{ name: 'warrantyDocument', filename: 'warranty.pdf', bytes: await png(), type: 'application/pdf' },
			]),
		)) as unknown as Reply
		expect(reply.data.fileErrors).toEqual({ warrantyDocument: ['common:upload.wrongType'] })
		expect(await stagedFiles()).toEqual([])
	})

	test(`more than ${MAX_FILES_PER_FORM} files is a 413`, async () => {
		const tiny = await png(8, 8)
		const many = Array.from({ length: MAX_FILES_PER_FORM + 1 }, (_, i) => ({ name: 'photos', filename: `p${i}.png`, bytes: tiny, type: 'image/png' }))
		expect(await refusal(post(multipart([...fieldParts(), ...many])))).toBe(413)
		expect(await stagedFiles()).toEqual([])
	})

	test('files over 40 MB together: the one that passes it is its field’s error (413), in the reader’s words, and nothing of it is kept', async () => {
		const before = [await storedFiles(), (await db.select({ id: uploads.id }).from(uploads)).length] as const
		// Eight photos just under 5 MB each (not images: their field's first error is the type), then
		// a warranty document that takes the form's files past 40 MB.
		const almost = Buffer.alloc(MAX_UPLOAD_BYTES - 1024, 1)
		const heavy = Array.from({ length: 8 }, (_, i) => ({ name: 'photos', filename: `h${i}.png`, bytes: almost }))
		const reply = (await post(
			multipart([
				...fieldParts({ ...profile, workshopName: 'Raske Garaaž' }),
				...heavy,
				{ name: 'warrantyDocument', filename: 'warranty.pdf', bytes: Buffer.concat([pdf, Buffer.alloc(2 * 1024 * 1024)]), type: 'application/pdf' },
			]),
		)) as unknown as Reply
		expect(reply.init?.status).toBe(413)
		expect(reply.data.fileErrors).toEqual({ photos: ['common:upload.wrongType'], warrantyDocument: [expect.stringContaining('common:upload.formTooLarge')] })
		const [error] = reply.data.fileErrors.warrantyDocument!
		expect(translateMessage(getFixedT('en'), error!)).toBe('The files are too large together (at most 40 MB in one form).')
		expect(translateMessage(getFixedT('et'), error!)).toBe('Failid on kokku liiga suured (ühes vormis kuni 40 MB).')
		expect(reply.data.result.initialValue).toMatchObject({ workshopName: 'Raske Garaaž' })
		expect(reply.data.held).toMatchObject({ photos: [], logo: [], warrantyDocument: [] })
		expect([await storedFiles(), (await db.select({ id: uploads.id }).from(uploads)).length]).toEqual(before)
		expect(await stagedFiles()).toEqual([])
	})

	test('a broken multipart body is a 400, another type a 415, and nothing stays staged', async () => {
		const whole = multipart([...fieldParts(), { name: 'photos', filename: 'cut.png', bytes: await png(400, 300), type: 'image/png' }])
		expect(await refusal(post(whole.subarray(0, whole.length - 200)))).toBe(400)
		expect(await refusal(post(Buffer.from(`--${BOUNDARY}\r\nthis is no header\r\n\r\nx\r\n--${BOUNDARY}--\r\n`)))).toBe(400)
		expect(await refusal(post(whole, 'multipart/form-data'))).toBe(400) // no boundary
		expect(await refusal(post('{"workshopName":"x"}', 'application/json'))).toBe(415)
		expect(await refusal(post('plain words', 'text/plain'))).toBe(415)
		expect(await stagedFiles()).toEqual([])
	})

	test('a urlencoded post to an upload form is read as a plain form', async () => {
		const form = new URLSearchParams()
		for (const part of fieldParts()) if ('value' in part) form.append(part.name, part.value)
		const response = (await post(form.toString(), 'application/x-www-form-urlencoded')) as Response
		expect(response.status).toBe(302)
	})
})

describe('nothing enters the store before its transaction commits', () => {
	test('a save that rolls back leaves no file and no row', async () => {
		const before = await storedFiles()
		const file = await prepareUpload({ bytes: await png(), purpose: 'workshop_photo' })
		let key = ''
		const error = await transaction(async (tx) => {
			const row = await savePreparedUpload(tx, file, null)
			key = row.storageKey
			// Inside the transaction the row exists, the file is not in the store yet.
			expect(await readStoredFile(row.storageKey).catch(() => null)).toBeNull()
			throw new Error('something later failed')
		}).catch((e: unknown) => e)
		expect(error).toMatchObject({ message: 'something later failed' })
		expect(await storedFiles()).toEqual(before)
		expect(await db.select().from(uploads).where(eq(uploads.storageKey, key))).toEqual([])
		await discardPrepared([file])
		expect(await stagedFiles()).toEqual([])
	})

	test('a committed save leaves exactly the file, its thumbnail and its smaller copies', async () => {
		const before = await storedFiles()
		const file = await prepareUpload({ bytes: await png(), purpose: 'workshop_photo' })
		const row = await transaction((tx) => savePreparedUpload(tx, file, null))
		const added = (await storedFiles()).filter((key) => !before.includes(key))
		expect(row.variantWidths).toEqual([64])
		expect(added.sort()).toEqual([row.storageKey, row.thumbnailKey!, ...variantKeysOf(row)].sort())
		expect(await stagedFiles()).toEqual([])
	})
})

describe('serving a stored file', () => {
	test('streams it whole, with its length, and the thumbnail on request', async () => {
		const stored = await storeUpload(db, { bytes: await jpeg(900, 600), purpose: 'workshop_photo' })
		const get = (query = '') =>
			uploadLoader({ request: new Request(`http://localhost/uploads/${encodeId(stored.id)}${query}`), params: { id: encodeId(stored.id) }, ...ROUTER_ARGS, context: {} })
		const response = await get()
		const body = Buffer.from(await response.arrayBuffer())
		expect(body.equals(await readStoredFile(stored.storageKey))).toBe(true)
		expect(response.headers.get('Content-Length')).toBe(String(body.byteLength))
		expect(response.headers.get('Content-Type')).toBe('image/jpeg')
		const thumbnail = await get('?variant=thumb')
		expect((await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata()).format).toBe('webp')
	})
})

describe('the clean-up job', () => {
	const hoursAgo = (hours: number) => new Date(Date.now() - hours * 60 * 60 * 1000)

	async function place(root: string, key: string, modifiedAt: Date, bytes: Uint8Array = Buffer.from('x')) {
		const full = path.join(root, key)
		await fs.mkdir(path.dirname(full), { recursive: true })
		await fs.writeFile(full, bytes)
		await fs.utimes(full, modifiedAt, modifiedAt)
	}
	const exists = (root: string, key: string) =>
		fs.access(path.join(root, key)).then(
			() => true,
			() => false,
		)

	test('deletes an old staged file and an old unreferenced file, and keeps referenced and recent ones', async () => {
		const root = await fs.mkdtemp(path.join(os.tmpdir(), 'autohub-cleanup-'))
		const referenced = await storeUpload(db, { bytes: await png(), purpose: 'workshop_photo' })
		await place(root, referenced.storageKey, hoursAgo(72), await readStoredFile(referenced.storageKey))
		await place(root, referenced.thumbnailKey!, hoursAgo(72), await readStoredFile(referenced.thumbnailKey!))
		const orphan = `2020/01/${randomUUID()}.png`
		const recentOrphan = `2020/01/${randomUUID()}.png`
		await place(root, orphan, hoursAgo(48))
		await place(root, recentOrphan, hoursAgo(2))
		await place(root, '.staging/old.upload', hoursAgo(2))
		await place(root, '.staging/new.upload', new Date())

		expect(await cleanUpStoredFiles({ root })).toEqual({ staged: 1, unreferenced: 1 })
		expect(await exists(root, '.staging/old.upload')).toBe(false)
		expect(await exists(root, orphan)).toBe(false)
		expect(await exists(root, '.staging/new.upload')).toBe(true)
		expect(await exists(root, recentOrphan)).toBe(true)
		expect(await exists(root, referenced.storageKey)).toBe(true)
		expect(await exists(root, referenced.thumbnailKey!)).toBe(true)
		await fs.rm(root, { recursive: true, force: true })
	})

	test('leaves the stored files of a root that belongs to another database', async () => {
		const root = await fs.mkdtemp(path.join(os.tmpdir(), 'autohub-cleanup-'))
		await fs.writeFile(path.join(root, '.owner'), 'postgres someone_else')
		const orphan = `2020/01/${randomUUID()}.png`
		await place(root, orphan, hoursAgo(48))
		await place(root, '.staging/old.upload', hoursAgo(2))
		expect(await cleanUpStoredFiles({ root })).toEqual({ staged: 1, unreferenced: 0 })
		expect(await exists(root, orphan)).toBe(true)
		await fs.rm(root, { recursive: true, force: true })
	})
})
