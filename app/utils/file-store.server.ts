import { randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { getEnv } from './env.server'

/**
 * The file store: every read, write, move and delete of a stored file goes through here, so
 * another backend (S3, issue 17) replaces this module only. Files arrive in the staging area
 * (always local disk: sharp and the parser work on files) and enter the store by `promote`,
 * once the database row that names them has committed.
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

/** Moves a staged file to its key in the store: a rename within the storage root, so atomic. */
export async function promote(stagedKey: string, key: string) {
	const target = resolveKey(key)
	await fs.mkdir(path.dirname(target), { recursive: true })
	await fs.rename(stagedPath(stagedKey), target)
}

/** A stored file's size and a stream of it, or null when it is not there. */
export async function openStoredFile(key: string): Promise<{ size: number; stream: () => Readable } | null> {
	const full = resolveKey(key)
	const stat = await fs.stat(full).catch(() => null)
	if (!stat?.isFile()) return null
	return { size: stat.size, stream: () => createReadStream(full) }
}

/** A whole stored file (e-mail attachments, tests); prefer openStoredFile for serving. */
export async function readStoredFile(key: string): Promise<Buffer> {
	return fs.readFile(resolveKey(key))
}

export async function deleteStoredFile(key: string, root = storageRoot()) {
	await fs.rm(resolveKey(key, root), { force: true })
}

export type StoredFileEntry = { key: string; modifiedAt: Date }

/** Every file under the root, staging included, as keys with `/` separators. */
export async function* listStoredFiles(root = storageRoot()): AsyncGenerator<StoredFileEntry> {
	const walk = async function* (directory: string): AsyncGenerator<StoredFileEntry> {
		const entries = await fs.readdir(directory, { withFileTypes: true }).catch(() => [])
		for (const entry of entries) {
			const full = path.join(directory, entry.name)
			if (entry.isDirectory()) yield* walk(full)
			else if (entry.isFile()) {
				const stat = await fs.stat(full).catch(() => null)
				if (stat) yield { key: path.relative(root, full).split(path.sep).join('/'), modifiedAt: stat.mtime }
			}
		}
	}
	yield* walk(root)
}

/** Which database a storage root belongs to, written by the first one to sweep it. */
export async function rootOwner(root: string, claimant: string): Promise<string> {
	const file = path.join(root, '.owner')
	const existing = await fs.readFile(file, 'utf8').catch(() => null)
	if (existing !== null) return existing.trim()
	await fs.mkdir(root, { recursive: true })
	await fs.writeFile(file, claimant, { flag: 'wx' }).catch(() => undefined)
	return (await fs.readFile(file, 'utf8')).trim()
}
