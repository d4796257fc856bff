import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { type PGlite } from '@electric-sql/pglite'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { openEmbeddedEarly, takeEarlyClient } from '~/db/embedded-database.server'

/** What openEmbeddedEarly leaves for the app's getConnection(), set here without opening PostgreSQL. */
const slot = globalThis as { __autohubEarlyDatabase?: { directory: string; client: PGlite } }

function earlyClient(directory: string) {
	const client = { close: vi.fn(() => Promise.resolve()) }
	slot.__autohubEarlyDatabase = { directory, client: client as unknown as PGlite }
	return client
}

afterEach(() => {
	slot.__autohubEarlyDatabase = undefined
})

describe('the embedded database opened early (decision 0094)', () => {
	test('a data directory without a database is not opened early: the app makes it, once', () => {
		const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'autohub-early-'))
		try {
			openEmbeddedEarly(dataDir)
			expect(slot.__autohubEarlyDatabase).toBeUndefined()
			expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(false)
			openEmbeddedEarly('memory://early')
			expect(slot.__autohubEarlyDatabase).toBeUndefined()
		} finally {
			fs.rmSync(dataDir, { recursive: true, force: true })
		}
	})

	test('the same directory takes the client over, once', () => {
		const client = earlyClient('/data/pglite')
		expect(takeEarlyClient('/data/pglite')).toBe(client)
		expect(takeEarlyClient('/data/pglite')).toBeUndefined()
		expect(client.close).not.toHaveBeenCalled()
	})

	test('a client not taken (another directory, or a tarball to start from) is closed, not left open', () => {
		const other = earlyClient('/data/pglite')
		expect(takeEarlyClient('/elsewhere/pglite')).toBeUndefined()
		expect(other.close).toHaveBeenCalledOnce()
		expect(slot.__autohubEarlyDatabase).toBeUndefined()

		const unfit = earlyClient('/data/pglite')
		expect(takeEarlyClient('/data/pglite', { loadDataDir: new Blob([]) })).toBeUndefined()
		expect(unfit.close).toHaveBeenCalledOnce()
	})
})
