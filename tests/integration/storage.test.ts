import { count } from 'drizzle-orm'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { uploads } from '~/db/schema'
import { db } from '~/db/db.server'
import { readStoredFile, sniffMimeType, storeUpload, UploadRejected } from '~/uploads/storage.server'

const png = () => sharp({ create: { width: 800, height: 600, channels: 3, background: '#0b3d91' } }).png().toBuffer()
const uploadCount = async () => (await db.select({ n: count() }).from(uploads))[0]!.n

describe('stored uploads', () => {
	test('are checked by content and images get a thumbnail', async () => {
		const stored = await storeUpload(db, { bytes: await png(), purpose: 'request_image', originalName: 'car.png' })
		expect(stored.mimeType).toBe('image/png')
		expect([stored.width, stored.height]).toEqual([800, 600])
		const thumbnail = await sharp(await readStoredFile(stored.thumbnailKey!)).metadata()
		expect(thumbnail.format).toBe('webp')
		expect(thumbnail.width).toBe(480)
	})

	test('refuse a program renamed to .png, and store nothing', async () => {
		const before = await uploadCount()
		const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(1024, 0x90)])
		expect(sniffMimeType(exe)).toBeNull()
		await expect(storeUpload(db, { bytes: exe, purpose: 'request_image', originalName: 'photo.png' })).rejects.toBeInstanceOf(UploadRejected)
		expect(await uploadCount()).toBe(before)
	})

	test('refuse an image where a PDF is required, and a truncated image', async () => {
		await expect(storeUpload(db, { bytes: await png(), purpose: 'offer_attachment' })).rejects.toMatchObject({ reason: 'wrongType' })
		const truncated = (await png()).subarray(0, 40)
		await expect(storeUpload(db, { bytes: truncated, purpose: 'workshop_photo' })).rejects.toMatchObject({ reason: 'unreadable' })
	})
})
