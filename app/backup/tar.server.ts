import fs from 'node:fs'
import type { Readable, Writable } from 'node:stream'

/**
 * The little of the tar format (POSIX ustar, PAX for long names) a backup needs: regular files
 * written one after the other to a stream, and read back from one. No dependency: a production
 * install has no `tar` package, and GNU tar, busybox's and bsdtar all read what this writes.
 */

const BLOCK = 512
const MAX_SIZE = 8 ** 11 - 1

function octal(value: number, length: number) {
	return value.toString(8).padStart(length - 1, '0') + '\0'
}

function header(name: string, size: number, type: '0' | 'x', mtime: Date) {
	const block = Buffer.alloc(BLOCK)
	block.write(name, 0, 100, 'utf8')
	block.write(octal(0o644, 8), 100)
	block.write(octal(0, 8), 108)
	block.write(octal(0, 8), 116)
	block.write(octal(size, 12), 124)
	block.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136)
	block.write(' '.repeat(8), 148)
	block.write(type, 156)
	block.write('ustar\0', 257)
	block.write('00', 263)
	let sum = 0
	for (const byte of block) sum += byte
	block.write(octal(sum, 7) + ' ', 148)
	return block
}

/** A PAX record "<length> path=<name>\n", its length counting itself. */
function paxPath(name: string) {
	const body = ` path=${name}\n`
	let length = Buffer.byteLength(body) + 1
	while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body)
	return Buffer.from(`${length}${body}`)
}

/** Writes files into a tar stream, waiting for the stream whenever it asks to (large uploads never sit in memory). */
export class TarWriter {
	constructor(private readonly out: Writable) {}

	private write(chunk: Buffer): Promise<void> {
		if (this.out.write(chunk)) return Promise.resolve()
		return new Promise((resolve) => this.out.once('drain', resolve))
	}

	private async head(name: string, size: number, mtime: Date) {
		if (size > MAX_SIZE) throw new Error(`${name} is over 8 GB: too large for a tar entry`)
		if (Buffer.byteLength(name) > 100) {
			const record = paxPath(name)
			await this.write(header('PaxHeader', record.length, 'x', mtime))
			await this.write(record)
			await this.padding(record.length)
		}
		await this.write(header(name, size, '0', mtime))
	}

	private padding(size: number) {
		const rest = size % BLOCK
		return rest ? this.write(Buffer.alloc(BLOCK - rest)) : Promise.resolve()
	}

	/** A file from bytes in memory. */
	async bytes(name: string, data: Buffer, mtime = new Date()) {
		await this.head(name, data.length, mtime)
		await this.write(data)
		await this.padding(data.length)
	}

	/** A file from disk, streamed; it must not change meanwhile (stored uploads never do). */
	async file(name: string, source: string) {
		const stat = await fs.promises.stat(source)
		await this.head(name, stat.size, stat.mtime)
		let written = 0
		for await (const chunk of fs.createReadStream(source) as AsyncIterable<Buffer>) {
			written += chunk.length
			if (written > stat.size) throw new Error(`${source} grew while it was copied`)
			await this.write(chunk)
		}
		if (written !== stat.size) throw new Error(`${source} shrank while it was copied`)
		await this.padding(stat.size)
	}

	/** The two empty blocks that end an archive. */
	end() {
		return this.write(Buffer.alloc(2 * BLOCK))
	}
}

/** What to do with an entry's bytes: keep them in memory, write them to a file, or skip them. */
export type EntryTarget = 'memory' | { file: string } | null

/**
 * Reads a tar stream entry by entry. `onEntry` says where each regular file goes; those kept in
 * memory are handed to `onBytes`. Directories and links are skipped (a backup has none).
 */
export async function readTar(
	input: Readable,
	onEntry: (name: string, size: number) => EntryTarget | Promise<EntryTarget>,
	onBytes: (name: string, data: Buffer) => void | Promise<void>,
) {
	let buffer: Buffer = Buffer.alloc(0)
	let entry: { name: string; size: number; left: number; padded: number; target: EntryTarget; fd?: number; chunks: Buffer[]; pax: boolean } | null = null
	let nextName: string | null = null
	let ended = false

	const finish = async () => {
		if (!entry) return
		if (entry.fd !== undefined) fs.closeSync(entry.fd)
		const data = Buffer.concat(entry.chunks)
		if (entry.pax) nextName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'))?.[1] ?? null
		else if (entry.target === 'memory') await onBytes(entry.name, data)
		entry = null
	}

	for await (const chunk of input as AsyncIterable<Buffer>) {
		buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk
		for (;;) {
			if (ended) break
			if (entry) {
				if (entry.left > 0) {
					if (!buffer.length) break
					const take = buffer.subarray(0, Math.min(entry.left, buffer.length))
					if (entry.fd !== undefined) fs.writeSync(entry.fd, take)
					else if (entry.target === 'memory' || entry.pax) entry.chunks.push(Buffer.from(take))
					entry.left -= take.length
					buffer = buffer.subarray(take.length)
					continue
				}
				if (buffer.length < entry.padded) break
				buffer = buffer.subarray(entry.padded)
				await finish()
				continue
			}
			if (buffer.length < BLOCK) break
			const block = buffer.subarray(0, BLOCK)
			buffer = buffer.subarray(BLOCK)
			if (block.every((byte) => byte === 0)) {
				ended = true
				break
			}
			const field = (start: number, length: number) => block.subarray(start, start + length).toString('utf8').replace(/\0.*$/s, '')
			const size = parseInt(field(124, 12).trim() || '0', 8)
			const type = field(156, 1) || '0'
			const prefix = field(257, 6).startsWith('ustar') ? field(345, 155) : ''
			const name = nextName ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100))
			const padded = (BLOCK - (size % BLOCK)) % BLOCK
			if (type === 'x') {
				entry = { name, size, left: size, padded, target: null, chunks: [], pax: true }
				continue
			}
			nextName = null
			const target = type === '0' ? await onEntry(name, size) : null
			const fd = target && target !== 'memory' ? fs.openSync(target.file, 'wx') : undefined
			entry = { name, size, left: size, padded, target, fd, chunks: [], pax: false }
		}
		if (ended) break
	}
	// The writer always ends with two empty blocks: an archive without them was cut short.
	if (!ended) throw new Error('the archive ends before its end: it is incomplete')
}
