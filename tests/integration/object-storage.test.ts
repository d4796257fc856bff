/**
 * Stored files in an S3-compatible bucket (S3_BUCKET, decision 0086), against a real S3 server
 * (s3rver) started here: uploads, serving through /uploads/{id}, a rolled-back save, the clean-up,
 * the demo images, and a bucket that cannot be reached.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { CreateBucketCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { eq } from 'drizzle-orm'
import S3rver from 's3rver'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loadDemoData } from '~/db/seed/demo-data.server'
import { uploads } from '~/db/schema'
import { loader as uploadLoader } from '~/routes/uploads.$id'
import { db, transaction } from '~/db/db.server'
import { resetEnvCache } from '~/utils/env.server'
import { getFileStore, s3FileStore, stagingDirectory, storageRoot, StoredFileMissing } from '~/uploads/file-store.server'
import { encodeId } from '~/utils/public-id'
import { cleanUpStoredFiles, discardPrepared, prepareUpload, readStoredFile, savePreparedUpload, storeUpload, variantKey, variantKeysOf } from '~/uploads/storage.server'
import { ROUTER_ARGS } from '#tests/support/router-args'

let server: S3rver
let directory: string
let client: S3Client
const bucket = `autohub-${randomUUID().slice(0, 8)}`

beforeAll(async () => {
	directory = await fs.mkdtemp(path.join(os.tmpdir(), 's3rver-'))
	server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory })
	const { port } = await server.run()
	const endpoint = `http://127.0.0.1:${port}`
	client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } })
	await client.send(new CreateBucketCommand({ Bucket: bucket }))
	Object.assign(process.env, {
		S3_BUCKET: bucket,
		S3_ENDPOINT: endpoint,
		S3_ACCESS_KEY_ID: 'S3RVER',
		S3_SECRET_ACCESS_KEY: 'S3RVER',
		S3_FORCE_PATH_STYLE: 'true',
	})
	resetEnvCache()
})

afterAll(async () => {
	for (const name of ['S3_BUCKET', 'S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE']) delete process.env[name]
	resetEnvCache()
	await server.close()
	await fs.rm(directory, { recursive: true, force: true })
})

const objectKeys = async () => {
	const keys: string[] = []
	let ContinuationToken: string | undefined
	do {
		const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken }))
		keys.push(...(page.Contents ?? []).map((object) => object.Key!))
		ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
	} while (ContinuationToken)
	return keys
}
/** Files on local disk outside the staging area: none, with a bucket. */
const localFiles = async () =>
	(await fs.readdir(storageRoot(), { recursive: true, withFileTypes: true }).catch(() => []))
		.filter((entry) => entry.isFile() && !path.join(entry.parentPath, entry.name).startsWith(stagingDirectory()) && !entry.name.startsWith('.'))
		.map((entry) => entry.name)
const photo = (width = 640) => sharp({ create: { width, height: 400, channels: 3, background: '#2a6' } }).jpeg().toBuffer()
const serve = (id: string, query = '', method = 'GET') =>
	uploadLoader({ params: { id: encodeId(id) }, request: new Request(`http://localhost/uploads/${encodeId(id)}${query}`, { method }), ...ROUTER_ARGS, context: {} }) as Promise<Response>

