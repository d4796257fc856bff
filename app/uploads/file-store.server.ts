import { randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { PassThrough, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type * as S3 from '@aws-sdk/client-s3'
import { getEnv } from '~/utils/env.server'
import { lazily, singleton } from '~/utils/singleton.server'

/**
 * The file store: every read, write, move and delete of a stored file goes through here. Files
 * arrive in the staging area (always local disk: sharp and the parser work on files) and enter
 * the store by `promote`, once the database row that names them has committed. The store is a
 * folder under DATA_DIR, or an S3-compatible bucket when S3_BUCKET is set (decision 0086): two
 * implementations of one `FileStore`, both streamed in and out.
 */

const STAGING = '.staging'

/** DATA_DIR/uploads; for an in-memory database a temporary folder of its own. */
export function storageRoot() {
	const { dataDir } = getEnv()
	if (!dataDir.startsWith('memory://')) return path.join(dataDir, 'uploads')
	const name = dataDir.slice('memory://'.length).replace(/[^\w-]/g, '_') || 'default'
	return path.join(os.tmpdir(), 'autohub-uploads', name)
}

export function stagingDirectory(root = storageRoot()) {
	return path.join(root, STAGING)
}

export function isStagingKey(key: string) {
	return key.startsWith(`${STAGING}/`)
}

function resolveKey(key: string, root = storageRoot()) {
	const full = path.resolve(root, key)
	if (!full.startsWith(root + path.sep)) throw new Error('storage key escapes the storage root')
	return full
}

/** A new, unused name in the staging area. */
export function newStagingKey(extension: string) {
	return `${STAGING}/${randomUUID()}.${extension}`
}

/** The staged file on local disk (staging is always local), for sharp and streaming reads. */
export function stagedPath(key: string) {
	if (!isStagingKey(key)) throw new Error('not a staging key')
	return resolveKey(key)
}

/** Writes a stream or bytes to the staging area; returns the number of bytes written. */
export async function writeStaged(key: string, source: Readable | Uint8Array): Promise<number> {
	const full = stagedPath(key)
	await fs.mkdir(path.dirname(full), { recursive: true })
	if (source instanceof Uint8Array) {
		await fs.writeFile(full, source)
		return source.byteLength
	}
	// Opened first, so a failed write (a broken body) can delete what it began.
	const handle = await fs.open(full, 'w')
	try {
		await pipeline(source, handle.createWriteStream())
	} catch (error) {
		await handle.close().catch(() => undefined)
		await fs.rm(full, { force: true }).catch(() => undefined)
		throw error
	}
	return (await fs.stat(full)).size
}

/**
 * Deletes staged files; one already gone (promoted, or never written) is no error, and one that
 * cannot be deleted now is left to the clean-up job rather than hiding the failure at hand.
 */
export async function discardStaged(keys: Iterable<string>) {
	await Promise.all([...keys].map((key) => fs.rm(stagedPath(key), { force: true }).catch(() => undefined)))
}

/** A stored file's size and a stream of it (opened when first asked for). */
export type StoredFile = { size: number; stream: () => Readable }
export type StoredFileEntry = { key: string; modifiedAt: Date }

export type FileStore = {
	/** For logs: where the files are. */
	readonly location: string
	/** Moves a staged file in under `key` (the staged copy is gone afterwards). */
	putStaged(stagedKey: string, key: string, contentType: string): Promise<void>
	open(key: string): Promise<StoredFile | null>
	/** Throws StoredFileMissing when there is no such file. */
	read(key: string): Promise<Buffer>
	/** A file already gone is no error. */
	remove(key: string): Promise<void>
	/** Every stored file; the staging area and the store's own dot files are left out. */
	list(): AsyncGenerator<StoredFileEntry>
	/** Which database the store belongs to, written by the first one to sweep it. */
	owner(claimant: string): Promise<string>
	/** Throws, saying why, when the store cannot be reached (checked at start). */
	check(): Promise<void>
}

/** A stored file that is not there (yet): a row committed before its file was moved in, or a lost one. */
export class StoredFileMissing extends Error {
	readonly code = 'ENOENT'
	constructor(key: string) {
		super(`no stored file ${key}`)
	}
}

/** The store this process uses, from the configuration; one S3 client per process. */
export function getFileStore(): FileStore {
	const env = getEnv()
	if (!env.S3_BUCKET) return localFileStore()
	return singleton(`file-store:s3:${env.S3_BUCKET}`, () =>
		s3FileStore({
			bucket: env.S3_BUCKET!,
			endpoint: env.S3_ENDPOINT,
			region: env.S3_REGION,
			forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
			credentials: env.S3_ACCESS_KEY_ID ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY! } : undefined,
		}),
	)
}

/** Moves a staged file to its key in the store. */
export async function promote(stagedKey: string, key: string, contentType: string) {
	await getFileStore().putStaged(stagedKey, key, contentType)
}

/** A stored file's size and a stream of it, or null when it is not there. */
export async function openStoredFile(key: string): Promise<StoredFile | null> {
	return getFileStore().open(key)
}

/** A whole stored file (e-mail attachments, tests); prefer openStoredFile for serving. */
export async function readStoredFile(key: string): Promise<Buffer> {
	return getFileStore().read(key)
}

/** Every staged file (the clean-up's first sweep), as keys with `/` separators. */
export async function* listStagedFiles(root = storageRoot()): AsyncGenerator<StoredFileEntry> {
	yield* walk(root, stagingDirectory(root))
}

export async function deleteStagedFile(key: string, root = storageRoot()) {
	await fs.rm(resolveKey(key, root), { force: true })
}

async function* walk(root: string, directory: string, skip?: (name: string) => boolean): AsyncGenerator<StoredFileEntry> {
	const entries = await fs.readdir(directory, { withFileTypes: true }).catch(() => [])
	for (const entry of entries) {
		if (skip?.(entry.name)) continue
		const full = path.join(directory, entry.name)
		if (entry.isDirectory()) yield* walk(root, full)
		else if (entry.isFile()) {
			const stat = await fs.stat(full).catch(() => null)
			if (stat) yield { key: path.relative(root, full).split(path.sep).join('/'), modifiedAt: stat.mtime }
		}
	}
}

/** Files in a folder (DATA_DIR/uploads), next to the staging area: a move is a rename, so atomic. */
export function localFileStore(root = storageRoot()): FileStore {
	return {
		location: root,
		async putStaged(stagedKey, key) {
			const target = resolveKey(key, root)
			await fs.mkdir(path.dirname(target), { recursive: true })
			await fs.rename(stagedPath(stagedKey), target)
		},
		async open(key) {
			const full = resolveKey(key, root)
			const stat = await fs.stat(full).catch(() => null)
			if (!stat?.isFile()) return null
			return { size: stat.size, stream: () => createReadStream(full) }
		},
		async read(key) {
			return fs.readFile(resolveKey(key, root)).catch((error: NodeJS.ErrnoException) => {
				throw error.code === 'ENOENT' ? new StoredFileMissing(key) : error
			})
		},
		async remove(key) {
			await fs.rm(resolveKey(key, root), { force: true })
		},
		// The store's own files (`.owner`, the `.staging` folder) start with a dot; stored keys never do.
		list: () => walk(root, root, (name) => name.startsWith('.')),
		async owner(claimant) {
			const file = path.join(root, '.owner')
			const existing = await fs.readFile(file, 'utf8').catch(() => null)
			if (existing !== null) return existing.trim()
			await fs.mkdir(root, { recursive: true })
			await fs.writeFile(file, claimant, { flag: 'wx' }).catch(() => undefined)
			return (await fs.readFile(file, 'utf8')).trim()
		},
		async check() {
			await fs.mkdir(root, { recursive: true })
		},
	}
}

export type S3Settings = {
	bucket: string
	endpoint?: string
	region: string
	forcePathStyle: boolean
	credentials?: { accessKeyId: string; secretAccessKey: string }
}

/**
 * Files in an S3-compatible bucket, under the same keys. Checksums only where the server requires
 * them: a streamed body with a checksum goes out in aws-chunked encoding, which S3-compatible
 * servers (s3rver, older MinIO) store as it came.
 */
export function s3FileStore(settings: S3Settings): FileStore {
	// The SDK is loaded with the first call, not when the server starts (decision 0094): a portal on
	// its own disk never needs it, and it is among the slowest modules to load.
	type Sdk = typeof S3
	const connect = lazily(async () => {
		const s3 = await import('@aws-sdk/client-s3')
		const client = new s3.S3Client({
			region: settings.region,
			endpoint: settings.endpoint,
			forcePathStyle: settings.forcePathStyle,
			credentials: settings.credentials,
			requestChecksumCalculation: 'WHEN_REQUIRED',
			responseChecksumValidation: 'WHEN_REQUIRED',
		})
		return { s3, client }
	})
	const Bucket = settings.bucket
	const missing = (s3: Sdk, error: unknown) =>
		error instanceof s3.S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404)

	async function read(key: string) {
		const { s3, client } = await connect()
		try {
			const object = await client.send(new s3.GetObjectCommand({ Bucket, Key: key }))
			return Buffer.from(await object.Body!.transformToByteArray())
		} catch (error) {
			throw missing(s3, error) ? new StoredFileMissing(key) : error
		}
	}

	return {
		location: `s3://${Bucket}`,
		async putStaged(stagedKey, key, contentType) {
			const { s3, client } = await connect()
			const source = stagedPath(stagedKey)
			const { size } = await fs.stat(source)
			await client.send(
				new s3.PutObjectCommand({
					Bucket,
					Key: key,
					Body: createReadStream(source),
					ContentLength: size,
					ContentType: contentType,
				}),
			)
			await fs.rm(source, { force: true })
		},
		async open(key) {
			const { s3, client } = await connect()
			let size: number
			try {
				size = (await client.send(new s3.HeadObjectCommand({ Bucket, Key: key }))).ContentLength ?? 0
			} catch (error) {
				if (missing(s3, error)) return null
				throw error
			}
			return {
				size,
				// The object is fetched when the body is first read: a HEAD request fetches nothing.
				stream: () => {
					const out = new PassThrough()
					client
						.send(new s3.GetObjectCommand({ Bucket, Key: key }))
						.then((object) => pipeline(object.Body as Readable, out))
						.catch((error: Error) => out.destroy(error))
					return out
				},
			}
		},
		read,
		async remove(key) {
			const { s3, client } = await connect()
			await client.send(new s3.DeleteObjectCommand({ Bucket, Key: key }))
		},
		async *list() {
			const { s3, client } = await connect()
			let ContinuationToken: string | undefined
			do {
				const page = await client.send(new s3.ListObjectsV2Command({ Bucket, ContinuationToken }))
				for (const object of page.Contents ?? []) {
					if (object.Key && !object.Key.startsWith('.')) yield { key: object.Key, modifiedAt: object.LastModified ?? new Date() }
				}
				ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
			} while (ContinuationToken)
		},
		async owner(claimant) {
			const existing = await read('.owner').catch((error) => {
				if (error instanceof StoredFileMissing) return null
				throw error
			})
			if (existing) return existing.toString('utf8').trim()
			// Conditional: of two first sweeps, the first write wins where the server supports it.
			const { s3, client } = await connect()
			await client.send(new s3.PutObjectCommand({ Bucket, Key: '.owner', Body: claimant, IfNoneMatch: '*' })).catch(() => undefined)
			return (await read('.owner')).toString('utf8').trim()
		},
		async check() {
			const { s3, client } = await connect()
			try {
				await client.send(new s3.HeadBucketCommand({ Bucket }))
			} catch (error) {
				const status = error instanceof s3.S3ServiceException ? error.$metadata.httpStatusCode : undefined
				throw new Error(`the S3 bucket ${Bucket} cannot be used (${status ?? (error instanceof Error ? error.message : String(error))}): check S3_BUCKET, S3_ENDPOINT and the keys`)
			}
		},
	}
}
