import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PassThrough, Readable } from 'node:stream'
import { describe, expect, test } from 'vitest'
import { readTar, TarWriter } from '~/backup/tar.server'

/** The backup archive's tar (decision 0144): what it writes reads back whole, and GNU tar reads it too. */

async function written(files: Array<{ name: string; data: Buffer }>) {
	const out = new PassThrough()
	const chunks: Buffer[] = []
	out.on('data', (chunk: Buffer) => chunks.push(chunk))
	const tar = new TarWriter(out)
	for (const file of files) await tar.bytes(file.name, file.data)
	await tar.end()
	out.end()
	return Buffer.concat(chunks)
}

const files = [
	{ name: 'manifest.json', data: Buffer.from('{"format":"autohub-backup"}') },
	{ name: `data/uploads/${'x'.repeat(150)}.webp`, data: Buffer.alloc(70_000, 7) },
	{ name: 'data/empty', data: Buffer.alloc(0) },
	{ name: 'data/exactly-a-block', data: Buffer.alloc(512, 1) },
]

describe('the backup tar', () => {
	test('reads back every file, long names too, in small chunks', async () => {
		const archive = await written(files)
		const read: Array<{ name: string; data: Buffer }> = []
		// 100-byte chunks: headers and bodies cut anywhere.
		const chunks = Array.from({ length: Math.ceil(archive.length / 100) }, (_, i) => archive.subarray(i * 100, i * 100 + 100))
		await readTar(Readable.from(chunks), () => 'memory', (name, data) => void read.push({ name, data }))
		expect(read.map((file) => file.name)).toEqual(files.map((file) => file.name))
		for (const [i, file] of read.entries()) expect(file.data.equals(files[i]!.data)).toBe(true)
	})

	test('an archive cut short is refused', async () => {
		const archive = await written(files)
		await expect(readTar(Readable.from([archive.subarray(0, 2000)]), () => null, () => undefined)).rejects.toThrow(/incomplete/)
	})

	test('GNU tar lists what it writes', async () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-tar-'))
		try {
			fs.writeFileSync(path.join(dir, 'a.tar'), await written(files))
			const listed = spawnSync('tar', ['-tf', path.join(dir, 'a.tar')], { encoding: 'utf8' })
			if (listed.error) return // no tar on this machine
			expect(listed.stdout.trim().split('\n')).toEqual(files.map((file) => file.name))
		} finally {
			fs.rmSync(dir, { recursive: true, force: true })
		}
	})
})
