import fs from 'node:fs/promises'
import path from 'node:path'
import { stagingDirectory, storageRoot } from '~/uploads/file-store.server'

/** What the local file store holds, for tests that check a write left nothing behind. */

/** The files waiting in the staging area. */
export const stagedFiles = async () => fs.readdir(stagingDirectory()).catch(() => [] as string[])

/** Every file in the store, staging left out, as sorted keys. */
export async function storedFiles(): Promise<string[]> {
	const root = storageRoot()
	const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])
	return entries
		.filter((entry) => entry.isFile())
		.map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
		.filter((key) => !key.startsWith('.'))
		.sort()
}
