import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import type { PGlite } from '@electric-sql/pglite'

/**
 * The backup door (decision 0144): a process that holds the embedded database open listens on a
 * Unix socket in DATA_DIR, and `npm run backup` asks it there for a copy of the database. PGlite
 * is one process's: no second process may open the directory while the portal runs, so the copy
 * has to be made by the process that holds it. The socket is also how a script knows that one does
 * (a connection is accepted only while that process lives; a file left by a killed one refuses).
 *   Who may knock is who may open the socket file: it is made 0600 in DATA_DIR, the owner's
 * folder, whose files (the database, the session secret) that user can read anyway. Nothing
 * listens on the network.
 */

export const BACKUP_SOCKET = 'backup.sock'

/** Unix socket paths are at most 107 bytes: the shorter of the absolute and the relative path, or null when both are too long. */
export function backupSocketAddress(dataDir: string): string | null {
	const absolute = path.join(path.resolve(dataDir), BACKUP_SOCKET)
	const relative = path.relative(process.cwd(), absolute)
	const shortest = relative.length < absolute.length ? relative : absolute
	return Buffer.byteLength(shortest) <= 100 ? shortest : null
}

export type DoorRequest = { dump: string }
export type DoorAnswer = { ok: true; bytes: number; ms: number } | { ok: false; error: string }

/**
 * Writes the database's consistent copy (`dumpDataDir`: PGlite's data directory as a tar, taken
 * while no statement runs; a transaction still open is not in it, as after a crash) to `file`,
 * which must not exist yet.
 */
export async function dumpDatabase(client: PGlite, file: string): Promise<{ bytes: number; ms: number }> {
	const started = performance.now()
	// Opened first: dumpDataDir takes the query lock that opening a new client still needs.
	await client.waitReady
	const dump = await client.dumpDataDir('none')
	const data = Buffer.from(await dump.arrayBuffer())
	await fs.promises.writeFile(file, data, { flag: 'wx', mode: 0o600 })
	return { bytes: data.length, ms: Math.round(performance.now() - started) }
}

export type BackupDoor = { close: () => Promise<void> }

/**
 * Opens the door for `client` on `dataDir`. Never fails the database's open: a door that cannot
 * open (a path too long, another live process on the socket) is a warning, and a backup of the
 * running portal then says why it cannot be made.
 */
export function openBackupDoor(client: PGlite, dataDir: string, warn: (message: string, details: Record<string, unknown>) => void): BackupDoor {
	const address = backupSocketAddress(dataDir)
	if (!address) {
		warn('no backup door: the path of DATA_DIR is too long for a Unix socket', { dataDir })
		return { close: async () => undefined }
	}
	const server = net.createServer((socket) => {
		let line = ''
		socket.setEncoding('utf8')
		socket.on('error', () => undefined)
		socket.on('data', (chunk: string) => {
			line += chunk
			if (!line.includes('\n') || line.length > 4096) return
			socket.removeAllListeners('data')
			void answer(line.slice(0, line.indexOf('\n'))).then((reply) => socket.end(`${JSON.stringify(reply)}\n`))
		})
	})
	server.unref()

	async function answer(text: string): Promise<DoorAnswer> {
		try {
			const request = JSON.parse(text) as Partial<DoorRequest>
			if (typeof request.dump !== 'string' || !path.isAbsolute(request.dump)) return { ok: false, error: 'ask for { "dump": "<absolute path of a new file>" }' }
			return { ok: true, ...(await dumpDatabase(client, request.dump)) }
		} catch (error) {
			return { ok: false, error: error instanceof Error ? error.message : String(error) }
		}
	}

	const listen = () =>
		server.listen(address, () => {
			// Reachable by its owner only (the socket file's mode is what a connection is checked against).
			fs.chmodSync(address, 0o600)
		})
	server.on('error', (error: NodeJS.ErrnoException) => {
		if (error.code !== 'EADDRINUSE') return warn('no backup door', { err: error })
		// A socket file is there: a killed process's (nobody answers: it is taken over) or a live one's.
		const probe = net.connect(address)
		probe.on('connect', () => {
			probe.destroy()
			warn('another process holds this DATA_DIR open (its backup door answers): two processes must never open one embedded database', { dataDir })
		})
		probe.on('error', () => {
			fs.rmSync(address, { force: true })
			listen()
		})
	})
	listen()

	return {
		close: () =>
			new Promise<void>((resolve) => {
				if (!server.listening) return resolve()
				server.close(() => resolve())
			}),
	}
}

/**
 * Asks the process that holds `dataDir` open for a copy of its database in `file`: 'no portal'
 * when none answers (no socket, or a dead one's), else its answer.
 */
export function askForDump(dataDir: string, file: string, timeoutMs = 10 * 60 * 1000): Promise<DoorAnswer | 'no portal'> {
	const address = backupSocketAddress(dataDir)
	if (!address || !fs.existsSync(address)) return Promise.resolve('no portal')
	return new Promise((resolve) => {
		const socket = net.connect(address)
		let reply = ''
		let connected = false
		socket.setEncoding('utf8')
		socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer in ${timeoutMs / 1000} s`)))
		socket.on('connect', () => {
			connected = true
			socket.write(`${JSON.stringify({ dump: file } satisfies DoorRequest)}\n`)
		})
		socket.on('data', (chunk: string) => (reply += chunk))
		socket.on('error', (error: NodeJS.ErrnoException) => {
			if (!connected && (error.code === 'ECONNREFUSED' || error.code === 'ENOENT')) resolve('no portal')
			else resolve({ ok: false, error: error.message })
		})
		socket.on('close', () => {
			if (!connected) return
			try {
				resolve(JSON.parse(reply) as DoorAnswer)
			} catch {
				resolve({ ok: false, error: `the portal's answer was not understood: ${reply.slice(0, 200)}` })
			}
		})
	})
}

/** Whether a live process holds `dataDir` open (its backup door accepts a connection). */
export function isHeldOpen(dataDir: string): Promise<boolean> {
	const address = backupSocketAddress(dataDir)
	if (!address || !fs.existsSync(address)) return Promise.resolve(false)
	return new Promise((resolve) => {
		const probe = net.connect(address)
		probe.on('connect', () => {
			probe.destroy()
			resolve(true)
		})
		probe.on('error', () => resolve(false))
	})
}
