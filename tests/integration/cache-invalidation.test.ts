import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import readline from 'node:readline'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { siteSettings } from '~/db/schema'
import { saveReferenceItem } from '~/domain/admin/catalog.server'
import { getSiteSettingsForEdit, saveSiteSettings } from '~/domain/admin/content.server'
import { referenceLists } from '~/domain/site/reference.server'
import { forgetSiteData, getSiteData } from '~/domain/site/site.server'
import { db, queryRows, transaction } from '~/db/db.server'
import { createAdmin } from '#tests/support/accounts'

/**
 * Issue 17, part 4: a change saved through the domain empties the caches of every process, once it
 * commits; a change rolled back empties none. The caches live 30–60 s: "promptly" here is seconds.
 */

async function siteName(name: string) {
	await db.update(siteSettings).set({ appname: name }).where(eq(siteSettings.id, true))
}

describe('in this process', () => {
	test('a saved change empties the cache after its commit; a rolled-back one leaves it', async () => {
		const actor = await createAdmin()
		const current = await getSiteSettingsForEdit()
		await saveSiteSettings(actor.id, { ...current, appname: 'Autohub One', vatRate: 2400 }, {})
		expect((await getSiteData()).appname).toBe('Autohub One')

		// Changed behind the cache's back: the cached name stays until something says otherwise.
		await siteName('Autohub Behind')
		expect((await getSiteData()).appname).toBe('Autohub One')
		await expect(
			transaction(async (tx) => {
				await forgetSiteData(tx)
				throw new Error('rolled back')
			}),
		).rejects.toThrow('rolled back')
		expect((await getSiteData()).appname).toBe('Autohub One')

		// Inside the transaction the cache is still what was committed; after the commit it is gone.
		await transaction(async (tx) => {
			await tx.update(siteSettings).set({ appname: 'Autohub Two' }).where(eq(siteSettings.id, true))
			await forgetSiteData(tx)
			expect((await getSiteData()).appname).toBe('Autohub One')
		})
		expect((await getSiteData()).appname).toBe('Autohub Two')
	})
})

describe.skipIf(!process.env.TEST_DATABASE_URL)('across processes on PostgreSQL', () => {
	let child: ChildProcessWithoutNullStreams
	let lines: AsyncIterator<string>

	beforeAll(async () => {
		// The same database as this test file (tests/setup/database.ts put it in process.env).
		child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/cache-reader.ts'], { env: process.env })
		child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk))
		lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]()
		expect(await next()).toBe('ready')
	}, 30_000)

	afterAll(async () => {
		if (!child || child.exitCode !== null) return
		child.stdin.end('quit\n')
		await new Promise((resolve) => child.once('exit', resolve))
	})

	async function next() {
		const { value, done } = await lines.next()
		if (done) throw new Error('the other process stopped')
		return value
	}
	async function ask(question: 'site' | 'cities'): Promise<unknown> {
		child.stdin.write(`${question}\n`)
		return JSON.parse(await next()) as unknown
	}
	/** What the other process answers within two seconds (its cache lives 30 s or more). */
	async function soon(question: 'site' | 'cities', expected: (answer: unknown) => boolean, withinMs = 2_000) {
		const deadline = Date.now() + withinMs
		let answer = await ask(question)
		while (!expected(answer) && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 50))
			answer = await ask(question)
		}
		return answer
	}

	test('an administrator’s save of the site settings shows in the other process at once', async () => {
		const actor = await createAdmin()
		await siteName('Autohub Before')
		await forgetSiteData()
		expect(await soon('site', (name) => name === 'Autohub Before')).toBe('Autohub Before')

		const current = await getSiteSettingsForEdit()
		await saveSiteSettings(actor.id, { ...current, appname: 'Autohub After', vatRate: 2400 }, {})
		expect(await soon('site', (name) => name === 'Autohub After')).toBe('Autohub After')
	})

	test('a rolled-back change empties nothing in the other process', async () => {
		await siteName('Autohub Cached')
		await forgetSiteData()
		expect(await soon('site', (name) => name === 'Autohub Cached')).toBe('Autohub Cached')

		// Behind the caches' back, then a save that fails: the other process keeps what it had.
		await siteName('Autohub Hidden')
		await expect(
			transaction(async (tx) => {
				await tx.update(siteSettings).set({ appname: 'Autohub Never' }).where(eq(siteSettings.id, true))
				await forgetSiteData(tx)
				throw new Error('rolled back')
			}),
		).rejects.toThrow('rolled back')
		await new Promise((resolve) => setTimeout(resolve, 500))
		expect(await ask('site')).toBe('Autohub Cached')

		// The next real change reaches it.
		await forgetSiteData()
		expect(await soon('site', (name) => name === 'Autohub Hidden')).toBe('Autohub Hidden')
	})

	test('a new city in the reference list shows in the other process at once', async () => {
		const actor = await createAdmin()
		const before = (await ask('cities')) as string[]
		expect(before).not.toContain('cache-bus-city')
		await saveReferenceItem(actor.id, 'cities', null, { code: 'cache-bus-city', nameEt: 'Vahemälu', nameEn: 'Cache Town', nameRu: 'Кэшгород', sortOrder: 0, active: true, county: 'harju' })
		expect(await soon('cities', (codes) => (codes as string[]).includes('cache-bus-city'))).toContain('cache-bus-city')
		// And in this process, of course.
		expect([...(await referenceLists()).cities.idByCode.keys()]).toContain('cache-bus-city')
	})

	test('a listener that lost its connection listens again, and forgets everything it may have missed', async () => {
		await siteName('Autohub Heard')
		await forgetSiteData()
		expect(await soon('site', (name) => name === 'Autohub Heard')).toBe('Autohub Heard')

		const ended = await queryRows<{ ended: boolean }>(
			db,
			sql`select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = current_database() and query = 'listen autohub_cache'`,
		)
		expect(ended).toEqual([{ ended: true }])
		// Changed while nobody listened: the reconnection (a second later) empties the caches.
		await siteName('Autohub Missed')
		expect(await soon('site', (name) => name === 'Autohub Missed', 5_000)).toBe('Autohub Missed')
		await saveSiteSettings((await createAdmin()).id, { ...(await getSiteSettingsForEdit()), appname: 'Autohub Heard Again', vatRate: 2400 }, {})
		expect(await soon('site', (name) => name === 'Autohub Heard Again')).toBe('Autohub Heard Again')
	})
})