describe('stored files in an S3 bucket', () => {
	test('an upload goes to the bucket with its thumbnail, and is served through /uploads/{id} by streaming', async () => {
		const upload = await transaction(async (tx) => storeUpload(tx, { bytes: await photo(), purpose: 'workshop_photo', originalName: 'front.jpg' }))
		expect(await objectKeys()).toEqual(expect.arrayContaining([upload.storageKey, upload.thumbnailKey]))
		// Typed in the bucket too, for whoever reads it there (a CDN, a backup).
		const contentType = async (key: string) => (await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }))).ContentType
		expect(await contentType(upload.storageKey)).toBe('image/jpeg')
		expect(await contentType(upload.thumbnailKey!)).toBe('image/webp')
		// Its smaller copies too (issue 18), typed.
		expect(upload.variantWidths).toEqual([160, 320, 640])
		expect(await objectKeys()).toEqual(expect.arrayContaining(variantKeysOf(upload)))
		expect(await contentType(variantKey(upload.storageKey, 320, 'avif'))).toBe('image/avif')
		expect(await contentType(variantKey(upload.storageKey, 640, 'webp'))).toBe('image/webp')
		expect(await localFiles()).toEqual([])
		expect(await fs.readdir(stagingDirectory()).catch(() => [])).toEqual([])

		const bytes = await readStoredFile(upload.storageKey)
		expect(bytes.byteLength).toBe(upload.byteSize)
		expect((await sharp(bytes).metadata()).width).toBe(640)

		const response = await serve(upload.id)
		expect(response.status).toBe(200)
		expect(response.headers.get('Content-Type')).toBe('image/jpeg')
		expect(response.headers.get('Content-Length')).toBe(String(upload.byteSize))
		expect(response.headers.get('Cache-Control')).toMatch(/^public/)
		expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true)

		const thumbnail = await serve(upload.id, '?variant=thumb')
		expect(thumbnail.headers.get('Content-Type')).toBe('image/webp')
		expect((await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata()).width).toBe(480)
		const copy = await serve(upload.id, '?w=320&f=avif')
		expect([copy.status, copy.headers.get('Content-Type')]).toEqual([200, 'image/avif'])
		expect((await sharp(Buffer.from(await copy.arrayBuffer())).metadata()).width).toBe(320)
	})

	test('a save that rolls back leaves nothing in the bucket', async () => {
		const before = await objectKeys()
		const file = await prepareUpload({ bytes: await photo(300), purpose: 'workshop_photo' })
		const failed = await transaction(async (tx) => {
			const row = await savePreparedUpload(tx, file, null)
			// Inside the transaction the row exists, the object not yet.
			await expect(readStoredFile(row.storageKey)).rejects.toBeInstanceOf(StoredFileMissing)
			throw new Error('the save fails after the upload')
		}).catch((error: Error) => error)
		expect(failed).toMatchObject({ message: 'the save fails after the upload' })
		expect(await objectKeys()).toEqual(before)
		await discardPrepared([file])
		expect(await fs.readdir(stagingDirectory()).catch(() => [])).toEqual([])
	})

	test('a file the bucket lost is a 404, not an error', async () => {
		const upload = await transaction(async (tx) => storeUpload(tx, { bytes: await photo(200), purpose: 'workshop_photo' }))
		await getFileStore().remove(upload.storageKey)
		await expect(serve(upload.id)).rejects.toMatchObject({ status: 404 })
		await expect(readStoredFile(upload.storageKey)).rejects.toMatchObject({ code: 'ENOENT' })
	})

	test('the clean-up deletes objects no row names, a day on, and keeps the named ones', async () => {
		const kept = await transaction(async (tx) => storeUpload(tx, { bytes: await photo(220), purpose: 'workshop_photo' }))
		const orphan = `2026/01/${randomUUID()}.jpg`
		await client.send(new PutObjectCommand({ Bucket: bucket, Key: orphan, Body: 'left by a crash' }))

		expect((await cleanUpStoredFiles()).unreferenced).toBe(0) // too new yet
		expect(await objectKeys()).toContain(orphan)

		const inTwoDays = new Date(Date.now() + 2 * 24 * 60 * 60 * 1000)
		const result = await cleanUpStoredFiles({ now: inTwoDays })
		expect(result.unreferenced).toBeGreaterThanOrEqual(1)
		const left = await objectKeys()
		expect(left).not.toContain(orphan)
		expect(left).toEqual(expect.arrayContaining([kept.storageKey, kept.thumbnailKey, '.owner']))
	})

	test('a bucket that belongs to another database is not swept', async () => {
		const other = `autohub-other-${randomUUID().slice(0, 8)}`
		await client.send(new CreateBucketCommand({ Bucket: other }))
		await client.send(new PutObjectCommand({ Bucket: other, Key: '.owner', Body: 'postgres someone_else' }))
		await client.send(new PutObjectCommand({ Bucket: other, Key: `2026/01/${randomUUID()}.jpg`, Body: 'theirs' }))
		const store = s3FileStore({
			bucket: other,
			endpoint: process.env.S3_ENDPOINT,
			region: 'us-east-1',
			forcePathStyle: true,
			credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
		})
		expect(await cleanUpStoredFiles({ store, now: new Date(Date.now() + 3 * 24 * 60 * 60 * 1000) })).toMatchObject({ unreferenced: 0 })
		expect((await client.send(new ListObjectsV2Command({ Bucket: other }))).KeyCount).toBe(2)
	})

	test('a bucket that cannot be reached is named at start, with the variables to check', async () => {
		const store = s3FileStore({ bucket: 'no-such-bucket', endpoint: process.env.S3_ENDPOINT, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } })
		await expect(store.check()).rejects.toThrow(/no-such-bucket.*S3_BUCKET/)
		await expect(getFileStore().check()).resolves.toBeUndefined()
	})

	test('the demo data puts its images in the bucket', { timeout: 180_000 }, async () => {
		const earlier = new Set((await db.select({ id: uploads.id }).from(uploads)).map((row) => row.id))
		await loadDemoData()
		const rows = (await db.select().from(uploads)).filter((row) => !earlier.has(row.id))
		expect(rows.filter((row) => row.thumbnailKey).length).toBeGreaterThan(5)
		const keys = new Set(await objectKeys())
		for (const row of rows) {
			expect(keys.has(row.storageKey)).toBe(true)
			if (row.thumbnailKey) expect(keys.has(row.thumbnailKey)).toBe(true)
		}
		expect(await localFiles()).toEqual([])
		const [logo] = await db.select().from(uploads).where(eq(uploads.purpose, 'site_logo'))
		expect((await serve(logo!.id)).status).toBe(200)
	})
})
